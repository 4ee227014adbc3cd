import { lstatSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The root of an initialized git repository holding `dir`, found on the file system alone: the
 * nearest directory, `dir` or above, with a `.git` entry (a directory, or the file of a linked
 * worktree or submodule), when that directory also holds `.travsr/` and its `.git` belongs to
 * this user. That is where `travsr init` put the index (it asked git for the top level), so every
 * command but `init` learns the root without starting git (some 20–50 ms of each `status` and
 * `hook-run`).
 *
 * Undefined — ask git — whenever git could answer otherwise: no `.git` found, the nearest one's
 * directory not initialized (a submodule inside an indexed repository, say), a `.git` owned by
 * another user (git refuses such a repository and says why), `GIT_CEILING_DIRECTORIES` set, or
 * Windows (no owner to compare).
 *
 * @example
 * ```ts
 * const root = initializedGitRoot('/home/me/app/src') ?? (await findRepoRoot('/home/me/app/src'));
 * ```
 */
export function initializedGitRoot(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === 'win32' || env['GIT_CEILING_DIRECTORIES'] || typeof process.getuid !== 'function') return undefined;
  for (let at = dir; ; at = dirname(at)) {
    const git = lstatSync(join(at, '.git'), { throwIfNoEntry: false });
    if (git) {
      if (!(git.isDirectory() || git.isFile()) || git.uid !== process.getuid()) return undefined;
      // As git prints the top level: symbolic links resolved.
      return lstatSync(join(at, '.travsr'), { throwIfNoEntry: false })?.isDirectory() ? realpathSync(at) : undefined;
    }
    if (dirname(at) === at) return undefined;
  }
}
