/**
 * What Phase B reads from a `Cargo.toml`: the package, its targets (lib, bins, examples,
 * tests, benches, build script) and its dependencies that are path dependencies (directly or
 * through `workspace = true`), plus the workspace's members and shared dependencies.
 */
import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { parse } from 'smol-toml';
import { type BuildScriptCfgs, NO_BUILD_SCRIPT } from './build-script-cfgs.js';
import { type BuildScriptContext, readBuildScript, type RustParser } from './build-script-eval.js';
import { type CfgFeatures, defaultFeatures } from './cfg.js';

/** One crate root a package builds. */
export interface Target {
  kind: 'lib' | 'bin' | 'example' | 'test' | 'bench' | 'build';
  /** Crate name as code refers to it (`-` made `_`). */
  name: string;
  /** Root file, relative to the repository root. */
  root: string;
}

/** A dependency on a package of the repository (a path dependency). */
export interface PathDependency {
  /** The name the depending code uses (the key, or `package = …` renamed). */
  name: string;
  /** Directory of the depended-on package, relative to the repository root. */
  dir: string;
  kind: 'normal' | 'dev' | 'build';
}

/** A package read from its manifest. */
export interface Package {
  /** Directory of the manifest, relative to the repository root ('' for the root). */
  dir: string;
  name: string;
  targets: Target[];
  dependencies: PathDependency[];
  /** Names of the dependencies that are not in the repository (registry, git), as code uses them. */
  externalDependencies: string[];
  /** The features a default build enables, and the custom cfgs its build script sets. */
  features: CfgFeatures;
  /** The Rust edition (`2015` when the manifest names none, as Cargo takes it). */
  edition: string;
}

/** The workspace table of a manifest: members and `[workspace.dependencies]` with a path. */
export interface Workspace {
  dir: string;
  members: string[];
  dependencies: Map<string, string>;
  /** `[workspace.package] edition`, for members with `edition.workspace = true`. */
  edition?: string;
}

type Table = Record<string, unknown>;

const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Parses a manifest's text. @throws Error on TOML syntax errors (the caller reports the file). */
export function readManifest(text: string): Table {
  return parse(text);
}

/** The workspace a manifest declares, if any. */
export function workspaceOf(manifest: Table, dir: string): Workspace | undefined {
  const ws = manifest['workspace'];
  if (!isTable(ws)) return undefined;
  const members = Array.isArray(ws['members']) ? ws['members'].filter((m): m is string => typeof m === 'string') : [];
  const dependencies = new Map<string, string>();
  const deps = ws['dependencies'];
  if (isTable(deps))
    for (const [k, v] of Object.entries(deps)) {
      const p = isTable(v) ? str(v['path']) : undefined;
      if (p !== undefined) dependencies.set(k, posix.normalize(posix.join(dir, p)));
    }
  const shared = ws['package'];
  const edition = isTable(shared) ? str(shared['edition']) : undefined;
  return { dir, members, dependencies, ...(edition ? { edition } : {}) };
}

/**
 * The package a manifest declares, with the targets Cargo would find (explicit `[lib]`,
 * `[[bin]]`, … tables and the conventional files), or undefined for a virtual manifest.
 *
 * @param abs the absolute directory of the manifest (to look for conventional target files)
 * @param workspace the workspace it belongs to, for `workspace = true` dependencies
 * @param parse a Rust parser, to read the custom cfgs its build script sets (without one they are unknown)
 */
