/**
 * The whole program as Phase B sees it: the crate graph, every file the crates' module trees
 * reach (read on demand, kept for the session), and each module's place in its crate.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import type { RustParser } from '../crates/build-script-eval.js';
import { type Crate, CrateGraph } from '../crates/crate-graph.js';
import type { FileIR } from '../syntax/file-ir.js';
import { type CfgValue, cfgPathAttr, isActive } from '../crates/cfg.js';
import { itemAttributeWrapper } from '../syntax/macro-rules.js';

/** Reads a file's source into its IR. */
export type FileReader = (path: string, text: string) => FileIR;

/** A module: a crate root, a file `mod x;` names, or an inline `mod x { … }`. */
export interface Module {
  crate: Crate;
  /** The file that holds it. */
  file: FileIR;
  /** Index of its inline `mod` item in the file, -1 for a file module. */
  item: number;
  parent: Module | undefined;
  name: string;
  children: Map<string, Module>;
  /** Where `mod x;` inside it looks for `x.rs` and `x/mod.rs`. */
  dir: string;
  /** False when the `mod` item's cfg leaves it out of a default build (kept, but other bindings of the name win). */
  active?: boolean;
}

/** Files larger than this are not read for resolution (generated data, not code). */
const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
/** Deepest module nesting followed (a `#[path]` cycle stops here). */
const MAX_MODULE_DEPTH = 64;

/**
 * @example
 * ```ts
 * const program = new Program('/repo', (path, text) => syntax.read(path, text).ir);
 * program.add(irFromPhaseA);
 * program.moduleOf('src/net/tcp.rs')?.crate.name; // 'mio'
 * ```
 */
export class Program {
  readonly crates: CrateGraph;
  private readonly files = new Map<string, FileIR | null>();
  private readonly realRoot: string;
  private modulesBuilt = false;
  private readonly fileModules = new Map<string, Module[]>();
  /** Every module of every crate, in the order built. */
  readonly modules: Module[] = [];
  /** Files read from disk during resolution (not handed in by Phase A). */
  loadedFromDisk = 0;

  private readonly maxBytes: number;

  /**
   * @param read reads a file not handed in by Phase A
   * @param options `maxBytes`: files larger are not read; `parse`: a Rust parser, to read the cfgs
   *   build scripts set (without one those are unknown)
   */
  constructor(
    readonly root: string,
    private readonly read: FileReader,
    options: { maxBytes?: number; parse?: RustParser } = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.crates = new CrateGraph(root, options.parse);
    let real = root;
    try {
      real = realpathSync.native(root);
    } catch {
      // The root is checked when a file is read.
    }
    this.realRoot = real;
  }

  /** Adds (or replaces) a file read elsewhere (by Phase A in this session). */
  add(ir: FileIR): void {
    this.files.set(ir.path, ir);
    if (this.modulesBuilt && !this.fileModules.has(ir.path)) this.modulesBuilt = false;
  }

  /**
   * Replaces a file's IR with one read again before resolution (with the program's macros): the
   * modules hold their file's IR, so the trees are built anew.
   */
  replace(ir: FileIR): void {
    this.files.set(ir.path, ir);
    this.modulesBuilt = false;
  }

  /**
   * Forgets files written, created or deleted since they were read. True when the caller must
   * start a new Program: a manifest changed, or a `.rs` file came or went.
   */
  forget(paths: readonly string[]): boolean {
    if (paths.some((p) => p === 'Cargo.toml' || p.endsWith('/Cargo.toml'))) return true;
    // A build script's cfgs were read with the crate graph.
    if (paths.some((p) => this.crates.isBuildScript(p))) return true;
    let any = false;
    for (const p of paths) {
      if (!p.endsWith('.rs')) continue;
      // A file the program never read may be a new module file: the trees are built again.
      if (!this.files.has(p)) return true;
      this.files.delete(p);
      any = true;
    }
    if (any) this.modulesBuilt = false;
    return false;
  }

