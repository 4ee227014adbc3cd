import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PluginError, PluginErrorCode } from './errors.js';

/** What `travsr plugin new` fills into the template. */
export interface ScaffoldOptions {
  id: string;
  language: string;
  /** With the dot, e.g. `.mylang`. */
  extension: string;
}

const TEMPLATE_DIR = fileURLToPath(new URL('../../templates/plugin/', import.meta.url));

/**
 * Writes a new plugin from the template into `dir` (which must not exist or be empty).
 * Returns the files written, relative to `dir`.
 */
export function scaffoldPlugin(dir: string, opts: ScaffoldOptions): string[] {
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new PluginError(PluginErrorCode.NotFound, `${target} already exists and is not empty; choose a new directory`);
  }
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(opts.id))
    throw new PluginError(PluginErrorCode.ManifestInvalid, `plugin id "${opts.id}" must be lowercase letters, digits, . _ -`);
  if (!/^[a-z0-9][a-z0-9+#._-]*$/.test(opts.language))
    throw new PluginError(PluginErrorCode.ManifestInvalid, `language "${opts.language}" must be lowercase letters, digits, + # . _ -`);
  if (!/^\.[A-Za-z0-9._+-]+$/.test(opts.extension))
    throw new PluginError(PluginErrorCode.ManifestInvalid, `extension "${opts.extension}" must start with a dot, e.g. .mylang`);
  const vars: Record<string, string> = { ...opts, sdkSpec: sdkSpec() };
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

/** The dependency spec for @travsr/sdk: this installation's copy, until it is on a registry. */
function sdkSpec(): string {
  const require = createRequire(import.meta.url);
  try {
    return `file:${dirname(require.resolve('@travsr/sdk/package.json'))}`;
  } catch {
    return '0.1.0';
  }
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
