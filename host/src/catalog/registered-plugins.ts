import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_FILE } from '@travsr/protocol';
import { treeHash } from '@travsr/registry/tree-hash';
import { loadConfig, type LoadedConfig } from '../config/index.js';
import { LangError, LangErrorCode } from './errors.js';
import { installedPluginDir, installedPluginsRoot, lockedInstallAdvice, pluginCopyFor } from './locked-version.js';
import { rememberLock } from './known-locks.js';
import { pluginsLockPath, readPluginsLock, type PluginsLock } from './plugins-lock.js';
import type { Logger } from '../log/logger.js';
import { PluginError } from '../plugins/errors.js';
import { readLangToml, writeLangToml, type LangRegistry } from './lang-toml.js';
import { loadPluginDir, type LoadedPlugin } from '../plugins/plugin-dir.js';
import { registrationTier, type SandboxTier } from '../sandbox/index.js';
import { findRepoRoot } from '../git/index.js';

/** A plugin the indexer may run, with what the user granted it. */
export interface RegisteredPlugin {
  plugin: LoadedPlugin;
  tier: SandboxTier;
  allowUnsandboxed: boolean;
  networkAllow: string[];
  /** Tree hash recorded at registration; the host refuses to launch if the files changed. */
  treeHash?: string;
  /** Where the registration came from: lang.toml, a plugin directory named in config, or a trusted repository's lock (its own registry). */
  source: 'lang.toml' | 'config' | 'lock';
}

/**
 * First-party plugins that ship with this installation: every built `plugins/<id>/` next
 * to the host package (the monorepo layout). The packaged registry replaces this later.
 */
export function builtinPluginDirs(): string[] {
  const root = checkoutPluginsRoot();
  if (!root) return [];
  return readdirSync(root)
    .sort()
    .map((name) => join(root, name))
    .filter((d) => existsSync(join(d, MANIFEST_FILE)));
}

/** The `plugins/` folder of the checkout this host runs from (beside `host/`), or undefined in an installed package. */
export function checkoutPluginsRoot(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here, i = 0; i < 6; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'plugins');
    if (existsSync(candidate) && existsSync(join(dir, 'host'))) return candidate;
  }
  return undefined;
}

/** Loads the first-party plugins that are built (their entrypoint exists); others are reported. */
export async function loadBuiltinPlugins(logger?: Logger): Promise<LoadedPlugin[]> {
  const out: LoadedPlugin[] = [];
  for (const dir of builtinPluginDirs()) {
    try {
      out.push(await loadPluginDir(dir));
    } catch (e) {
      logger?.log('warn', `built-in plugin in ${dir} is not usable: ${(e as Error).message}`);
    }
  }
  return out;
}

/**
 * Registers plugins for languages in `~/.travsr/lang.toml`: the plugin entry (version,
 * directory, tree hash, granted tier) and the language → plugin mapping. An existing
 * language mapping is kept (the user chose it) unless its plugin no longer serves the
 * language; a registration whose files changed (Travsr was updated and rebuilt its plugins)
 * is recorded again with the new tree hash, keeping its grant. Returns what was newly
 * registered or re-registered.
 */
export async function registerPlugins(
  plugins: LoadedPlugin[],
  languages: Iterable<string>,
  defaultTier: SandboxTier = 'standard',
): Promise<{ language: string; plugin: string }[]> {
  const wanted = new Set(languages);
  const reg: LangRegistry = readLangToml();
  const added: { language: string; plugin: string }[] = [];
  for (const p of plugins) {
    const langs = p.manifest.languages.filter((l) => wanted.has(l));
    if (langs.length === 0) continue;
    const existing = reg.plugins[p.manifest.id];
    const hash = await treeHash(p.dir);
    if (!existing || existing.version !== p.manifest.version || existing.dir !== p.dir || existing.treeHash !== hash) {
      reg.plugins[p.manifest.id] = {
        version: p.manifest.version,
        dir: p.dir,
        treeHash: hash,
        tier: registrationTier(existing?.dir === p.dir ? existing.tier : defaultTier, p.manifest),
        networkAllow: existing?.dir === p.dir ? existing.networkAllow : [],
      };
    }
    for (const l of langs) {
      const entry = reg.languages[l] ?? { allowUnsandboxed: false };
      const mapped = entry.plugin ? plugins.find((q) => q.manifest.id === entry.plugin) : undefined;
      // A first-party plugin that no longer serves the language (Go moved out of lang-structural).
      const stale = mapped !== undefined && !mapped.manifest.languages.includes(l);
      if (!entry.plugin || stale) {
        entry.plugin = p.manifest.id;
        added.push({ language: l, plugin: p.manifest.id });
      }
      reg.languages[l] = entry;
    }
  }
  writeLangToml(reg);
  return added;
}