  /**
   * Puts the attributes of the program's attribute-wrapper macros (`cfg_rt!`: see
   * `itemAttributeWrapper`) in front of those of the items and uses written in their
   * invocations in other files (`FileIR.macroItems`): Phase A reads one file at a time and cannot
   * know what a macro of another file does. Run before each Phase B request, on every file the
   * crates reach (the module trees are built first): what a changed macro put there before is
   * taken away again. A `mod` under such a macro takes its cfg, so the trees are built anew
   * when anything changed. A macro name that wraps differently in two places is left alone.
   */
  applyMacroWrappers(): void {
    this.buildModules();
    const wrappers = new Map<string, string[] | null>();
    for (const ir of this.files.values())
      for (const it of ir?.items ?? []) {
        if (it.kind !== 'macro' || !it.rules) continue;
        const w = itemAttributeWrapper(it.rules) ?? null;
        const known = wrappers.get(it.name);
        if (known === undefined) wrappers.set(it.name, w);
        else if (JSON.stringify(known) !== JSON.stringify(w)) wrappers.set(it.name, null);
      }
    let changed = false;
    for (const ir of this.files.values())
      for (const rec of ir?.macroItems ?? []) {
        const want = wrappers.get(rec.macro) ?? undefined;
        if (!ir || JSON.stringify(want) === JSON.stringify(rec.applied)) continue;
        changed = true;
        const cfgOf = (list: readonly string[] | undefined) => (list ?? []).filter((a) => /^cfg\s*\(/.test(a));
        for (let i = rec.items[0]; i < rec.items[1]; i++) {
          const it = ir.items[i]!;
          if (it.parent !== rec.parent) continue;
          const attrs = [...(want ?? []), ...withoutPrefix(it.attrs, rec.applied)];
          if (attrs.length > 0) it.attrs = attrs;
          else delete it.attrs;
        }
        for (let k = rec.uses[0]; k < rec.uses[1]; k++) {
          const u = ir.uses[k]!;
          if (u.scope !== rec.parent) continue;
          const cfg = [...cfgOf(want), ...withoutPrefix(u.cfg, cfgOf(rec.applied))];
          if (cfg.length > 0) u.cfg = cfg;
          else delete u.cfg;
        }
        if (want) rec.applied = want;
        else delete rec.applied;
      }
    if (changed) {
      this.modulesBuilt = false;
      this.buildModules();
    }
  }

  /** The IRs of every file the program holds. */
  *irs(): IterableIterator<FileIR> {
    for (const ir of this.files.values()) if (ir) yield ir;
  }

  /** A file's text as on disk now (inside the repository), or undefined when it cannot be read. */
  text(path: string): string | undefined {
    try {
      return this.readConfined(path);
    } catch {
      return undefined;
    }
  }

  /** A file's IR by repository path, read from disk the first time (undefined when it cannot be read). */
  file(path: string): FileIR | undefined {
    const known = this.files.get(path);
    if (known !== undefined) return known ?? undefined;
    let ir: FileIR | null = null;
    try {
      const text = this.readConfined(path);
      if (text !== undefined) {
        ir = this.read(path, text);
        this.loadedFromDisk++;
      }
    } catch {
      ir = null;
    }
    this.files.set(path, ir);
    return ir ?? undefined;
  }

  /** The modules a file is (usually one; a file named by two crates is two). */
  modulesOf(path: string): readonly Module[] {
    this.buildModules();
    const known = this.fileModules.get(path);
    if (known) return known;
    // A file no crate reaches: a crate of its own.
    const ir = this.file(path);
    if (!ir) return [];
    const crate = this.crates.fileCrate(path);
    const m = this.moduleTree(crate, ir, posix.dirname(path));
    return this.fileModules.get(path) ?? [m];
  }

  /** Builds the crates' module trees, reading every file they reach (once; again after a change). */
  ensureModules(): void {
    this.buildModules();
  }

  /** The crate of a file the crates' module trees reach (no tree is made for a file they do not). */
  reachedCrate(path: string): Crate | undefined {
    this.buildModules();
    return this.fileModules.get(path)?.[0]?.crate;
  }

  /** The crate root module of a crate (built with the trees). */
  crateRoot(crate: Crate): Module | undefined {
    this.buildModules();
    return this.roots.get(crate.key);
  }

  private readonly roots = new Map<string, Module>();

  /** Builds the module tree of every crate (once; again after files were added or forgotten). */
  private buildModules(): void {
    if (this.modulesBuilt) return;
    this.modulesBuilt = true;
    this.fileModules.clear();
    this.roots.clear();
    this.modules.length = 0;
    for (const crate of this.crates.crates) {
      const ir = this.file(crate.root);
      if (ir) this.moduleTree(crate, ir, posix.dirname(crate.root));
    }
  }

  private moduleTree(crate: Crate, ir: FileIR, dir: string): Module {
    const root: Module = { crate, file: ir, item: -1, parent: undefined, name: crate.name, children: new Map(), dir };
    this.roots.set(crate.key, root);
    this.register(root);
    this.expand(root, 0);
    return root;
  }

  private register(m: Module): void {
    this.modules.push(m);
    if (m.item !== -1) return;
    const list = this.fileModules.get(m.file.path) ?? [];
    list.push(m);
    this.fileModules.set(m.file.path, list);
  }

  /** Adds the submodules `mod` items of `m` declare, recursively. */
  private expand(m: Module, depth: number): void {
    if (depth > MAX_MODULE_DEPTH) return;
    // Of twin `mod` items under opposite cfgs, the one a default build compiles.
    const activeByName = new Map<string, CfgValue>();
    m.file.items.forEach((it, i) => {
      if (it.kind !== 'mod' || it.parent !== m.item || it.local) return;
      const active = isActive(it.attrs, m.crate.features);
      if (activeByName.has(it.name) && (active === false || activeByName.get(it.name) !== false)) return;
      activeByName.set(it.name, active);
      const pathAttr = it.pathAttr ?? cfgPathAttr(it.attrs, m.crate.features);
      // `mod r#async;` is the module `async`, in `async.rs` (a raw identifier names what the keyword would).
      const fileName = it.name.startsWith('r#') ? it.name.slice(2) : it.name;
      let child: Module | undefined;
      if (!it.external) {
        child = {
          crate: m.crate,
          file: m.file,
          item: i,
          parent: m,
          name: it.name,
          children: new Map(),
          dir: posix.join(m.dir, pathAttr ?? fileName),
        };
      } else {
        const candidates =
          pathAttr !== undefined
            ? [posix.normalize(posix.join(m.item === -1 ? posix.dirname(m.file.path) : m.dir, pathAttr))]
            : [posix.join(m.dir, `${fileName}.rs`), posix.join(m.dir, fileName, 'mod.rs')];
        for (const c of candidates) {
          const ir = this.file(c.startsWith('./') ? c.slice(2) : c);
          if (!ir) continue;
          const isModRs = c.endsWith('/mod.rs') || pathAttr !== undefined;
          child = {
            crate: m.crate,
            file: ir,
            item: -1,
            parent: m,
            name: it.name,
            children: new Map(),
            dir: isModRs ? posix.dirname(ir.path) : posix.join(posix.dirname(ir.path), fileName),
          };
          break;
        }
      }
      if (!child) return;
      if (active === false) child.active = false;
      m.children.set(it.name, child);
      this.register(child);
      this.expand(child, depth + 1);
    });
  }

  /**
   * Reads a repository file, refusing links out of the root and oversized files.
   */
  private readConfined(path: string): string | undefined {
    const abs = join(this.root, path);
    const real = realpathSync.native(abs);
    if (real !== this.realRoot && !real.startsWith(this.realRoot + sep)) return undefined;
    if (statSync(real).size > this.maxBytes) return undefined;
    return readFileSync(real, 'utf8');
  }
}

/** `list` without `prefix` in front (what was put there before), or `list` as it is. */
function withoutPrefix(list: readonly string[] | undefined, prefix: readonly string[] | undefined): string[] {
  if (!list) return [];
  if (!prefix || prefix.length === 0 || prefix.length > list.length || prefix.some((a, k) => list[k] !== a)) return [...list];
  return list.slice(prefix.length);
}
