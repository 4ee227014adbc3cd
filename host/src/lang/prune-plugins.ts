import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '@travsr/protocol';
import { readLangToml } from '../plugins/lang-toml.js';
import { installedPluginsRoot } from './locked-version.js';
import type { PluginsLock } from './plugins-lock.js';

/** One installed version `travsr lang prune` removes (or would remove). */
export interface PrunedVersion {
  id: string;
  version: string;
  dir: string;
  bytes: number;
}

function sizeOf(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
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
      if (!statSync(path).isDirectory() || name.includes('.partial-')) continue;
      if (idParts.length > 0 && existsSync(join(path, MANIFEST_FILE))) out.push({ id: idParts.join('/'), version: name, dir: path });
      else if (idParts.length < 2) walk(path, [...idParts, name]);
    }
  };
  if (existsSync(root)) walk(root, []);
  return out;
}

/**
 * Installed plugin versions that nothing here uses: not the version lang.toml registers, and
 * not the one this repository's lock names. Other repositories' locks cannot be seen from
 * here: a version one of them locks is installed again by `travsr lang install` there.
 * Deletes them unless `dryRun`.
 *
 * @example
 * ```ts
 * const pruned = prunePlugins(readPluginsLock(lockPath), { dryRun: true });
 * ```
 */
export function prunePlugins(lock: PluginsLock, options: { dryRun?: boolean } = {}): PrunedVersion[] {
  const reg = readLangToml();
  const keep = new Set<string>();
  for (const [id, p] of Object.entries(reg.plugins)) keep.add(`${id}@${p.version}`);
  for (const [id, l] of Object.entries(lock)) keep.add(`${id}@${l.version}`);
  const registeredDirs = new Set(Object.values(reg.plugins).map((p) => p.dir));
  const pruned: PrunedVersion[] = [];
  for (const v of installedVersions(installedPluginsRoot())) {
    if (keep.has(`${v.id}@${v.version}`) || registeredDirs.has(v.dir)) continue;
    const bytes = sizeOf(v.dir);
    if (!options.dryRun) rmSync(v.dir, { recursive: true, force: true });
    pruned.push({ ...v, bytes });
  }
  return pruned;
}
