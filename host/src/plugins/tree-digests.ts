import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileDigests } from '@travsr/registry/tree-hash';
import { writePrivateFile } from '../paths/private-file.js';
import { travsrHome } from '../paths/travsr-home.js';

/** The memo's file in the Travsr home. */
const DIGESTS_FILE = 'tree-digests.json';

let memo: { home: string; digests: FileDigests } | undefined;

/**
 * The file digests of plugin directories, kept in `~/.travsr/tree-digests.json` between
 * processes, so that verifying a plugin before its session reads only the files changed since
 * (a file is read again when its device, inode, size, mtime or ctime differ: see
 * {@link FileDigests}). The file is no more trusted than `lang.toml` beside it, which holds
 * the tree hashes themselves. Loaded once per process and Travsr home.
 *
 * @example
 * ```ts
 * await verifyTreeHash(plugin.dir, expected, pluginDigests());
 * savePluginDigests();
 * ```
 */
export function pluginDigests(): FileDigests {
  const home = travsrHome();
  if (memo?.home !== home) {
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(join(home, DIGESTS_FILE), 'utf8'));
    } catch {
      saved = undefined; // none yet, or not readable: every file is read once more
    }
    memo = { home, digests: FileDigests.from(saved) };
  }
  return memo.digests;
}

/** Writes the memo when a digest changed since it was loaded (best effort: a read-only home only costs the next process the reads). */
export function savePluginDigests(): void {
  if (!memo?.digests.changed) return;
  // Not kept when it cannot be written: the next process reads the files again.
  if (writePrivateFile(join(memo.home, DIGESTS_FILE), JSON.stringify(memo.digests))) memo.digests.changed = false;
}
