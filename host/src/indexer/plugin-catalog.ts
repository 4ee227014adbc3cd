import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_FILE } from '@travsr/protocol';
import { treeHash } from '@travsr/registry/tree-hash';
import { LangError, LangErrorCode } from '../lang/errors.js';
import { installedPluginsRoot, pluginCopyFor } from '../lang/locked-version.js';
import { rememberLock } from '../lang/known-locks.js';
import { pluginsLockPath, readPluginsLock, type PluginsLock } from '../lang/plugins-lock.js';
import type { Logger } from '../log/logger.js';
import { PluginError } from '../plugins/errors.js';
import { readLangToml, writeLangToml, type LangRegistry } from '../plugins/lang-toml.js';
import { loadPluginDir, type LoadedPlugin } from '../plugins/plugin-dir.js';
import type { SandboxTier } from '../sandbox/index.js';
import { findRepoRoot } from './git/index.js';

/** A plugin the indexer may run, with what the user granted it. */
export interface RegisteredPlugin {
  plugin: LoadedPlugin;
  tier: SandboxTier;
  allowUnsandboxed: boolean;
  networkAllow: string[];
  /** Tree hash recorded at registration; the host refuses to launch if the files changed. */
  treeHash?: string;
  /** Where the registration came from: lang.toml, or a plugin directory named in config. */
  source: 'lang.toml' | 'config';
}

/**
 * First-party plugins that ship with this installation: every built `plugins/<id>/` next
 * to the host package (the monorepo layout). The packaged registry replaces this later.
 */
export function builtinPluginDirs(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here, i = 0; i < 6; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'plugins');
    if (existsSync(candidate) && existsSync(join(dir, 'host'))) {
      return readdirSync(candidate)
        .sort()
        .map((name) => join(candidate, name))
        .filter((d) => existsSync(join(d, MANIFEST_FILE)));
    }
  }
  return [];
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
        tier: existing?.dir === p.dir ? existing.tier : defaultTier,
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
 * `LOCKED_VERSION_NOT_INSTALLED` problem. The grant (tier, unsandboxed, network) is lang.toml's.
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
          `${plugin.dir} holds ${plugin.label}, not ${id}@${copy.version} as ${pluginsLockPath(repoRoot)} locks; ${id} was not run — run \`travsr lang install\` in ${repoRoot}`,
        );
      const treeHash = copy ? copy.treeHash : entry.treeHash;
      const langs = plugin.manifest.languages;
      const allowUnsandboxed = langs.some((l) => reg.languages[l]?.allowUnsandboxed === true);
      plugins.push({
        plugin,
        tier: entry.tier,
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
  // A lock entry nothing registers (removed in another repository): say so, or the language just goes unindexed.
  if (repoRoot !== undefined)
    for (const [id, locked] of Object.entries(lock).sort(([a], [b]) => (a < b ? -1 : 1)))
      if (!reg.plugins[id] && !plugins.some((p) => p.plugin.manifest.id === id))
        problems.push(
          `${id}: ${pluginsLockPath(repoRoot)} locks ${id} at ${locked.version}, but lang.toml does not register it, so it does not run; run \`travsr lang install\` in ${repoRoot}`,
        );
  return { plugins, problems };
}
