import type { PluginManifest } from '@travsr/protocol';
import type { Logger } from '../log/logger.js';
import type { LoadedPlugin } from '../plugins/plugin-dir.js';
import { installFromRegistry, langContext, withRegistry, type InstallOutcome } from './install-plugin.js';
import { loadBuiltinPlugins } from './registered-plugins.js';
import { builtinRegistrySource, registryClient } from './registry-source.js';

/**
 * The first-party plugins of this installation, and where `travsr init` takes them from:
 * - `checkout`: a built clone of the repository (`plugins/<id>/` beside `host/`): the plugin
 *   directories themselves, registered where they are, so a rebuilt plugin runs at once;
 * - `builtin-registry`: an installed package (`npm i -g travsr`), which holds them only as signed
 *   artifacts in its built-in registry: a repository's plugins are installed from there into
 *   `~/.travsr/plugins/` and locked in its `.travsr/plugins.lock`, as `travsr lang install` does.
 */
export type FirstPartyPlugins =
  | { readonly from: 'checkout'; readonly plugins: readonly LoadedPlugin[] }
  | {
      readonly from: 'builtin-registry';
      readonly manifests: readonly PluginManifest[];
      /** Plugins of the registry whose version document could not be read or verified, with why. */
      readonly problems: readonly string[];
    };

/**
 * Finds this installation's first-party plugins (see {@link FirstPartyPlugins}). The built-in
 * registry's manifests come from its signed version documents (the newest version of each
 * plugin), checked against its key like any install.
 *
 * @throws LangError `BUILTIN_REGISTRY_MISSING` when there is neither a checkout nor a built-in registry
 */
export async function firstPartyPlugins(logger?: Logger): Promise<FirstPartyPlugins> {
  const plugins = await loadBuiltinPlugins(logger);
  if (plugins.length > 0) return { from: 'checkout', plugins };
  const source = await builtinRegistrySource();
  const client = registryClient(source);
  try {
    const { index } = await client.snapshot();
    const manifests: PluginManifest[] = [];
    const problems: string[] = [];
    // One plugin whose document fails its check is left out, not every plugin.
    for (const [id, entry] of Object.entries(index.plugins).sort(([a], [b]) => a.localeCompare(b))) {
      try {
        manifests.push((await client.versionDocument(id, entry.latest)).manifest);
      } catch (e) {
        problems.push(`${id}@${entry.latest} of the built-in registry is left out: ${(e as Error).message}`);
      }
    }
    return { from: 'builtin-registry', manifests, problems };
  } finally {
    await client.close();
  }
}

/**
 * Installs first-party plugins from the built-in registry for the repository at `repoRoot`:
 * each at the version its lock names (else the newest), registered in lang.toml and locked.
 * A plugin that cannot be installed is reported through `onError` and the others go on.
 */
export async function installFirstParty(
  repoRoot: string,
  ids: readonly string[],
  onError: (id: string, error: Error) => void,
): Promise<InstallOutcome[]> {
  if (ids.length === 0) return [];
  const ctx = await langContext(repoRoot, false);
  const out: InstallOutcome[] = [];
  await withRegistry(
    ctx,
    async (source, client) => {
      for (const id of ids) {
        try {
          out.push(await installFromRegistry(ctx, source, client, id, undefined, 'install'));
        } catch (e) {
          onError(id, e as Error);
        }
      }
    },
    await builtinRegistrySource(),
  );
  return out;
}
