import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '@travsr/protocol';
import { travsrHome } from '../paths/travsr-home.js';
import type { PluginEntry } from './lang-toml.js';
import { LangError, LangErrorCode } from './errors.js';
import { pluginsLockPath, type LockEntry } from './plugins-lock.js';

/** `<TRAVSR_HOME>/plugins`: installed plugins live in `<id>/<version>/` below it. */
export function installedPluginsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(travsrHome(env), 'plugins');
}

/** `<pluginsRoot>/<id>/<version>`: where `travsr lang install` puts a plugin (a scoped id `acme/lua` is two levels deep). */
export function installedPluginDir(pluginsRoot: string, id: string, version: string): string {
  return join(pluginsRoot, ...id.split('/'), version);
}

/**
 * What to do about a version a repository's lock names that is not installed or registered:
 * install exactly what the lock says (`--frozen-lockfile` changes nothing in it), and a reminder
 * that the install reads the user's own registry — a repository's `registry.*` settings count
 * only where the user ran `travsr trust`.
 */
export function lockedInstallAdvice(root: string): string {
  return `to install what its lock names from your own registry (registry.url of ~/.travsr/config.toml, else the built-in one; the repository's own registry settings count only if you ran \`travsr trust\` there), run \`travsr lang install --frozen-lockfile --repo ${shellWord(root)}\``;
}

/** `path` as one shell word: as it is when plain, else single-quoted. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The files of a registered plugin that one repository runs, and the tree hash they must still have. */
export interface PluginCopy {
  readonly dir: string;
  readonly version: string;
  /** Checked before every launch; undefined when lang.toml recorded none (a plugin registered from its source folder). */
  readonly treeHash: string | undefined;
  /** `lang.toml`: the registration every repository shares; `lock`: this repository's lock chose another version. */
  readonly chosenBy: 'lang.toml' | 'lock';
}

/** The repository a plugin copy is chosen for. */
export interface LockedRepository {
  /** Repository root, for messages (`run travsr lang install in …`). */
  readonly root: string;
  /** The plugin's entry in the repository's `.travsr/plugins.lock`, if it has one. */
  readonly locked: LockEntry | undefined;
  /** `<TRAVSR_HOME>/plugins` */
  readonly pluginsRoot: string;
}

/**
 * Which copy of the registered plugin `id` a repository runs. lang.toml holds one
 * registration per plugin, shared by every repository, and the last `travsr lang install`
 * anywhere sets it; so a repository whose lock names another version runs that version from
 * `<pluginsRoot>/<id>/<locked version>/`, to be checked against the lock's tree hash before
 * launch — never the registered one instead. Without a lock entry, or when the lock names the
 * registered version, lang.toml's registration is used as it is.
 *
 * @throws LangError `LOCKED_VERSION_NOT_INSTALLED` when the locked version is not installed.
 * @example
 * ```ts
 * const copy = pluginCopyFor('example-lua', langToml.plugins['example-lua'], { root, locked: lock['example-lua'], pluginsRoot });
 * const plugin = await loadPluginDir(copy.dir); // launched with expectedTreeHash: copy.treeHash
 * ```
 */
export function pluginCopyFor(id: string, registered: PluginEntry, repo: LockedRepository): PluginCopy {
  const { locked } = repo;
  if (!locked || locked.version === registered.version)
    return { dir: registered.dir, version: registered.version, treeHash: registered.treeHash, chosenBy: 'lang.toml' };
  const dir = installedPluginDir(repo.pluginsRoot, id, locked.version);
  if (!existsSync(join(dir, MANIFEST_FILE)))
    throw new LangError(
      LangErrorCode.LockedVersionNotInstalled,
      `${pluginsLockPath(repo.root)} locks ${id} at ${locked.version}, but lang.toml registers ${registered.version} and ${locked.version} is not installed (no ${dir}); ${id} was not run rather than run at another version; ${lockedInstallAdvice(repo.root)}`,
    );
  return { dir, version: locked.version, treeHash: locked.treeHash, chosenBy: 'lock' };
}