export function packageOf(manifest: Table, dir: string, abs: string, workspace?: Workspace, parse?: RustParser): Package | undefined {
  const pkg = manifest['package'];
  if (!isTable(pkg)) return undefined;
  const name = str(pkg['name']) ?? posix.basename(dir);
  const crateName = (n: string) => n.replace(/-/g, '_');
  const rel = (p: string) => posix.normalize(dir ? posix.join(dir, p) : p);
  const targets: Target[] = [];
  const lib = manifest['lib'];
  const libPath = isTable(lib) ? str(lib['path']) : undefined;
  if (libPath !== undefined || existsSync(join(abs, 'src', 'lib.rs')))
    targets.push({
      kind: 'lib',
      name: crateName((isTable(lib) ? str(lib['name']) : undefined) ?? name),
      root: rel(libPath ?? 'src/lib.rs'),
    });
  const explicit = new Set<string>();
  const tablesOf = (key: string, kind: Target['kind'], dirName: string) => {
    const list = manifest[key];
    if (!Array.isArray(list)) return;
    for (const t of list) {
      if (!isTable(t)) continue;
      const tn = str(t['name']);
      const p = str(t['path']) ?? (tn ? (kind === 'bin' ? `src/bin/${tn}.rs` : `${dirName}/${tn}.rs`) : undefined);
      if (!p) continue;
      explicit.add(rel(p));
      targets.push({ kind, name: crateName(tn ?? posix.basename(p, '.rs')), root: rel(p) });
    }
  };
  tablesOf('bin', 'bin', 'src/bin');
  tablesOf('example', 'example', 'examples');
  tablesOf('test', 'test', 'tests');
  tablesOf('bench', 'bench', 'benches');
  if (existsSync(join(abs, 'src', 'main.rs')) && !explicit.has(rel('src/main.rs')))
    targets.push({ kind: 'bin', name: crateName(name), root: rel('src/main.rs') });
  const conventional = (sub: string, kind: Target['kind']) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(abs, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p =
        e.isFile() && e.name.endsWith('.rs')
          ? `${sub}/${e.name}`
          : e.isDirectory() && existsSync(join(abs, sub, e.name, 'main.rs'))
            ? `${sub}/${e.name}/main.rs`
            : undefined;
      if (!p || explicit.has(rel(p))) continue;
      targets.push({ kind, name: crateName(e.name.replace(/\.rs$/, '')), root: rel(p) });
    }
  };
  conventional('src/bin', 'bin');
  conventional('examples', 'example');
  conventional('tests', 'test');
  conventional('benches', 'bench');
  const build = pkg['build'] === false ? undefined : (str(pkg['build']) ?? (existsSync(join(abs, 'build.rs')) ? 'build.rs' : undefined));
  if (build) targets.push({ kind: 'build', name: 'build_script_build', root: rel(build) });

  const dependencies: PathDependency[] = [];
  const externalDependencies: string[] = [];
  const depTables: [Table | undefined, PathDependency['kind']][] = [
    [manifest['dependencies'] as Table | undefined, 'normal'],
    [manifest['dev-dependencies'] as Table | undefined, 'dev'],
    [manifest['build-dependencies'] as Table | undefined, 'build'],
  ];
  // `[target.'cfg(…)'.dependencies]`: every platform's, as cfg is not evaluated.
  const target = manifest['target'];
  if (isTable(target))
    for (const t of Object.values(target))
      if (isTable(t)) {
        depTables.push([t['dependencies'] as Table | undefined, 'normal']);
        depTables.push([t['dev-dependencies'] as Table | undefined, 'dev']);
      }
  for (const [table, kind] of depTables) {
    if (!isTable(table)) continue;
    for (const [key, v] of Object.entries(table)) {
      if (!isTable(v)) {
        externalDependencies.push(crateName(key));
        continue;
      }
      const p = str(v['path']);
      const depDir =
        p !== undefined ? posix.normalize(posix.join(dir, p)) : v['workspace'] === true ? workspace?.dependencies.get(key) : undefined;
      if (depDir === undefined) {
        externalDependencies.push(crateName(key));
        continue;
      }
      dependencies.push({ name: crateName(key), dir: depDir === '.' ? '' : depDir, kind });
    }
  }
  const features = defaultFeatures(isTable(manifest['features']) ? manifest['features'] : undefined);
  return {
    dir,
    name,
    targets,
    dependencies,
    externalDependencies,
    // No `edition` key is 2015 (as Cargo reads it); one inherited from a workspace not found, a current one.
    edition: pkg['edition'] === undefined ? '2015' : (str(pkg['edition']) ?? workspace?.edition ?? '2021'),
    features: Object.assign(features, {
      buildCfgs: buildCfgsOf(build ? join(abs, build) : undefined, mayBuildDependencySetCfgs(manifest['build-dependencies']), {
        features,
        pkg: { name, version: str(pkg['version']) },
        exists: (p) => existsIn(abs, p),
        read: (p) => readIn(abs, build ? posix.dirname(build) : '.', p),
        parse,
      }),
    }),
  };
}

