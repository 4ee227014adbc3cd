import { existsSync, lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '@travsr/protocol';
import { readLangToml } from './lang-toml.js';
import { pluginCacheRoot, pluginVersionCacheTree } from '../paths/plugin-cache-dir.js';
import { removeInstallRecords } from './install-records.js';
import { versionsLockedElsewhere } from './known-locks.js';
import { installedPluginsRoot } from './locked-version.js';
import type { PluginsLock } from './plugins-lock.js';

/** One installed version `travsr lang prune` removes (or would remove). */
export interface PrunedVersion {
  id: string;
  version: string;
  dir: string;
  /** Of the installed files and the version's caches. */
  bytes: number;
  /** The version's cache directory (`constraints.cache`), deleted with it, when there was one. */
  cache?: string;
}

// lstat: a symbolic link a plugin left in its cache must not lead the walk elsewhere (or in circles).
function sizeOf(path: string): number {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0);
}

/** `<root>/<id>/<version>` directories (scoped ids `acme/lua` one level deeper), found by their manifest. */
function installedVersions(root: string): { id: string; version: string; dir: string }[] {
  const out: { id: string; version: string; dir: string }[] = [];
  const walk = (dir: string, idParts: string[]): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      // `.records`, `.downloads`: no plugin id starts with a dot.
      if (name.startsWith('.') || !statSync(path).isDirectory() || name.includes('.partial-')) continue;
      if (idParts.length > 0 && existsSync(join(path, MANIFEST_FILE))) out.push({ id: idParts.join('/'), version: name, dir: path });
      else if (idParts.length < 2) walk(path, [...idParts, name]);
    }
  };
  if (existsSync(root)) walk(root, []);
  return out;
}

const VERSION_NAME = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/;

/** `<cache root>/<id>/<version>` directories (scoped ids one level deeper), told apart by their version-shaped name. */
function cachedVersions(root: string): { id: string; version: string; dir: string }[] {
  const out: { id: string; version: string; dir: string }[] = [];
  const walk = (dir: string, idParts: string[]): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (!lstatSync(path).isDirectory()) continue;
      if (idParts.length > 0 && VERSION_NAME.test(name)) out.push({ id: idParts.join('/'), version: name, dir: path });
      else if (idParts.length < 2) walk(path, [...idParts, name]);
    }
  };
  if (existsSync(root)) walk(root, []);
  return out;
}

/** What `travsr lang prune` removes (or would), and the versions it spares for other repositories. */
export interface PruneOutcome {
  pruned: PrunedVersion[];
  /**
   * Caches (`constraints.cache`) of versions that are not installed under ~/.travsr/plugins and
   * that nothing uses: a first-party plugin's older version after an upgrade, a plugin removed
   * before its caches were.
   */
  caches: { id: string; version: string; dir: string; bytes: number }[];
  /** Versions nothing here uses that the lock of another repository on this machine names. */
  kept: { id: string; version: string; dir: string; locks: string[] }[];
  /** Known lock files that could not be read: what they lock is unknown, nothing was spared for them. */
  unreadableLocks: string[];
}

/**
 * Installed plugin versions that nothing uses: not the version lang.toml registers, not the
 * one this repository's lock names, and not one named by the lock of another repository
 * Travsr has installed into or indexed on this machine ({@link versionsLockedElsewhere}).
 * Deletes them, their caches and the caches of other versions nothing uses, unless `dryRun`.
 *
 * @example
 * ```ts
 * const { pruned } = prunePlugins(readPluginsLock(lockPath), { dryRun: true });
 * ```
 */
export function prunePlugins(lock: PluginsLock, options: { dryRun?: boolean } = {}): PruneOutcome {
  const reg = readLangToml();
  const keep = new Set<string>();
  for (const [id, p] of Object.entries(reg.plugins)) keep.add(`${id}@${p.version}`);
  for (const [id, l] of Object.entries(lock)) keep.add(`${id}@${l.version}`);
  const registeredDirs = new Set(Object.values(reg.plugins).map((p) => p.dir));
  const elsewhere = versionsLockedElsewhere();
  const outcome: PruneOutcome = { pruned: [], caches: [], kept: [], unreadableLocks: elsewhere.unreadable };
  const installed = installedVersions(installedPluginsRoot());
  for (const v of installed) {
    if (keep.has(`${v.id}@${v.version}`) || registeredDirs.has(v.dir)) continue;
    const locks = elsewhere.locked.get(`${v.id}@${v.version}`);
    if (locks) {
      outcome.kept.push({ ...v, locks });
      continue;
    }
    const cache = pluginVersionCacheTree(v.id, v.version);
    const hasCache = existsSync(cache);
    const bytes = sizeOf(v.dir) + (hasCache ? sizeOf(cache) : 0);
    if (!options.dryRun) {
      rmSync(v.dir, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
      removeInstallRecords(installedPluginsRoot(), v.id, v.version);
    }
    outcome.pruned.push({ ...v, bytes, ...(hasCache ? { cache } : {}) });
  }
  // The caches of installed versions went (or stay) with them above.
  const installedKeys = new Set(installed.map((v) => `${v.id}@${v.version}`));
  for (const c of cachedVersions(pluginCacheRoot())) {
    const key = `${c.id}@${c.version}`;
    if (installedKeys.has(key) || keep.has(key) || elsewhere.locked.has(key)) continue;
    const bytes = sizeOf(c.dir);
    if (!options.dryRun) rmSync(c.dir, { recursive: true, force: true });
    outcome.caches.push({ ...c, bytes });
  }
  return outcome;
}
