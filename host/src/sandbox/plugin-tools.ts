import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, sep } from 'node:path';
import type { PluginManifest } from '@travsr/protocol';

/** An external program a plugin declared in `constraints.tools`, found on the host. */
export interface ResolvedTool {
  /** The name the manifest declares (`scip-go`). */
  name: string;
  /** Its real path (symlinks resolved): where the plugin finds it, inside the sandbox too. */
  path: string;
  /**
   * What the sandbox must bind read-only for it to run, at the same path: nothing when it is
   * under the runtime the sandbox already binds (/usr); its npm package when it is a script of
   * one (`…/node_modules/@sourcegraph/scip-python` for the `scip-python` bin link: the script
   * loads the rest of its package), or the `node_modules` tree it was installed into when npm
   * hoisted its dependencies there (`…/tools/node_modules` for a local `npm install
   * @sourcegraph/scip-typescript`); its toolchain directory when it sits in the `bin/` of one
   * (a GOROOT holding `src/runtime`, a GOPATH holding `pkg/mod`: `~/go` for `~/go/bin/scip-go`;
   * a JDK, Maven, Gradle or sbt distribution, `bin/` beside `lib/` or `conf/`) or at the top of a
   * .NET SDK, or beside the `.store/` of a .NET global tool (`~/.dotnet/tools`); a Dart pub
   * cache (`~/.pub-cache` for `~/.pub-cache/bin/scip_dart`); the
   * Composer project of a PHP tool (the directory with `vendor/autoload.php`);
   * else the file alone.
   */
  bind: string | undefined;
}

/** The tools of a manifest: those found on PATH, and the names of those that are not. */
export interface PluginTools {
  /** Found, of `tools` and `optionalTools` alike. */
  found: ResolvedTool[];
  /** Of `tools`: each costs the plugin the pass it serves. */
  missing: string[];
  /** Of `optionalTools`: each costs only an upgrade the plugin reports itself. */
  optionalMissing: string[];
}

/**
 * Directories whose programs the sandbox lets a plugin run anyway: what Linux binds
 * (sandbox-profiles/linux/bwrap.json `runtime`), what the macOS profiles allow to exec
 * (not /usr/local: Homebrew's tools need a slot).
 */
