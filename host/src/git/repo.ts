import { GitErrorCode } from './errors.js';
import { gitFailure, gitText, runGit } from './run-git.js';

/**
 * The top of the git working tree that contains `dir`, or `undefined` when `dir` is not in
 * one (outside any repository, inside a `.git` folder, or in a bare repository).
 *
 * @throws GitError `GIT_PATH_NOT_FOUND` when `dir` does not exist, `GIT_NOT_INSTALLED`,
 *   `GIT_UNSAFE_REPOSITORY` when git refuses a repository owned by another user.
 * @example
 * const root = await findRepoRoot(process.cwd()); // '/home/me/app' or undefined
 */
export async function findRepoRoot(dir: string): Promise<string | undefined> {
  const args = ['rev-parse', '--show-toplevel'];
  const r = await runGit(dir, args);
  if (r.exitCode === 0) {
    const out = r.stdout.toString('utf8');
    return out.endsWith('\n') ? out.slice(0, -1) : out;
  }
  const err = gitFailure(dir, args, r);
  if (err.code === GitErrorCode.NotARepository || /must be run in a work tree/i.test(r.stderr)) return undefined;
  throw err;
}

/**
 * True when `dir` is inside a git working tree; false when it is not or does not exist.
 *
 * @throws GitError `GIT_NOT_INSTALLED`, `GIT_UNSAFE_REPOSITORY`.
 */
export async function isGitRepo(dir: string): Promise<boolean> {
  try {
    return (await findRepoRoot(dir)) !== undefined;
  } catch (e) {
    if ((e as { code?: unknown }).code === GitErrorCode.PathNotFound) return false;
    throw e;
  }
}

/**
 * The full hash of the commit HEAD points at, or `undefined` before the first commit.
 *
 * @throws GitError `GIT_NOT_A_REPOSITORY` when `root` is not in a repository.
 */
export async function headCommit(root: string): Promise<string | undefined> {
  return resolveCommit(root, 'HEAD');
}

/**
 * The absolute git directory of the working tree at `root`. For a linked worktree
 * (`git worktree add`) this is its own `.git/worktrees/<name>`, which holds its HEAD and
 * index; see {@link gitCommonDir} for the directory shared by all worktrees (objects, refs,
 * hooks).
 */
export async function gitDir(root: string): Promise<string> {
  return gitText(root, ['rev-parse', '--absolute-git-dir']);
}

/** The absolute git directory shared by all worktrees of the repository at `root`. */
export async function gitCommonDir(root: string): Promise<string> {
  return gitText(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
}

/**
 * The absolute path git uses for `<git dir>/<relative>`, with git's own redirections
 * applied: `hooks/…` follows `core.hooksPath`, and shared paths of a linked worktree go to
 * the common directory.
 */
export async function gitPath(root: string, relative: string): Promise<string> {
  return gitText(root, ['rev-parse', '--path-format=absolute', '--git-path', relative]);
}

/**
 * The full hash of the commit `rev` names, or `undefined` when it names none (unknown name,
 * unborn HEAD, a parent the commit does not have).
 */
export async function resolveCommit(root: string, rev: string): Promise<string | undefined> {
  const args = ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`];
  const r = await runGit(root, args);
  if (r.exitCode === 0) return r.stdout.toString('utf8').trim();
  if (r.exitCode === 1 && r.stderr === '') return undefined;
  throw gitFailure(root, args, r);
}
