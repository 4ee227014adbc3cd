/**
 * Module IRs kept between sessions, in the private directory the host gives a plugin that
 * asks for one (`initialize.options.cacheDir`). Each entry is addressed by the sha256 of the
 * module's text, so an edited file simply misses and a renamed one still hits; an entry that
 * does not decode is a miss and is removed. Without a cache directory nothing is kept.
 *
 * An entry is a header line with the byte lengths of three JSON documents, then the documents:
 * what name resolution always reads (definitions, the names bound at module and class level,
 * `__all__`), the names bound in functions, lambdas and comprehensions, and what only the
 * module's own analysis reads (its call sites, imports and type references). Most cached modules
 * of an incremental session are only resolved into, where few function bodies are looked at, so
 * only the first document is read with the entry; the others are read and parsed the first time
 * something of theirs is asked for, if ever. (JSON, because V8's parser decodes these object
 * trees faster than a msgpack decoder.)
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Binding, DefIR, InstanceAttr, ModuleIR, ScopeIR } from '../syntax/module-ir.js';

/** Bumped whenever the IR's shape, the entry's layout or the extraction changes: older entries are never read. */
export const IR_FORMAT = 'ir-8';

/** How long the plugin must have been idle before pending entries are written. */
const IDLE_MS = 30;
/** Longest stretch of writing before yielding to the event loop. */
const SLICE_MS = 15;
/** The line feed that ends an entry's header. */
const NEWLINE = 0x0a;
/** The most an entry's header takes (the format and three lengths). */
const HEADER_MAX = 64;

/** The part of a module only its own analysis reads, stored on the entry's last line. */
type AnalysisPart = Pick<ModuleIR, 'calls' | 'imports' | 'typeRefs'>;

type StoredNames = [string, Binding[]][];

/** A ModuleIR's first line: what resolution reads, without Maps and Sets (a function's names are on the second). */
interface StoredIR extends Omit<ModuleIR, 'scopes' | 'defs' | 'path' | keyof AnalysisPart> {
  format: string;
  scopes: (Omit<ScopeIR, 'names' | 'globals'> & { names?: StoredNames; globals?: string[] })[];
  defs: (Omit<DefIR, 'instanceAttrs'> & { instanceAttrs?: [string, InstanceAttr[]][] })[];
}

/** The second line: the names of each scope the first line has without them, by scope index. */
type StoredFunctionNames = [number, StoredNames][];

/** Reads a module's IR from its text, for an entry whose later documents turn out not to decode. */
export type ModuleParser = (path: string, text: string) => ModuleIR;

/** A module's source: its text, or the bytes of its file (hashed as they are: no decoding on a hit). */
export type ModuleSource = string | Uint8Array;

/** The text of a module's source (a file's bytes decode as `readFileSync(path, 'utf8')` would). */
export function textOf(source: ModuleSource): string {
  return typeof source === 'string' ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8');
}

/**
 * @example
 * ```ts
 * const cache = new IrCache(session.options.cacheDir, (path, text) => syntax.read(path, text));
 * const ir = cache.get(path, source) ?? cache.put(source, syntax.read(path, textOf(source)));
 * cache.flush(200); // at shutdown: write what is pending, for at most 200 ms
 * ```
 */
export class IrCache {
  private readonly dir: string | undefined;
  /** The cache directory the host gave (entries of each format live in a folder of its own). */
  private readonly root: string | undefined;
  /** Folders of older formats, never read again: removed one per idle moment (undefined: not listed yet). */
  private stale: string[] | undefined;
  hits = 0;
  misses = 0;
  /** Set when a write failed (a full disk, a directory the host emptied): caching stops for the session. */
  private broken = false;
  /** Entries waiting to be written while the plugin is idle (writing them costs ~1 ms each). */
  private readonly pending = new Map<string, ModuleIR>();
  private lastUse = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Where entries' headers and first documents are read (reused: a fresh buffer per entry costs page faults). */
  private scratch = Buffer.allocUnsafeSlow(256 * 1024);
  /** The last source hashed and its entry's file (a miss hashes for `get` and again for `put`). */
  private lastSource: ModuleSource | undefined;
  private lastFile = '';

  /**
   * @param parse reads a module afresh when a later document of its entry does not decode (found
   *   only when something of it is first asked for, after the entry was returned).
   */
  constructor(
    cacheDir: unknown,
    private readonly parse?: ModuleParser,
  ) {
    this.root = typeof cacheDir === 'string' && cacheDir !== '' ? cacheDir : undefined;
    this.dir = this.root !== undefined ? join(this.root, IR_FORMAT) : undefined;
  }

  /** Whether entries are kept at all. */
  get enabled(): boolean {
    return this.dir !== undefined && !this.broken;
  }

