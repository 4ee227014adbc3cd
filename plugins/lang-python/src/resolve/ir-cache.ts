/**
 * Module IRs kept between sessions, in the private directory the host gives a plugin that
 * asks for one (`initialize.options.cacheDir`). Each entry is addressed by the sha256 of the
 * module's text, so an edited file simply misses and a renamed one still hits; an entry that
 * does not decode is a miss and is removed. Without a cache directory nothing is kept.
 *
 * An entry is two JSON documents on two lines: first what name resolution reads (definitions,
 * scopes, `__all__`), then what only the module's own analysis reads (its call sites, imports
 * and type references). Most cached modules of an incremental session are only resolved into,
 * so the second line is parsed the first time one of those three is asked for, if ever.
 * (JSON, because V8's parser decodes these object trees faster than a msgpack decoder.)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Binding, DefIR, InstanceAttr, ModuleIR, ScopeIR } from '../syntax/module-ir.js';

/** Bumped whenever the IR's shape, the entry's layout or the extraction changes: older entries are never read. */
export const IR_FORMAT = 'ir-6';

/** How long the plugin must have been idle before pending entries are written. */
const IDLE_MS = 30;
/** Longest stretch of writing before yielding to the event loop. */
const SLICE_MS = 15;
/** The line feed between an entry's two documents (JSON escapes it inside strings). */
const NEWLINE = 0x0a;

/** The part of a module only its own analysis reads, stored on the entry's second line. */
type AnalysisPart = Pick<ModuleIR, 'calls' | 'imports' | 'typeRefs'>;

/** A ModuleIR's first line: what resolution reads, without Maps and Sets. */
interface StoredIR extends Omit<ModuleIR, 'scopes' | 'defs' | 'path' | keyof AnalysisPart> {
  format: string;
  scopes: (Omit<ScopeIR, 'names' | 'globals'> & { names: [string, Binding[]][]; globals?: string[] })[];
  defs: (Omit<DefIR, 'instanceAttrs'> & { instanceAttrs?: [string, InstanceAttr[]][] })[];
}

/** Reads a module's IR from its text, for an entry whose second line turns out not to decode. */
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
   * @param parse reads a module afresh when an entry's second line does not decode (found only
   *   when its calls are first asked for, after the entry was returned).
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
      const nl = bytes.indexOf(NEWLINE);
      if (nl < 0) throw new Error('one line');
      const stored = JSON.parse(bytes.toString('utf8', 0, nl)) as StoredIR;
      if (stored.format !== IR_FORMAT) throw new Error('another format');
      this.hits++;
      return revive(stored, path, () => this.analysisPart(file, bytes, nl, path, text));
    } catch {
      rmSync(file, { force: true });
      this.misses++;
      return undefined;
    }
  }

  /** An entry's second line; a module read afresh when it does not decode (and the entry removed). */
  private analysisPart(file: string, bytes: Buffer, nl: number, path: string, text: string): AnalysisPart {
    try {
      const part = JSON.parse(bytes.toString('utf8', nl + 1)) as AnalysisPart;
      if (Array.isArray(part.calls) && Array.isArray(part.imports) && Array.isArray(part.typeRefs)) return part;
    } catch {
      // Handled below, like a malformed part.
    }
    rmSync(file, { force: true });
    if (!this.parse) return { calls: [], imports: [], typeRefs: [] };
    const { calls, imports, typeRefs } = this.parse(path, text);
    return { calls, imports, typeRefs };
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

/** The entry of a module: its resolution part, a line feed, its analysis part. */
function serialize(ir: ModuleIR): string {
  // The path is not part of the entry: the same text at another path is the same module IR.
  const { scopes, defs, path, calls, imports, typeRefs, ...rest } = ir;
  void path;
  const stored: StoredIR = {
    ...rest,
    format: IR_FORMAT,
    scopes: scopes.map(({ names, globals, ...s }) => ({ ...s, names: [...names], ...(globals ? { globals: [...globals] } : {}) })),
    defs: defs.map(({ instanceAttrs, ...d }) => ({ ...d, ...(instanceAttrs ? { instanceAttrs: [...instanceAttrs] } : {}) })),
  };
  const analysis: AnalysisPart = { calls, imports, typeRefs };
  return `${JSON.stringify(stored)}\n${JSON.stringify(analysis)}`;
}

/** A module IR from its resolution part; `calls`, `imports` and `typeRefs` decode on first use. */
function revive(stored: StoredIR, path: string, analysisPart: () => AnalysisPart): ModuleIR {
  const { format, scopes, defs, ...rest } = stored;
  void format;
  let part: AnalysisPart | undefined;
  const lazily = <K extends keyof AnalysisPart>(key: K) => ({
    enumerable: true,
    configurable: true,
    get: (): AnalysisPart[K] => (part ??= analysisPart())[key],
  });
  const ir = {
    ...rest,
    path,
    scopes: scopes.map(({ names, globals, ...s }) => ({ ...s, names: new Map(names), ...(globals ? { globals: new Set(globals) } : {}) })),
    defs: defs.map(({ instanceAttrs, ...d }) => ({ ...d, ...(instanceAttrs ? { instanceAttrs: new Map(instanceAttrs) } : {}) })),
  };
  return Object.defineProperties(ir, { calls: lazily('calls'), imports: lazily('imports'), typeRefs: lazily('typeRefs') }) as ModuleIR;
}