const ALREADY_VISIBLE: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'],
  darwin: ['/usr/bin/', '/bin/'],
};

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks `name` up on `pathEnv` as a shell would; Windows also tries PATHEXT. */
export function whichOnPath(name: string, pathEnv: string | undefined = process.env['PATH']): string | undefined {
  const exts = process.platform === 'win32' ? ['', ...(process.env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The npm package directory a file belongs to (`<…>/node_modules/<name>` or
 * `<…>/node_modules/@scope/<name>`, the innermost), or undefined outside node_modules.
 */
export function npmPackageDir(real: string): string | undefined {
  const parts = real.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const scoped = parts[at + 1]?.startsWith('@') === true;
  const end = at + (scoped ? 3 : 2);
  // The file must lie inside the package, not be the package directory itself.
  if (parts.length <= end) return undefined;
  return parts.slice(0, end).join(sep);
}

/** The outermost `node_modules` directory on a package's path: where npm hoists the dependencies of what it installed. */
function outermostNodeModules(packageDir: string): string {
  const parts = packageDir.split(sep);
  return parts.slice(0, parts.indexOf('node_modules') + 1).join(sep);
}

/** True when a package's dependencies are not all in its own `node_modules` (npm hoisted them above it). */
function npmDependenciesHoisted(packageDir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return Object.keys(manifest.dependencies ?? {}).some((dep) => !existsSync(join(packageDir, 'node_modules', dep)));
  } catch {
    return false;
  }
}

/**
 * The Composer project a PHP tool belongs to — the directory holding `vendor/autoload.php`,
 * which its script loads: a package of a global install (`~/.config/composer/vendor/…/bin/x`)
 * or a checkout with its dependencies (`/opt/scip-php/bin/scip-php`).
 */
function composerRoot(real: string, home: string): string | undefined {
  const parts = real.split(sep);
  for (let i = parts.length - 1; i > 0; i--) {
    const dir = parts.slice(0, i).join(sep) || sep;
    if (dir === sep || dir === home) break;
    if (existsSync(join(dir, 'vendor', 'autoload.php'))) return dir;
  }
  return undefined;
}

/** What has to be bound for a tool at `real` (see {@link ResolvedTool.bind}). */
export function toolBind(real: string, home: string = homedir(), platform: NodeJS.Platform = process.platform): string | undefined {
  if ((ALREADY_VISIBLE[platform] ?? ALREADY_VISIBLE.linux!).some((p) => real.startsWith(p))) return undefined;
  const npmPackage = npmPackageDir(real);
  if (npmPackage !== undefined) return npmDependenciesHoisted(npmPackage) ? outermostNodeModules(npmPackage) : npmPackage;
  const composer = composerRoot(real, home);
  if (composer !== undefined) return composer;
  const bin = dirname(real);
  const root = dirname(bin);
  // The .NET SDK's `dotnet` sits at the top of its installation, beside sdk/ and shared/; a .NET
  // global tool's shim (~/.dotnet/tools/scip-dotnet) beside the .store/ that holds the tool.
  if (bin !== '/' && bin !== home && existsSync(join(bin, 'sdk')) && existsSync(join(bin, 'shared'))) return bin;
  if (bin !== '/' && bin !== home && existsSync(join(bin, '.store'))) return bin;
  // Shared prefixes whose bin/ holds many programs: the tool alone there, never the prefix.
  const shared = ['/', '/usr', '/usr/local', '/opt/homebrew', '/opt/local', home, join(home, '.local')];
  const toolchain =
    basename(bin) === 'bin' &&
    !shared.includes(root) &&
    // A Go installation or GOPATH; a JDK, Maven or Gradle distribution (bin/ beside lib/); sbt's (bin/ beside conf/).
    (existsSync(join(root, 'src', 'runtime')) ||
      existsSync(join(root, 'pkg', 'mod')) ||
      existsSync(join(root, 'lib')) ||
      existsSync(join(root, 'conf')) ||
      // Dart's pub cache: the launcher of a globally activated package (scip_dart) and what it runs.
      existsSync(join(root, 'global_packages')));
  return toolchain ? root : real;
}

/** True when a manifest declares external tools (`constraints.tools` or `optionalTools`). */
export function declaresTools(manifest: Pick<PluginManifest, 'constraints'>): boolean {
  return (manifest.constraints.tools ?? []).length + (manifest.constraints.optionalTools ?? []).length > 0;
}

/**
 * Finds the programs a plugin declares in `constraints.tools` and `constraints.optionalTools`
 * on the host's PATH. A plugin gets those found (bound read-only into its sandbox, passed as
 * `initialize.options.tools`) and reports a pass it cannot run without the others.
 *
 * @example
 * ```ts
 * resolvePluginTools(manifest); // { found: [{ name: 'go', path: '/usr/lib/go-1.22/bin/go', bind: undefined }], missing: ['scip-go'], optionalMissing: [] }
 * ```
 */
export function resolvePluginTools(
  manifest: Pick<PluginManifest, 'constraints'>,
  pathEnv: string | undefined = process.env['PATH'],
): PluginTools {
  const out: PluginTools = { found: [], missing: [], optionalMissing: [] };
  const required = manifest.constraints.tools ?? [];
  const optional = (manifest.constraints.optionalTools ?? []).filter((t) => !required.includes(t));
  for (const name of [...required, ...optional]) {
    const at = whichOnPath(name, pathEnv);
    if (!at) {
      (required.includes(name) ? out.missing : out.optionalMissing).push(name);
      continue;
    }
    let real = at;
    try {
      real = realpathSync(at);
    } catch {
      // keep the PATH entry
    }
    out.found.push({ name, path: real, bind: toolBind(real) });
  }
  return out;
}
