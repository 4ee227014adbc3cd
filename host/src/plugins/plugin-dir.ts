import { access, readFile, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MANIFEST_FILE, parseManifest, type PluginManifest } from '@travsr/protocol';
import { PluginError, PluginErrorCode } from './errors.js';

/** A plugin directory with its validated manifest. */
export interface LoadedPlugin {
  /** Absolute path of the plugin directory. */
  dir: string;
  manifest: PluginManifest;
  /** `id@version`, for messages and traces. */
  label: string;
}

/**
 * Reads and validates `travsr-plugin.json` in `dir` and checks that the entrypoint exists.
 * Nothing of the plugin runs.
 */
export async function loadPluginDir(dir: string): Promise<LoadedPlugin> {
  const abs = resolve(dir);
  const manifestPath = join(abs, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    throw new PluginError(
      PluginErrorCode.NotFound,
      `${abs} is not a Travsr plugin: it has no ${MANIFEST_FILE}; scaffold one with \`travsr plugin new <dir>\``,
    );
  }
  let manifest: PluginManifest;
  try {
    manifest = parseManifest(text, manifestPath);
  } catch (e) {
    throw new PluginError(PluginErrorCode.ManifestInvalid, `${(e as Error).message}; see protocol/SPEC.md for the manifest fields`);
  }
  const label = `${manifest.id}@${manifest.version}`;
  const entry = join(abs, manifest.entrypoint.path);
  try {
    await access(entry, manifest.entrypoint.runtime === 'exec' ? constants.X_OK : constants.R_OK);
  } catch {
    throw new PluginError(
      PluginErrorCode.NotFound,
      `${label}: entrypoint ${manifest.entrypoint.path} is missing${manifest.entrypoint.runtime === 'exec' ? ' or not executable' : ''} in ${abs}; build the plugin first (e.g. \`npm run build\` in its folder)`,
      label,
    );
  }
  return { dir: abs, manifest, label };
}