/** Options of {@link registeredPlugins}. */
export interface CatalogOptions {
  /**
   * The repository the plugins run on: its `.travsr/plugins.lock` chooses the version of each
   * plugin it locks. Default: the git work tree of the current directory (the repository
   * `travsr lang` installs for); outside one, no lock is read.
   */
  readonly repoRoot?: string;
  /**
   * The repository's configuration (default: loaded for `repoRoot`). Only what a trusted
   * repository file sets counts (see loadConfig): its `sandbox.tier` and its own registry.
   */
  readonly config?: LoadedConfig;
}

const TIER_ORDER: readonly SandboxTier[] = ['standard', 'native-ipc', 'elevated', 'unsandboxed'];

/** The wider of two tiers. */
function widerTier(a: SandboxTier, b: SandboxTier): SandboxTier {
  return TIER_ORDER.indexOf(a) >= TIER_ORDER.indexOf(b) ? a : b;
}

/**
 * What a trusted repository's own config grants its runs: its `sandbox.tier` (a default, so a
 * wider grant in lang.toml stays) and the registry it installs from (what its lock records from
 * that registry runs here without being in lang.toml). Nothing from an untrusted file: loadConfig
 * already left its security keys out.
 */
function repositoryGrant(config: LoadedConfig | undefined): { tier?: SandboxTier; registry?: string } {
  if (config === undefined) return {};
  const tier = config.values['sandbox.tier'];
  const url = config.values['registry.url'];
  const keys = config.values['registry.trustedKeys'];
  const registryFromRepo = url.value.trim() !== '' && (url.source === 'repo' || keys.source === 'repo');
  return {
    ...(tier.source === 'repo' ? { tier: tier.value } : {}),
    ...(registryFromRepo ? { registry: url.value.trim() } : {}),
  };
}

/**
 * The plugins the indexer runs, in a deterministic order: those registered in lang.toml
 * for a language (sorted by plugin id), then plugin directories named in configuration
 * (`plugins.dirs`, in the order given; no recorded tree hash, since they are under
 * development). A registration whose files are gone is reported and left out.
 *
 * lang.toml is shared by every repository; when the repository's `.travsr/plugins.lock` locks
 * a registered plugin at another version, that version's installed copy runs (checked against
 * the lock's tree hash at launch) or, when it is not installed, the plugin is left out with a
 * `LOCKED_VERSION_NOT_INSTALLED` problem. The grant (tier, unsandboxed, network) is lang.toml's,
 * widened to a trusted repository's own `sandbox.tier` for its runs. A plugin the lock records
 * from the trusted repository's own registry runs for this repository though lang.toml does not
 * register it (`travsr lang install` keeps such plugins out of the lang.toml every repository shares).
 *
 * Problems are returned, not logged: the caller reports them once.
 *
 * @throws LangError `LOCK_INVALID` when the repository's lock file cannot be read.
 */