  /** The cached IR of a module with this source, now at `path`. */
  get(path: string, source: ModuleSource): ModuleIR | undefined {
    if (!this.enabled) return undefined;
    this.lastUse = performance.now();
    const file = this.fileOf(source);
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      this.misses++;
      return undefined;
    }
    try {
      const entry = this.readEntry(fd, file, () => this.parsedAfresh(file, path, source));
      this.hits++;
      return entry.revive(path);
    } catch {
      rmSync(file, { force: true });
      this.misses++;
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** An entry's header and first document; the others stay on disk until asked for. */
  private readEntry(fd: number, file: string, afresh: () => ModuleIR | undefined): StoredEntry {
    let read = readSync(fd, this.scratch, 0, this.scratch.length, 0);
    const eol = this.scratch.indexOf(NEWLINE);
    if (eol < 0 || eol > HEADER_MAX || eol >= read) throw new Error('no header');
    const [format, ...sizes] = this.scratch.toString('latin1', 0, eol).split(' ');
    const lengths = sizes.map(Number);
    if (format !== IR_FORMAT || lengths.length !== 3 || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0))
      throw new Error('another format');
    const [first, second, third] = lengths as [number, number, number];
    const end = eol + 1 + first;
    if (end > this.scratch.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(end, this.scratch.length * 2));
      this.scratch.copy(grown, 0, 0, read);
      this.scratch = grown;
    }
    while (read < end) {
      const n = readSync(fd, this.scratch, read, end - read, read);
      if (n === 0) throw new Error('truncated');
      read += n;
    }
    const stored = JSON.parse(this.scratch.toString('utf8', eol + 1, end)) as StoredIR;
    const at = (offset: number, length: number) => () => readRange(file, offset, length);
    return new StoredEntry(stored, at(end, second), at(end + second, third), afresh);
  }

  /** The module read from its source, for an entry whose later documents do not decode (the entry is removed). */
  private parsedAfresh(file: string, path: string, source: ModuleSource): ModuleIR | undefined {
    rmSync(file, { force: true });
    return this.parse?.(path, textOf(source));
  }

  /**
   * Keeps the IR of a module with this source; returns it. The entry is written when the plugin
   * has been idle for a moment (the host is storing what it sent), not while it analyzes.
   */
  put(source: ModuleSource, ir: ModuleIR): ModuleIR {
    if (!this.enabled) return ir;
    this.lastUse = performance.now();
    this.pending.set(this.fileOf(source), ir);
    if (!this.timer) {
      this.timer = setTimeout(() => this.drainWhenIdle(), IDLE_MS);
      // Pending writes never keep the process alive: the session's end flushes or drops them.
      this.timer.unref();
    }
    return ir;
  }

  /** Entries not written yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Writes what is pending, for at most `budgetMs` (the session is ending: the rest is dropped,
   * and the next session parses those modules again).
   */
  flush(budgetMs = Number.POSITIVE_INFINITY): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const until = performance.now() + budgetMs;
    for (const [file, ir] of this.pending) {
      if (performance.now() > until || !this.enabled) break;
      this.write(file, ir);
      this.pending.delete(file);
    }
    this.pending.clear();
  }

  private drainWhenIdle(): void {
    this.timer = undefined;
    const idle = performance.now() - this.lastUse;
    if (idle < IDLE_MS) {
      this.timer = setTimeout(() => this.drainWhenIdle(), IDLE_MS - idle);
      this.timer.unref();
      return;
    }
    // A slice at a time, so that a request arriving meanwhile is not kept waiting.
    const until = performance.now() + SLICE_MS;
    for (const [file, ir] of this.pending) {
      if (performance.now() > until || !this.enabled) break;
      this.write(file, ir);
      this.pending.delete(file);
    }
    if (!this.enabled) this.pending.clear();
    if (this.pending.size === 0 && performance.now() < until) this.removeStaleFormat();
    // Folders of older formats not listed yet are still to be looked at (a slow write can use up
    // the slice before they are).
    const staleLeft = this.root !== undefined && this.enabled && (this.stale === undefined || this.stale.length > 0);
    if (this.pending.size > 0 || staleLeft) {
      this.timer = setTimeout(() => this.drainWhenIdle(), 0);
      this.timer.unref();
    }
  }

  /** Removes one folder of an older format (an upgraded plugin's entries are never read again). */
  private removeStaleFormat(): void {
    if (this.root === undefined || !this.enabled) return;
    if (this.stale === undefined) {
      try {
        this.stale = readdirSync(this.root).filter((name) => /^ir-\d+$/.test(name) && name !== IR_FORMAT);
      } catch {
        this.stale = [];
      }
    }
    const name = this.stale.pop();
    if (name !== undefined) rmSync(join(this.root, name), { recursive: true, force: true });
  }

  private write(file: string, ir: ModuleIR): void {
    try {
      mkdirSync(join(file, '..'), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, serialize(ir));
      renameSync(tmp, file);
    } catch {
      this.broken = true;
    }
  }

  /** The entry's file: named by the sha256 of the source's UTF-8 bytes (a text and its file's bytes agree). */
  private fileOf(source: ModuleSource): string {
    if (source !== this.lastSource) {
      const key = createHash('sha256').update(source).digest('hex');
      this.lastSource = source;
      this.lastFile = join(this.dir!, key.slice(0, 2), `${key.slice(2)}.ir`);
    }
    return this.lastFile;
  }
}

