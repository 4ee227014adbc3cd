import { gitText } from './run-git.js';

/**
 * The files of the working tree that differ from HEAD — modified, added, deleted, untracked
 * (not ignored) — as repository-relative paths, sorted: what the graph shows beyond the last
 * commit when the daemon follows the working tree. Throws a `GitError` when git fails.
 */
export async function dirtyFiles(root: string): Promise<string[]> {
  const out = await gitText(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
  const paths = new Set<string>();
  for (const record of out.split('\0')) {
    // "XY path": two status letters, a space, the path (no renames: one path per record).
    if (record.length > 3) paths.add(record.slice(3));
  }
  return [...paths].sort();
}
