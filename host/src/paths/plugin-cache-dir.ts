import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { travsrHome } from './travsr-home.js';

/** Where every plugin's cache lives: `<travsr home>/cache/plugins`. */
export function pluginCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(travsrHome(env), 'cache', 'plugins');
}

/** All caches of one plugin, every version and repository (scoped ids `acme/lua` one level deeper). */
export function pluginCacheTree(pluginId: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(pluginCacheRoot(env), ...pluginId.split('/'));
}

/** The caches of one version of a plugin, every repository. */
export function pluginVersionCacheTree(pluginId: string, version: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(pluginCacheTree(pluginId, env), version);
}

/**
 * Names a repository in cache paths: the first 16 hex digits of the SHA-256 of its root's
 * real path, so two spellings of one checkout share a cache and no path leaks into the name.
 *
 * @example
 * ```ts
 * repoCacheKey('/home/ann/src/app'); // 16 hex digits, the same for every call
 * ```
 */
export function repoCacheKey(repoRealPath: string): string {
  return createHash('sha256').update(repoRealPath, 'utf8').digest('hex').slice(0, 16);
}

/**
 * `<travsr home>/cache/plugins/<id>/<version>/<repo key>`: the version is part of the path
 * so an upgraded plugin never reads what an older version wrote.
 */
export function pluginCacheDir(
  plugin: { id: string; version: string },
  repoRealPath: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return join(pluginVersionCacheTree(plugin.id, plugin.version, env), repoCacheKey(repoRealPath));
}

/**
 * Creates (or keeps) the cache directory of a plugin for a repository, mode 0700 like its
 * parents under `cache/`, and returns its real path. Something other than a directory at
 * that path (a symbolic link planted there, a file) is removed first, so the directory bound
 * writable into a sandbox is always the one the host made.
 */
export async function preparePluginCacheDir(
  plugin: { id: string; version: string },
  repoRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const dir = pluginCacheDir(plugin, await realpath(repoRoot), env);
  const st = await lstat(dir).catch(() => undefined);
  if (st && !st.isDirectory()) await rm(dir, { force: true });
  const cacheTop = join(travsrHome(env), 'cache');
  await mkdir(travsrHome(env), { recursive: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to what it creates (and is masked by the umask).
  await chmod(cacheTop, 0o700);
  await chmod(dir, 0o700);
  return realpath(dir);
}