/** The entry of a module: its header line and three documents. */
function serialize(ir: ModuleIR): Buffer {
  // The path is not part of the entry: the same text at another path is the same module IR.
  const { scopes, defs, path, calls, imports, typeRefs, ...rest } = ir;
  void path;
  const functionNames: StoredFunctionNames = [];
  const stored: StoredIR = {
    ...rest,
    format: IR_FORMAT,
    scopes: scopes.map(({ names, globals, ...s }, i) => {
      const pairs = [...names];
      if (!eagerScope(s.kind)) functionNames.push([i, pairs]);
      return { ...s, ...(eagerScope(s.kind) ? { names: pairs } : {}), ...(globals ? { globals: [...globals] } : {}) };
    }),
    defs: defs.map(({ instanceAttrs, ...d }) => ({ ...d, ...(instanceAttrs ? { instanceAttrs: [...instanceAttrs] } : {}) })),
  };
  const analysis: AnalysisPart = { calls, imports, typeRefs };
  const documents = [JSON.stringify(stored), JSON.stringify(functionNames), JSON.stringify(analysis)].map((d) => Buffer.from(d));
  return Buffer.concat([Buffer.from(`${IR_FORMAT} ${documents.map((d) => d.length).join(' ')}\n`), ...documents]);
}

/** Scopes whose names every lookup into a module may read: on the entry's first line. */
function eagerScope(kind: ScopeIR['kind']): boolean {
  return kind === 'module' || kind === 'class';
}

/** A byte range of an entry's file as text; undefined when it cannot be read whole. */
function readRange(file: string, offset: number, length: number): string | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const bytes = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const n = readSync(fd, bytes, read, length - read, offset + read);
        if (n === 0) return undefined;
        read += n;
      }
      return bytes.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** An entry as read: the first document decoded, the others when first needed. */
class StoredEntry {
  private functionNames: Map<number, StoredNames> | undefined;
  private analysis: AnalysisPart | undefined;
  private fresh: ModuleIR | undefined | null = null;

  constructor(
    private readonly stored: StoredIR,
    private readonly secondDocument: () => string | undefined,
    private readonly thirdDocument: () => string | undefined,
    private readonly parsedAfresh: () => ModuleIR | undefined,
  ) {
    if (stored.format !== IR_FORMAT) throw new Error('another format');
  }

  /** The module IR at `path` (once per entry): function scopes' names and the analysis part decode on first use. */
  revive(path: string): ModuleIR {
    const { format, scopes, defs, ...rest } = this.stored;
    void format;
    // In place: the decoded objects become the IR's (copying them doubled what the collector saw).
    for (let i = 0; i < scopes.length; i++) {
      const stored = scopes[i]!;
      const scope = stored as unknown as ScopeIR;
      if (stored.globals) scope.globals = new Set(stored.globals);
      if (stored.names) scope.names = new Map(stored.names);
      else
        Object.defineProperty(
          scope,
          'names',
          lazily('names', () => this.namesOf(i)),
        );
    }
    for (const stored of defs) {
      if (stored.instanceAttrs) (stored as unknown as DefIR).instanceAttrs = new Map(stored.instanceAttrs);
    }
    const ir = { ...rest, path, scopes: scopes as unknown as ScopeIR[], defs: defs as unknown as DefIR[] };
    return Object.defineProperties(ir, {
      calls: lazily('calls', () => this.analysisPart().calls),
      imports: lazily('imports', () => this.analysisPart().imports),
      typeRefs: lazily('typeRefs', () => this.analysisPart().typeRefs),
    }) as ModuleIR;
  }

  private namesOf(scope: number): Map<string, Binding[]> {
    if (!this.functionNames) {
      try {
        const stored = JSON.parse(this.secondDocument() ?? '') as StoredFunctionNames;
        this.functionNames = new Map(stored);
      } catch {
        this.functionNames = new Map();
      }
    }
    const pairs = this.functionNames.get(scope);
    return pairs ? new Map(pairs) : (this.afresh()?.scopes[scope]?.names ?? new Map<string, Binding[]>());
  }

  private analysisPart(): AnalysisPart {
    if (!this.analysis) {
      try {
        const part = JSON.parse(this.thirdDocument() ?? '') as AnalysisPart;
        if (Array.isArray(part.calls) && Array.isArray(part.imports) && Array.isArray(part.typeRefs)) this.analysis = part;
      } catch {
        // Handled below, like a malformed part.
      }
      const fresh = this.analysis ? undefined : this.afresh();
      this.analysis ??= { calls: fresh?.calls ?? [], imports: fresh?.imports ?? [], typeRefs: fresh?.typeRefs ?? [] };
    }
    return this.analysis;
  }

  /** The module parsed from its source, once, when a later document of its entry is broken. */
  private afresh(): ModuleIR | undefined {
    if (this.fresh === null) this.fresh = this.parsedAfresh();
    return this.fresh;
  }
}

/** A property computed on first read and kept (it then becomes a plain value). */
function lazily<T>(key: string, compute: () => T): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: object): T {
      const value = compute();
      Object.defineProperty(this, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    },
  };
}
