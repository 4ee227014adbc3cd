/**
 * Where Python finds a module, as the interpreter and pyright do: source roots (the
 * repository root, a `src/` layout, `package-dir`/`where` from pyproject.toml or setup.cfg,
 * and the root each file's own package tree stands in), regular packages (`__init__.py`),
 * namespace packages (a directory without one), stubs (`.pyi` before `.py`) and relative
 * imports. Everything is answered from the file system under the repository root, cached.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A module found in the repository: a file, or a namespace package (a directory only). */
export interface ModuleLocation {
  /** Dotted name as seen from its root (`requests.sessions`). */
  name: string;
  /** The module's file (`pkg/__init__.py` for a package), repository-relative. */
  file?: string;
  /** The package directory when the module is a package, repository-relative (`''` for the root). */
  dir?: string;
}

const SOURCE_EXTENSIONS = ['.pyi', '.py'];

/** The files at the repository root that name source roots (see `projectRoots`). */
const PROJECT_FILES = ['pyproject.toml', 'setup.cfg'];

/**
 * Finds modules under one repository root (absolute path, as the plugin sees it).
 *
 * @example
 * ```ts
 * const finder = new ModuleFinder('/repo');
 * finder.resolveAbsolute('requests.sessions', 'requests/api.py'); // { name: 'requests.sessions', file: 'requests/sessions.py' }
 * finder.moduleName('requests/__init__.py'); // 'requests'
 * ```
 */
export class ModuleFinder {
  private readonly entries = new Map<string, Set<string> | null>();
  private readonly rootOfDir = new Map<string, string>();
  /** Absolute imports by the importer's own root and the name: most are asked for again and again. */
  private readonly absolute = new Map<string, ModuleLocation | null>();
  private configured: string[] | undefined;

  constructor(private readonly root: string) {}

  /**
   * Whether what this finder has cached about `path`'s directories no longer holds: the file,
   * or a directory on its way, was created or deleted since it was listed. The project files
   * the source roots come from ({@link PROJECT_FILES}) are always stale.
   */
  stale(path: string): boolean {
    if (PROJECT_FILES.includes(path)) return true;
    const parts = path.split('/');
    let dir = '';
    for (const name of parts) {
      const listed = this.entries.get(dir);
      if (listed !== undefined) {
        const child = joinRel(dir, name);
        if ((listed?.has(name) ?? false) !== existsSync(join(this.root, child))) return true;
      }
      dir = joinRel(dir, name);
    }
    return false;
  }

  /** Names in a repository directory (cached); null when it is not a directory. */
  private list(dir: string): Set<string> | null {
    let e = this.entries.get(dir);
    if (e === undefined) {
      try {
        e = new Set(readdirSync(join(this.root, dir)));
      } catch {
        e = null;
      }
      this.entries.set(dir, e);
    }
    return e;
  }

  private has(dir: string, name: string): boolean {
    return this.list(dir)?.has(name) ?? false;
  }

  private isDir(dir: string, name: string): boolean {
    if (!this.has(dir, name)) return false;
    return this.list(joinRel(dir, name)) !== null;
  }

  /** Whether a directory is a regular package. */
  isPackage(dir: string): boolean {
    return this.has(dir, '__init__.py') || this.has(dir, '__init__.pyi');
  }

  /**
   * The source root a file's package tree stands in: the parent of its topmost regular
   * package, or the file's own directory when it is in none.
   */
  ownRoot(path: string): string {
    return this.rootOf(parentDir(path));
  }

  private rootOf(dir: string): string {
    let r = this.rootOfDir.get(dir);
    if (r === undefined) {
      r = dir !== '' && this.isPackage(dir) ? this.rootOf(parentDir(dir)) : dir;
      this.rootOfDir.set(dir, r);
    }
    return r;
  }

  /** Roots named by the project's configuration, then `src/`, then the repository root. */
  configuredRoots(): string[] {
    if (!this.configured) {
      const roots = [...projectRoots(this.root)];
      if (this.isDir('', 'src') && !this.isPackage('src')) roots.push('src');
      roots.push('');
      this.configured = [...new Set(roots.filter((r) => r === '' || this.list(r) !== null))];
    }
    return this.configured;
  }

  /**
   * The dotted name of the module a file holds (`pkg/sub/__init__.py` → `pkg.sub`): from the
   * root of its package tree, or for a file in no regular package (a namespace package, a
   * script, a test), from the deepest configured root that holds it (`tests/test_x.py` →
   * `tests.test_x`).
   */
  moduleName(path: string): string {
    const dir = parentDir(path);
    const root = dir !== '' && this.isPackage(dir) ? this.ownRoot(path) : this.namingRoot(dir);
    const rel = root === '' ? path : path.slice(root.length + 1);
    const noExt = rel.replace(/\.pyi?$|\.pyw$/, '');
    const parts = noExt.split('/');
    if (parts[parts.length - 1] === '__init__') parts.pop();
    return parts.join('.');
  }

  private namingRoot(dir: string): string {
    let best = '';
    for (const r of this.configuredRoots()) if (r !== '' && (dir === r || dir.startsWith(`${r}/`)) && r.length > best.length) best = r;
    return best;
  }