export async function registeredPlugins(
  extraDirs: readonly string[],
  opts: CatalogOptions = {},
): Promise<{ plugins: RegisteredPlugin[]; problems: string[] }> {
  const reg = readLangToml();
  const repoRoot = opts.repoRoot ?? (await findRepoRoot(process.cwd()).catch(() => undefined));
  const lock: PluginsLock = repoRoot === undefined ? {} : readPluginsLock(pluginsLockPath(repoRoot));
  // `lang prune` / `lang remove` elsewhere must spare the versions this repository runs.
  if (repoRoot !== undefined && Object.keys(lock).length > 0) rememberLock(pluginsLockPath(repoRoot));
  const pluginsRoot = installedPluginsRoot();
  let config = opts.config;
  if (config === undefined && repoRoot !== undefined) {
    try {
      config = loadConfig({ repoRoot });
    } catch {
      // A broken config file is reported by the command that opened the repository; nothing extra is granted.
    }
  }
  const grant = repositoryGrant(config);
  const plugins: RegisteredPlugin[] = [];
  const problems: string[] = [];
  const used = new Set(
    Object.values(reg.languages)
      .map((l) => l.plugin)
      .filter((p): p is string => !!p),
  );
  for (const id of [...used].sort()) {
    const entry = reg.plugins[id];
    if (!entry) {
      problems.push(`lang.toml maps a language to ${id}, which is not registered; run \`travsr init\` again`);
      continue;
    }
    try {
      const copy = repoRoot === undefined ? undefined : pluginCopyFor(id, entry, { root: repoRoot, locked: lock[id], pluginsRoot });
      const plugin = await loadPluginDir(copy?.dir ?? entry.dir);
      if (repoRoot !== undefined && copy?.chosenBy === 'lock' && plugin.label !== `${id}@${copy.version}`)
        throw new LangError(
          LangErrorCode.LockedVersionNotInstalled,
          `${plugin.dir} holds ${plugin.label}, not ${id}@${copy.version} as ${pluginsLockPath(repoRoot)} locks; ${id} was not run; ${lockedInstallAdvice(repoRoot)}`,
        );
      const treeHash = copy ? copy.treeHash : entry.treeHash;
      const langs = plugin.manifest.languages;
      // A language the update moved out of this plugin: its files would go unindexed without a word.
      for (const [language, l] of Object.entries(reg.languages).sort(([a], [b]) => (a < b ? -1 : 1)))
        if (l.plugin === id && !langs.includes(language)) problems.push(languageNotServed(language, plugin.label, repoRoot));
      const allowUnsandboxed = langs.some((l) => reg.languages[l]?.allowUnsandboxed === true);
      plugins.push({
        plugin,
        tier: grant.tier === undefined ? entry.tier : widerTier(entry.tier, grant.tier),
        allowUnsandboxed,
        networkAllow: entry.networkAllow,
        ...(treeHash ? { treeHash } : {}),
        source: 'lang.toml',
      });
    } catch (e) {
      const msg = e instanceof LangError ? `[${e.code}] ${e.message}` : e instanceof PluginError ? e.message : String(e);
      problems.push(`${id}: ${msg}`);
    }
  }
  for (const dir of extraDirs) {
    try {
      const plugin = await loadPluginDir(dir);
      if (plugins.some((p) => p.plugin.manifest.id === plugin.manifest.id)) continue;
      plugins.push({ plugin, tier: 'standard', allowUnsandboxed: false, networkAllow: [], source: 'config' });
    } catch (e) {
      problems.push(`${dir}: ${(e as Error).message}`);
    }
  }
  // A lock entry nothing registers: from the trusted repository's own registry it runs here;
  // otherwise (removed in another repository) say so, or the language just goes unindexed.
  if (repoRoot !== undefined)
    for (const [id, locked] of Object.entries(lock).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (reg.plugins[id] || plugins.some((p) => p.plugin.manifest.id === id)) continue;
      if (grant.registry !== undefined && locked.registry === grant.registry) {
        try {
          const plugin = await loadPluginDir(installedPluginDir(pluginsRoot, id, locked.version));
          if (plugin.label !== `${id}@${locked.version}`) throw new Error(`${plugin.dir} holds ${plugin.label}`);
          plugins.push({
            plugin,
            tier: grant.tier ?? 'standard',
            allowUnsandboxed: false,
            networkAllow: [],
            treeHash: locked.treeHash,
            source: 'lock',
          });
          continue;
        } catch (e) {
          problems.push(
            `${id}: ${pluginsLockPath(repoRoot)} locks ${id} at ${locked.version} from ${locked.registry}, which is not installed (${(e as Error).message}); ${lockedInstallAdvice(repoRoot)}`,
          );
          continue;
        }
      }
      problems.push(
        `${id}: ${pluginsLockPath(repoRoot)} locks ${id} at ${locked.version}, but lang.toml does not register it, so it does not run; ${lockedInstallAdvice(repoRoot)}`,
      );
    }
  return { plugins, problems };
}

/** The problem of a lang.toml mapping whose plugin no longer serves the language, with the way out. */
function languageNotServed(language: string, label: string, repoRoot: string | undefined): string {
  const init = repoRoot === undefined ? '`travsr init`' : `\`travsr init ${repoRoot}\``;
  return (
    `[${LangErrorCode.LanguageNotServed}] lang.toml maps ${language} to ${label}, which no longer serves ${language} ` +
    `(an update moved it to another plugin), so ${language} files are not analyzed and a full index drops them from the graph; ` +
    `run ${init} (or \`travsr lang install ${language}\`) to map ${language} to the plugin that serves it now`
  );
}
