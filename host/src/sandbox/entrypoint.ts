import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import { posix, sep, win32 } from 'node:path';
import type { PluginManifest } from '@travsr/protocol';
import { nodeLaunchFlags } from '@travsr/protocol/node';
import { LaunchSpecError } from './errors.js';

export { nodeHeapMiB } from '@travsr/protocol/node';

/**
 * The program and arguments that start the plugin, as seen from where it runs:
 * `runtime: node` → `<node> --max-old-space-size=<heap> [--liftoff-only] <pluginRoot>/<path> …args`
 * (`nodeLaunchFlags` of `@travsr/protocol/node`; `--liftoff-only` for a brief session, see `LaunchSpec.brief`);
 * `runtime: exec` → `<pluginRoot>/<path> …args`.
 */
export function entrypointArgv(
  manifest: PluginManifest,
  opts: { pluginRoot: string; nodePath: string; memoryMiB: number; platform: NodeJS.Platform; brief?: boolean | undefined },
): string[] {
  const ep = manifest.entrypoint;
  const path = opts.platform === 'win32' ? win32 : posix;
  const file = path.join(opts.pluginRoot, ep.path);
  const args = ep.args ?? [];
  if (ep.runtime !== 'node') return [file, ...args];
  return [opts.nodePath, ...nodeLaunchFlags(opts.memoryMiB, { brief: opts.brief }), file, ...args];
}

/**
 * Checks on this machine that the entrypoint exists inside the (real) plugin directory,
 * does not escape it through a symlink, and is executable for `runtime: exec`.
 */
export async function checkEntrypoint(manifest: PluginManifest, realPluginDir: string): Promise<void> {
  const file = posix.join(realPluginDir, manifest.entrypoint.path);
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    throw new LaunchSpecError(
      `the entrypoint ${manifest.entrypoint.path} of ${manifest.id} does not exist in ${realPluginDir}; reinstall the plugin or fix travsr-plugin.json`,
    );
  }
  if (!real.startsWith(realPluginDir + sep)) {
    throw new LaunchSpecError(
      `the entrypoint ${manifest.entrypoint.path} of ${manifest.id} resolves outside the plugin directory (${real}); a plugin must ship its entrypoint`,
    );
  }
  if (manifest.entrypoint.runtime === 'exec') {
    try {
      await access(real, constants.X_OK);
    } catch {
      throw new LaunchSpecError(
        `the entrypoint ${manifest.entrypoint.path} of ${manifest.id} is not executable; chmod +x it or use runtime "node"`,
      );
    }
  }
}
