/**
 * The crates of a repository: every `Cargo.toml` below the root read into packages, each
 * target a crate with its root file and the crates of the repository it may name (path
 * dependencies, and a package's own lib for its bins, examples, tests and benches). A file no
 * crate reaches is a crate of its own (a script, a fixture, a repository without Cargo).
 */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { RustParser } from './build-script-eval.js';
import { packageOf, readManifest, type Package, type Target, workspaceOf, type Workspace } from './cargo-manifest.js';
import type { CfgFeatures } from './cfg.js';

/** A crate: one target of a package. */
export interface Crate {
  /** Unique key: `<package dir>#<kind>:<name>`. */
  key: string;
  name: string;
  kind: Target['kind'] | 'file';
  /** Root file, relative to the repository root. */
  root: string;
  /** Crates it can name by extern name (its dependencies inside the repository). */
  deps: Map<string, Crate>;
  /** Dependencies from outside the repository (registry, git), by the name code uses: their paths are external. */
  externalDeps: Set<string>;
  /** Features a default build of its package enables (for `#[cfg(feature = …)]`). */
  features: CfgFeatures;
  pkg?: Package;
}

/** A manifest that could not be read, for the session's diagnostics. */
export interface ManifestProblem {
  path: string;
  message: string;
}

/** Directories never searched for manifests. */
const SKIP_DIRS = new Set(['target', 'node_modules', '.git', '.hg', '.svn']);
/** Deepest directory searched for manifests. */
const MAX_DEPTH = 12;

export class CrateGraph {
  readonly crates: Crate[] = [];
  readonly packages: Package[] = [];
  readonly problems: ManifestProblem[] = [];
  /** Crates by root file. */
  private readonly byRoot = new Map<string, Crate[]>();
  /** The manifests read (relative paths): a change to one of them starts a new graph. */
  readonly manifests = new Set<string>();

  /** @param parse a Rust parser, to read the cfgs build scripts set (without one those are unknown) */
  constructor(
    readonly root: string,
    parse?: RustParser,
  ) {
    const found: string[] = [];
    this.findManifests('', 0, found);
    const parsed = new Map<string, Record<string, unknown>>();
    const workspaces: Workspace[] = [];
    for (const dir of found) {
      const path = dir ? `${dir}/Cargo.toml` : 'Cargo.toml';
      this.manifests.add(path);
      try {
        const m = readManifest(readFileSync(join(root, path), 'utf8'));
        parsed.set(dir, m);
        const ws = workspaceOf(m, dir);
        if (ws) workspaces.push(ws);
      } catch (e) {
        this.problems.push({ path, message: (e as Error).message.split('\n')[0]! });
      }
    }
    // The workspace of a package: the nearest manifest above (or at) it with a [workspace] table.
    const workspaceFor = (dir: string) =>
      workspaces.filter((w) => w.dir === '' || dir === w.dir || dir.startsWith(`${w.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
    // `rustflags` in the repository's cargo configuration may pass any `--cfg`: custom cfgs are unknown then.
    const rustflags = cargoConfigSetsRustflags(root);
    for (const [dir, m] of parsed) {
      const pkg = packageOf(m, dir, join(root, dir), workspaceFor(dir), parse);
      if (pkg && rustflags)
        pkg.features = Object.assign(new Set(pkg.features), { buildCfgs: { ...pkg.features.buildCfgs!, closed: false } });
      if (pkg) this.packages.push(pkg);
    }
    const libOf = new Map<string, Crate>();
    for (const pkg of this.packages) {
      for (const t of pkg.targets) {
        const crate: Crate = {
          key: `${pkg.dir}#${t.kind}:${t.name}`,
          name: t.name,
          kind: t.kind,
          root: t.root,
          deps: new Map(),
          externalDeps: new Set(pkg.externalDependencies),
          features: pkg.features,
          pkg,
        };
        this.crates.push(crate);
        if (t.kind === 'lib') libOf.set(pkg.dir, crate);
        const list = this.byRoot.get(t.root) ?? [];
        list.push(crate);
        this.byRoot.set(t.root, list);
      }
    }
    for (const crate of this.crates) {
      const pkg = crate.pkg!;
      const own = libOf.get(pkg.dir);
      if (own && crate !== own && crate.kind !== 'build') crate.deps.set(own.name, own);
      for (const d of pkg.dependencies) {
        if (d.kind === 'dev' && !(crate.kind === 'test' || crate.kind === 'example' || crate.kind === 'bench')) continue;
        if ((d.kind === 'build') !== (crate.kind === 'build')) continue;
        const lib = libOf.get(d.dir);
        if (lib) crate.deps.set(d.name, lib);
      }
    }
  }

  /** Whether `file` (relative) is a package's build script, whose cfgs this graph read. */
  isBuildScript(file: string): boolean {
    return this.packages.some((p) => p.targets.some((t) => t.kind === 'build' && t.root === file));
  }

  /** The crates whose root is `file`. */
  cratesRootedAt(file: string): readonly Crate[] {
    return this.byRoot.get(file) ?? [];
  }

  /** A crate of its own for a file no crate reaches. */
  fileCrate(file: string): Crate {
    const name = posix.basename(file, '.rs').replace(/[^A-Za-z0-9_]/g, '_');
    return { key: `file:${file}`, name, kind: 'file', root: file, deps: new Map(), externalDeps: new Set(), features: new Set() };
  }

  /**
   * The module path a file most likely has (`regex::re_unicode`), from where it sits: the
   * crate of the package around it and its place below `src/`. Used for qualified names, which
   * Phase A gives before the module tree is known; resolution uses the module tree itself.
   */
  modulePathOf(file: string): string {
    const rooted = this.byRoot.get(file)?.[0];
    if (rooted) return rooted.name;
    const pkg = this.packages.filter((p) => p.dir === '' || file.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
    const within = pkg && pkg.dir ? file.slice(pkg.dir.length + 1) : file;
    const lib = pkg?.targets.find((t) => t.kind === 'lib');
    const crate = lib?.name ?? pkg?.name.replace(/-/g, '_') ?? '';
    let segs = within.replace(/\.rs$/, '').split('/');
    if (segs[0] === 'src') segs = segs.slice(1);
    else if (['tests', 'examples', 'benches'].includes(segs[0]!) && segs.length > 1) segs = segs.slice(1);
    if (segs[segs.length - 1] === 'mod') segs.pop();
    if (segs[0] === 'bin' && segs.length > 1) segs = segs.slice(1);
    return [crate, ...segs].filter((s) => s !== '').join('::');
  }

  private findManifests(dir: string, depth: number, out: string[]): void {
    if (depth > MAX_DEPTH) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(this.root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isFile() && e.name === 'Cargo.toml') out.push(dir);
    }
    for (const e of entries) {
      if (!e.isDirectory() || SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      this.findManifests(dir ? `${dir}/${e.name}` : e.name, depth + 1, out);
    }
  }
}

/** Whether the repository's `.cargo/config.toml` (or `.cargo/config`) sets `rustflags`. */
function cargoConfigSetsRustflags(root: string): boolean {
  for (const name of ['config.toml', 'config']) {
    try {
      if (/\brustflags\b/.test(readFileSync(join(root, '.cargo', name), 'utf8'))) return true;
    } catch {
      // no such file
    }
  }
  return false;
}