  /**
   * `import a.b.c` / `from a.b import c`, from the file `importer`: the importer's own root
   * first (so two packages of one name in different roots each see their own), then the
   * configured roots.
   */
  resolveAbsolute(name: string, importer: string): ModuleLocation | undefined {
    const own = this.ownRoot(importer);
    const key = `${own}\0${name}`;
    let found = this.absolute.get(key);
    if (found === undefined) {
      found = null;
      const seen = new Set<string>();
      for (const root of [own, ...this.configuredRoots()]) {
        if (seen.has(root)) continue;
        seen.add(root);
        const hit = this.findUnder(root, name.split('.'));
        if (hit) {
          found = { ...hit, name };
          break;
        }
      }
      this.absolute.set(key, found);
    }
    return found ? { ...found } : undefined;
  }

  /** `from ..a import b` in `importer` (level 2, module `a`). */
  resolveRelative(level: number, module: string, importer: string): ModuleLocation | undefined {
    let dir = parentDir(importer);
    for (let i = 1; i < level; i++) {
      if (dir === '') return undefined;
      dir = parentDir(dir);
    }
    const base = this.moduleName(joinRel(dir, '__init__.py'));
    const parts = module ? module.split('.') : [];
    const name = [base, ...parts].filter(Boolean).join('.');
    if (parts.length === 0) return { name, dir, ...(this.packageFile(dir) ? { file: this.packageFile(dir)! } : {}) };
    const hit = this.findUnder(dir, parts);
    return hit ? { ...hit, name } : undefined;
  }

  /** A submodule of a package (`pkg` + `sub`), when the package directory has one. */
  submodule(pkg: ModuleLocation, name: string): ModuleLocation | undefined {
    if (pkg.dir === undefined) return undefined;
    const hit = this.findUnder(pkg.dir, [name]);
    return hit ? { ...hit, name: pkg.name ? `${pkg.name}.${name}` : name } : undefined;
  }

  private packageFile(dir: string): string | undefined {
    for (const ext of SOURCE_EXTENSIONS) if (this.has(dir, `__init__${ext}`)) return joinRel(dir, `__init__${ext}`);
    return undefined;
  }

  /** `parts` below `base`: packages for every part but the last, then a package or a module file. */
  private findUnder(base: string, parts: readonly string[]): Omit<ModuleLocation, 'name'> | undefined {
    let dir = base;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1;
      if (this.isDir(dir, part)) {
        const sub = joinRel(dir, part);
        const init = this.packageFile(sub);
        if (last) {
          if (init) return { file: init, dir: sub };
          // A module file next to a namespace directory of the same name wins.
          const file = this.moduleFile(dir, part);
          if (file) return { file };
          return this.containsPython(sub) ? { dir: sub } : undefined;
        }
        dir = sub;
        continue;
      }
      if (last) {
        const file = this.moduleFile(dir, part);
        return file ? { file } : undefined;
      }
      return undefined;
    }
    return undefined;
  }

  private moduleFile(dir: string, name: string): string | undefined {
    for (const ext of SOURCE_EXTENSIONS) if (this.has(dir, name + ext)) return joinRel(dir, name + ext);
    return undefined;
  }

  /** A namespace package is a directory holding Python somewhere below it (checked one level deep). */
  private containsPython(dir: string): boolean {
    const names = this.list(dir);
    if (!names) return false;
    for (const n of names) if (n.endsWith('.py') || n.endsWith('.pyi')) return true;
    for (const n of names) if (!n.startsWith('.') && this.list(joinRel(dir, n)) !== null) return true;
    return false;
  }
}

/** Source roots a project names: setuptools `package-dir`/`where` (pyproject.toml, setup.cfg), poetry `from`. */
function projectRoots(root: string): string[] {
  const out: string[] = [];
  const read = (name: string) => {
    try {
      const p = join(root, name);
      return statSync(p).size < 1_000_000 ? readFileSync(p, 'utf8') : '';
    } catch {
      return '';
    }
  };
  const pyproject = read('pyproject.toml');
  // [tool.setuptools.package-dir] "" = "src"
  for (const m of pyproject.matchAll(/^\s*""\s*=\s*["']([^"']+)["']/gm)) out.push(m[1]!);
  // [tool.setuptools.packages.find] where = ["src"]
  for (const m of pyproject.matchAll(/^\s*where\s*=\s*\[([^\]]*)\]/gm))
    for (const w of m[1]!.matchAll(/["']([^"']+)["']/g)) out.push(w[1]!);
  // poetry: packages = [{ include = "x", from = "src" }]
  for (const m of pyproject.matchAll(/from\s*=\s*["']([^"']+)["']/g)) out.push(m[1]!);
  const setupCfg = read('setup.cfg');
  // [options] package_dir = =src    /   [options.packages.find] where = src
  for (const m of setupCfg.matchAll(/^\s*package_dir\s*=\s*(?:\n\s+)?=\s*(\S+)/gm)) out.push(m[1]!);
  for (const m of setupCfg.matchAll(/^\s*where\s*=\s*(\S+)/gm)) out.push(m[1]!);
  const setupPy = read('setup.py');
  for (const m of setupPy.matchAll(/package_dir\s*=\s*\{\s*["']{2}\s*:\s*["']([^"']+)["']/g)) out.push(m[1]!);
  return out.map((r) => r.replace(/^\.\//, '').replace(/\/+$/, '')).filter((r) => r !== '.' && !r.startsWith('/') && !r.includes('..'));
}

function parentDir(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
