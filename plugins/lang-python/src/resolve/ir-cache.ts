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
export const IR_FORMAT = 'ir-4';

const packr = new Packr({ useRecords: false, mapsAsObjects: true });

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
 * ```
 */
export class IrCache {
  private readonly dir: string | undefined;
  hits = 0;
  misses = 0;
  /** Set when a write failed (a full disk, a directory the host emptied): caching stops for the session. */
  private broken = false;

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

  /** Keeps the IR of a module with this text; returns it. */
  put(text: string, ir: ModuleIR): ModuleIR {
    if (!this.enabled) return ir;
    const file = this.fileOf(text);
    try {
      mkdirSync(join(file, '..'), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, packr.pack(flatten(ir)));
      renameSync(tmp, file);
    } catch {
      this.broken = true;
    }
    return ir;
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
