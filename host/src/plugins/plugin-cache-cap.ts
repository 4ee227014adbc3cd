import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Default of `plugins.cacheMax`. */
export const DEFAULT_PLUGIN_CACHE_MAX_MIB = 512;

/** More entries than this count as over the cap: a plugin cannot make the host walk forever. */
const MAX_ENTRIES = 200_000;

/** What a bounded walk of a cache directory found. */
export interface CacheMeasure {
  /** Bytes of the regular files seen (a lower bound when `over`). */
  bytes: number;
  entries: number;
  /** The walk stopped early: more than the cap in bytes, or more than it may count. */
  over: boolean;
}

/**
 * Adds up the sizes of the files under `dir` without following symbolic links, and stops
 * as soon as the total passes `capBytes` or the walk passes {@link MAX_ENTRIES} entries.
 * Synchronous on purpose: it runs once per session on the way out, and the synchronous calls
 * take about half the time of the promise-based ones (some 15 ms for 1,600 files here).
 */
export function measureCacheDir(dir: string, capBytes: number, maxEntries = MAX_ENTRIES): CacheMeasure {
  const m: CacheMeasure = { bytes: 0, entries: 0, over: false };
  const stack = [dir];
  while (stack.length > 0 && !m.over) {
    const current = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue; // gone, or not a directory any more
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      m.entries++;
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) m.bytes += lstatSync(path, { throwIfNoEntry: false })?.size ?? 0;
      if (m.bytes > capBytes || m.entries > maxEntries) {
        m.over = true;
        break;
      }
    }
  }
  return m;
}

/** Deletes everything inside `dir`, keeping the directory itself (and its mode). */
export async function emptyCacheDir(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.map((name) => rm(join(dir, name), { recursive: true, force: true })));
}

/**
 * Empties a plugin's cache directory that has grown past `maxMiB` and says so; returns what
 * was measured. Run after a session, when the plugin no longer writes there.
 */
export async function enforceCacheCap(dir: string, maxMiB: number): Promise<CacheMeasure & { emptied: boolean }> {
  const m = measureCacheDir(dir, maxMiB * 1024 * 1024);
  if (!m.over) return { ...m, emptied: false };
  await emptyCacheDir(dir);
  return { ...m, emptied: true };
}
