/**
 * Module IRs kept between sessions, in the private directory the host gives a plugin that
 * asks for one (`initialize.options.cacheDir`). Each entry is addressed by the sha256 of the
 * module's text, so an edited file simply misses and a renamed one still hits; an entry that
 * does not decode is a miss and is removed. Without a cache directory nothing is kept.
 *
 * An entry is three JSON documents on three lines: what name resolution always reads
 * (definitions, the names bound at module and class level, `__all__`), the names bound in
 * functions, lambdas and comprehensions, and what only the module's own analysis reads (its call
 * sites, imports and type references). Most cached modules of an incremental session are only
 * resolved into, where few function bodies are looked at, so the last two lines are parsed the
 * first time something of theirs is asked for, if ever. (JSON, because V8's parser decodes these
 * object trees faster than a msgpack decoder.)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Binding, DefIR, InstanceAttr, ModuleIR, ScopeIR } from '../syntax/module-ir.js';

/** Bumped whenever the IR's shape, the entry's layout or the extraction changes: older entries are never read. */
export const IR_FORMAT = 'ir-7';

/** How long the plugin must have been idle before pending entries are written. */
const IDLE_MS = 30;
/** Longest stretch of writing before yielding to the event loop. */
const SLICE_MS = 15;
/** The line feed between an entry's documents (JSON escapes it inside strings). */
const NEWLINE = 0x0a;

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

/** Reads a module's IR from its text, for an entry whose later lines turn out not to decode. */
export type ModuleParser = (path: string, text: string) => ModuleIR;

/**
 * @example
 * ```ts
 * const cache = new IrCache(session.options.cacheDir, (path, text) => syntax.read(path, text));
 * const ir = cache.get(path, text) ?? cache.put(text, syntax.read(path, text));
 * cache.flush(200); // at shutdown: write what is pending, for at most 200 ms
 * ```
 */
export class IrCache {
  private readonly dir: string | undefined;
  hits = 0;
  misses = 0;
  /** Set when a write failed (a full disk, a directory the host emptied): caching stops for the session. */
  private broken = false;
  /** Entries waiting to be written while the plugin is idle (writing them costs ~1 ms each). */
  private readonly pending = new Map<string, ModuleIR>();
  private lastUse = 0;
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param parse reads a module afresh when a later line of its entry does not decode (found
   *   only when something of that line is first asked for, after the entry was returned).
   */
  constructor(
    cacheDir: unknown,
    private readonly parse?: ModuleParser,
  ) {
    this.dir = typeof cacheDir === 'string' && cacheDir !== '' ? join(cacheDir, IR_FORMAT) : undefined;
  }

  /** Whether entries are kept at all. */
  get enabled(): boolean {
    return this.dir !== undefined && !this.broken;
  }

  /** The cached IR of a module with this text, now at `path`. */
  get(path: string, text: string): ModuleIR | undefined {
    if (!this.enabled) return undefined;
    this.lastUse = performance.now();
    const file = this.fileOf(text);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      this.misses++;
      return undefined;
    }
    try {
      const entry = new StoredEntry(bytes, () => this.parsedAfresh(file, path, text));
      this.hits++;
      return entry.revive(path);
    } catch {
      rmSync(file, { force: true });
      this.misses++;
      return undefined;
    }
  }

  /** The module read from its text, for an entry whose later lines do not decode (the entry is removed). */
  private parsedAfresh(file: string, path: string, text: string): ModuleIR | undefined {
    rmSync(file, { force: true });
    return this.parse?.(path, text);
  }

  /**
   * Keeps the IR of a module with this text; returns it. The entry is written when the plugin
   * has been idle for a moment (the host is storing what it sent), not while it analyzes.
   */
  put(text: string, ir: ModuleIR): ModuleIR {
    if (!this.enabled) return ir;
    this.lastUse = performance.now();
    this.pending.set(this.fileOf(text), ir);
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
    if (this.pending.size > 0) {
      this.timer = setTimeout(() => this.drainWhenIdle(), 0);
      this.timer.unref();
    }
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

  private fileOf(text: string): string {
    const key = createHash('sha256').update(text).digest('hex');
    return join(this.dir!, key.slice(0, 2), `${key.slice(2)}.mpk`);
  }
}

/** The entry of a module: its three lines. */
function serialize(ir: ModuleIR): string {
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
  return `${JSON.stringify(stored)}\n${JSON.stringify(functionNames)}\n${JSON.stringify(analysis)}`;
}

/** Scopes whose names every lookup into a module may read: on the entry's first line. */
function eagerScope(kind: ScopeIR['kind']): boolean {
  return kind === 'module' || kind === 'class';
}

/** An entry as read: the first line decoded, the others when first needed. */
class StoredEntry {
  private readonly stored: StoredIR;
  private readonly second: number;
  private functionNames: Map<number, StoredNames> | undefined;
  private analysis: AnalysisPart | undefined;
  private fresh: ModuleIR | undefined | null = null;

  /** @throws when the first line does not decode or is of another format (a miss). */
  constructor(
    private readonly bytes: Buffer,
    private readonly parsedAfresh: () => ModuleIR | undefined,
  ) {
    const first = bytes.indexOf(NEWLINE);
    this.second = first < 0 ? -1 : bytes.indexOf(NEWLINE, first + 1);
    if (this.second < 0) throw new Error('fewer than three lines');
    this.stored = JSON.parse(bytes.toString('utf8', 0, first)) as StoredIR;
    if (this.stored.format !== IR_FORMAT) throw new Error('another format');
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
      const first = this.bytes.indexOf(NEWLINE);
      try {
        const stored = JSON.parse(this.bytes.toString('utf8', first + 1, this.second)) as StoredFunctionNames;
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
        const part = JSON.parse(this.bytes.toString('utf8', this.second + 1)) as AnalysisPart;
        if (Array.isArray(part.calls) && Array.isArray(part.imports) && Array.isArray(part.typeRefs)) this.analysis = part;
      } catch {
        // Handled below, like a malformed part.
      }
      const fresh = this.analysis ? undefined : this.afresh();
      this.analysis ??= { calls: fresh?.calls ?? [], imports: fresh?.imports ?? [], typeRefs: fresh?.typeRefs ?? [] };
    }
    return this.analysis;
  }

  /** The module parsed from its text, once, when a later line of its entry is broken. */
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
