/**
 * The whole program as Phase B sees it: every module of the repository, read on demand
 * (a module is parsed the first time a name resolves into it) and kept for the session.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ModuleIR } from '../syntax/module-ir.js';
import type { ModuleSource } from './ir-cache.js';
import { ModuleFinder, type ModuleLocation } from './module-finder.js';

/** A loaded module: where it is, its dotted name and its IR. */
export interface Mod {
  path: string;
  name: string;
  ir: ModuleIR;
}

/** Reads a module's source into its IR (parsing it, or from a cache). */
export type ModuleReader = (path: string, source: ModuleSource) => ModuleIR;

/** Files larger than this are not read for resolution (generated data, not code). */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * @example
 * ```ts
 * const program = new Program('/repo', (path, source) => syntax.read(path, textOf(source)));
 * program.add('pkg/a.py', irFromPhaseA);        // a module Phase A already read
 * program.module('pkg/b.py');                    // parsed now, from disk
 * ```
 */
export class Program {
  readonly finder: ModuleFinder;
  private readonly modules = new Map<string, Mod | null>();
  private readonly realRoot: string;
  /** Modules read from disk during resolution (not handed in by Phase A). */
  loadedFromDisk = 0;

  constructor(
    readonly root: string,
    private readonly read: ModuleReader,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {
    this.finder = new ModuleFinder(root);
    let real = root;
    try {
      real = realpathSync.native(root);
    } catch {
      // The root is checked when a file is read.
    }
    this.realRoot = real;
  }

  /** Adds (or replaces) a module read elsewhere, e.g. by Phase A in this session. */
  add(path: string, ir: ModuleIR): Mod {
    const mod: Mod = { path, name: this.finder.moduleName(path), ir };
    this.modules.set(path, mod);
    return mod;
  }

  /**
   * Forgets the modules at `paths` (written, created or deleted since they were read): they are
   * read again when next asked for. True when that is not enough — a file or directory came or
   * went where the finder had looked, or a project file changed —: the caller then starts a new
   * Program.
   */
  forget(paths: readonly string[]): boolean {
    if (paths.some((p) => this.finder.stale(p))) return true;
    for (const p of paths) this.modules.delete(p);
    return false;
  }

  /** Whether a module is loaded. */
  has(path: string): boolean {
    return Boolean(this.modules.get(path));
  }

  /** A module by repository path, parsed from disk the first time (undefined when it cannot be read). */
  module(path: string): Mod | undefined {
    const known = this.modules.get(path);
    if (known !== undefined) return known ?? undefined;
    let mod: Mod | null = null;
    try {
      const source = this.readConfined(path);
      if (source !== undefined) {
        mod = { path, name: this.finder.moduleName(path), ir: this.read(path, source) };
        this.loadedFromDisk++;
      }
    } catch {
      mod = null;
    }
    this.modules.set(path, mod);
    return mod ?? undefined;
  }

  /** The module at a location (its `__init__` for a package); undefined for a namespace package. */
  moduleAt(loc: ModuleLocation): Mod | undefined {
    return loc.file ? this.module(loc.file) : undefined;
  }

  /**
   * Reads a repository file, refusing links out of the root and oversized files. Its bytes: a
   * module found in the cache is never decoded.
   */
  private readConfined(path: string): Buffer | undefined {
    const abs = join(this.root, path);
    // The native call: the JavaScript one lstats every component of every path.
    const real = realpathSync.native(abs);
    if (real !== this.realRoot && !real.startsWith(this.realRoot + sep)) return undefined;
    if (statSync(real).size > this.maxBytes) return undefined;
    return readFileSync(real);
  }
}