/**
 * Build-dependencies that print no `cargo:rustc-cfg` the build script's reading does not show: C
 * and C++ compiler drivers and library finders (their output is link and rerun lines), version
 * probes whose answers the script itself prints (those prints are literals it holds), and
 * autocfg, whose printing calls the evaluator follows (build-script-autocfg.ts). Any other may,
 * as `cfg_aliases!` does.
 */
const BUILD_DEPENDENCIES_WITHOUT_CFGS = new Set([
  'cc',
  'cmake',
  'pkg_config',
  'vcpkg',
  'version_check',
  'rustc_version',
  'semver',
  'autocfg',
]);

/** Whether a package's `[build-dependencies]` hold one that may set cfgs the build script does not name. */
function mayBuildDependencySetCfgs(table: unknown): boolean {
  if (!isTable(table)) return false;
  return Object.entries(table).some(([key, spec]) => {
    // A renamed dependency (`probe = { package = "cc" }`) is known by its package.
    const pkg = isTable(spec) && typeof spec['package'] === 'string' ? spec['package'] : key;
    return !BUILD_DEPENDENCIES_WITHOUT_CFGS.has(pkg.replace(/-/g, '_'));
  });
}

/** Largest build script read for the cfgs it sets; past it (or unreadable) they are unknown. */
const MAX_BUILD_SCRIPT_BYTES = 256 * 1024;

/**
 * The custom cfgs a package's build script sets (build-script-eval.ts): all unknown when it
 * cannot be read or there is no parser. With a build-dependency that may set cfgs
 * ({@link mayBuildDependencySetCfgs}), cfgs it does not name may come from it (`cfg_aliases!`),
 * so those are unknown too.
 */
function buildCfgsOf(
  path: string | undefined,
  buildDependencies: boolean,
  ctx: Omit<BuildScriptContext, 'parse'> & { parse: RustParser | undefined },
): BuildScriptCfgs {
  const unknown: BuildScriptCfgs = { known: new Map(), emitted: new Set(), closed: false };
  if (!path) return NO_BUILD_SCRIPT;
  const parse = ctx.parse;
  if (!parse) return unknown;
  try {
    if (statSync(path).size > MAX_BUILD_SCRIPT_BYTES) return unknown;
    const cfgs = readBuildScript(readFileSync(path, 'utf8'), { ...ctx, parse });
    return buildDependencies ? { ...cfgs, closed: false } : cfgs;
  } catch {
    return unknown;
  }
}

/** `path` (relative to `from`, a directory of the package at `abs`) as an absolute path; undefined when it leaves the package. */
function inPackage(abs: string, from: string, path: string): string | undefined {
  const full = resolve(abs, from, path);
  const rel = relative(abs, full);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? undefined : full;
}

/** The text of a file the build script in `scriptDir` includes; undefined when outside the package, too large or unreadable. */
function readIn(abs: string, scriptDir: string, path: string): string | undefined {
  const full = inPackage(abs, scriptDir, path);
  try {
    return full === undefined || statSync(full).size > MAX_BUILD_SCRIPT_BYTES ? undefined : readFileSync(full, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether `path` (relative to the package directory `abs`, where cargo runs a build script) exists; undefined for a path outside the package. */
function existsIn(abs: string, path: string): boolean | undefined {
  const full = inPackage(abs, '.', path);
  return full === undefined ? undefined : existsSync(full);
}
