/**
 * Module IRs kept between sessions, in the private directory the host gives a plugin that
 * asks for one (`initialize.options.cacheDir`). Each entry is addressed by the sha256 of the
 * module's text, so an edited file simply misses and a renamed one still hits; an entry that
 * does not decode is a miss and is removed. Without a cache directory nothing is kept.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import type { Binding, DefIR, InstanceAttr, ModuleIR, ScopeIR } from '../syntax/module-ir.js';

/** Bumped whenever the IR's shape or the extraction changes: older entries are never read. */
export const IR_FORMAT = 'ir-5';

const packr = new Packr({ useRecords: false, mapsAsObjects: true });
/** How long the plugin must have been idle before pending entries are written. */
const IDLE_MS = 30;
/** Longest stretch of writing before yielding to the event loop. */
const SLICE_MS = 15;

/** A ModuleIR without Maps and Sets, as stored. */
interface StoredIR extends Omit<ModuleIR, 'scopes' | 'defs' | 'path'> {
  format: string;
  scopes: (Omit<ScopeIR, 'names' | 'globals'> & { names: [string, Binding[]][]; globals?: string[] })[];
  defs: (Omit<DefIR, 'instanceAttrs'> & { instanceAttrs?: [string, InstanceAttr[]][] })[];
}

/**
 * @example
 * ```ts
 * const cache = new IrCache(session.options.cacheDir);
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

  constructor(cacheDir: unknown) {
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
      const stored = packr.unpack(bytes) as StoredIR;
      if (stored.format !== IR_FORMAT) throw new Error('another format');
      this.hits++;
      return revive(stored, path);
    } catch {
      rmSync(file, { force: true });
      this.misses++;
      return undefined;
    }
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
      writeFileSync(tmp, packr.pack(flatten(ir)));
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

function flatten(ir: ModuleIR): StoredIR {
  const { scopes, defs, ...rest } = ir;
  // The path is not part of the entry: the same text at another path is the same module IR.
  const { path, ...stored } = rest;
  void path;
  return {
    ...stored,
    format: IR_FORMAT,
    scopes: scopes.map(({ names, globals, ...s }) => ({ ...s, names: [...names], ...(globals ? { globals: [...globals] } : {}) })),
    defs: defs.map(({ instanceAttrs, ...d }) => ({ ...d, ...(instanceAttrs ? { instanceAttrs: [...instanceAttrs] } : {}) })),
  };
}

function revive(stored: StoredIR, path: string): ModuleIR {
  const { format, scopes, defs, ...rest } = stored;
  void format;
  return {
    ...rest,
    path,
    scopes: scopes.map(({ names, globals, ...s }) => ({ ...s, names: new Map(names), ...(globals ? { globals: new Set(globals) } : {}) })),
    defs: defs.map(({ instanceAttrs, ...d }) => ({ ...d, ...(instanceAttrs ? { instanceAttrs: new Map(instanceAttrs) } : {}) })),
  };
}
