import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { PluginError, PluginErrorCode } from './errors.js';
import { hostPackagePath } from '../paths/host-package.js';

/** What `travsr plugin new` fills into the template. */
export interface ScaffoldOptions {
  id: string;
  language: string;
  /** With the dot, e.g. `.mylang`. */
  extension: string;
  /**
   * The plugin's dependency spec for @travsr/sdk in its package.json. Default: `^<version>` of
   * the SDK this Travsr runs on, from the npm registry (`file:<checkout>/sdk` for an SDK
   * that is not published, a tarball, a git URL: anything npm takes).
   */
  sdk?: string;
}

const TEMPLATE_DIR = `${hostPackagePath('templates', 'plugin')}/`;

/**
 * Writes a new plugin from the template into `dir` (which must not exist or be empty).
 * Returns the files written, relative to `dir`.
 */
export function scaffoldPlugin(dir: string, opts: ScaffoldOptions): string[] {
  const target = resolve(dir);
  assertFreeDirectory(target);
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(opts.id))
    throw new PluginError(PluginErrorCode.ManifestInvalid, `plugin id "${opts.id}" must be lowercase letters, digits, . _ -`);
  if (!/^[a-z0-9][a-z0-9+#._-]*$/.test(opts.language))
    throw new PluginError(PluginErrorCode.ManifestInvalid, `language "${opts.language}" must be lowercase letters, digits, + # . _ -`);
  if (!/^\.[A-Za-z0-9._+-]+$/.test(opts.extension))
    throw new PluginError(PluginErrorCode.ManifestInvalid, `extension "${opts.extension}" must start with a dot, e.g. .mylang`);
  const { sdk, ...names } = opts;
  const vars: Record<string, string> = { ...names, sdkSpec: sdk ?? sdkSpec() };
  const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (m, k: string) => vars[k] ?? m);
  const written: string[] = [];
  const copy = (from: string) => {
    for (const name of readdirSync(from)) {
      const src = join(from, name);
      if (statSync(src).isDirectory()) copy(src);
      else {
        const rel = fill(relative(TEMPLATE_DIR, src));
        const dst = join(target, rel);
        mkdirSync(dirname(dst), { recursive: true });
        writeFileSync(dst, fill(readFileSync(src, 'utf8')));
        written.push(rel);
      }
    }
  };
  copy(TEMPLATE_DIR);
  return written.sort();
}

/**
 * Creates a new plugin in `dir` all at once: scaffolds it into a staging directory next to
 * `dir` (same file system, so the final rename is atomic), runs `build` there (bundle, golden
 * snapshots), and only then moves it into place. A failure removes the staging directory, so
 * nothing half-made blocks running the command again. `dir` may be relative (to the current
 * directory). Returns the absolute directory and the template files written, relative to it.
 */
export async function createPlugin(
  dir: string,
  opts: ScaffoldOptions,
  build: (stagingDir: string) => Promise<void>,
): Promise<{ dir: string; files: string[] }> {
  const target = resolve(dir);
  assertFreeDirectory(target);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, `.${basename(target)}.travsr-new-`));
  try {
    const files = scaffoldPlugin(staging, opts);
    await build(staging);
    assertFreeDirectory(target);
    if (existsSync(target)) rmdirSync(target); // empty, checked just above
    renameSync(staging, target);
    return { dir: target, files };
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
}

function assertFreeDirectory(target: string): void {
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new PluginError(PluginErrorCode.NotFound, `${target} already exists and is not empty; choose a new directory`);
  }
}

/**
 * The default dependency spec for @travsr/sdk: `^` the version this Travsr runs on, so the plugin
 * installs the SDK from the npm registry (@travsr/sdk is published with every release, see
 * host/scripts/pack-release.mjs) and stays compatible with this host.
 */
export function sdkSpec(): string {
  const require = createRequire(import.meta.url);
  const { version } = JSON.parse(readFileSync(require.resolve('@travsr/sdk/package.json'), 'utf8')) as { version: string };
  return `^${version}`;
}

/** A default plugin id from a directory name: `./my-lang` → `my-lang`. */
export function defaultPluginId(dir: string): string {
  return (
    basename(resolve(dir))
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '') || 'my-plugin'
  );
}
