import { GitError, GitErrorCode } from './errors.js';
import { parseRawDiff, type CommitDiff } from './raw-diff.js';
import { resolveCommit } from './repo.js';
import { gitFailure, gitText, runGit } from './run-git.js';

export type { CommitDiff, RenamedFile, SubmoduleChange } from './raw-diff.js';

/** Which two commits {@link readCommitDiff} compares. */
export interface CommitDiffRange {
  /** Commit to diff from. Default: the first parent of `to`, or the empty tree when `to` has none. */
  from?: string;
  /** Commit to diff to. Default `HEAD`. */
  to?: string;
}

/**
 * Options fixed on every diff, so user configuration (`diff.renames`, `diff.relative`,
 * `diff.renameLimit`, external diff drivers, colour) cannot change what the indexer sees.
 * Plumbing `diff-tree` ignores most of it already; the flags make it explicit.
 */
const DIFF_TREE_ARGS = [
  'diff-tree',
  '-r',
  '-z',
  '--raw',
  '--no-commit-id',
  '--find-renames=50%',
  '-l1000',
  '--no-relative',
  '--ignore-submodules=none',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
];

/**
 * What commit `to` changed relative to `from`, as repository-relative `/` paths, with
 * renames detected (50% similarity). By default `from` is the first parent of `to`, so a
 * merge commit gives what the merge brought onto the branch, and the first commit (or the
 * boundary of a shallow clone) is diffed against the empty tree: everything is added.
 *
 * This is a tree-to-tree diff: `from` need not be an ancestor of `to`.
 *
 * @throws GitError `GIT_NO_COMMITS` when `to` is HEAD and there is no commit yet;
 *   `GIT_BAD_REVISION` when `from` or `to` names no commit; `GIT_NOT_A_REPOSITORY`.
 * @example
 * const d = await readCommitDiff(root); // HEAD~1..HEAD
 * for (const r of d.renamed) console.log(`${r.from} -> ${r.to} (${r.similarity}%)`);
 */
export async function readCommitDiff(root: string, range: CommitDiffRange = {}): Promise<CommitDiff> {
  const toRev = range.to ?? 'HEAD';
  const to = await resolveCommit(root, toRev);
  if (to === undefined) {
    if (toRev === 'HEAD') {
      throw new GitError(
        GitErrorCode.NoCommits,
        `The repository at ${root} has no commit yet, so there is no commit to diff. Make a first commit, or run a full index.`,
      );
    }
    throw badRevision(root, toRev, 'Check the name with git log.');
  }

  let from: string | null;
  if (range.from !== undefined) {
    const resolved = await resolveCommit(root, range.from);
    if (resolved === undefined) {
      throw badRevision(
        root,
        range.from,
        'It may have been removed by a rebase or amend and gc. Run a full index to start again from HEAD.',
      );
    }
    from = resolved;
  } else {
    from = (await resolveCommit(root, `${to}^1`)) ?? null;
  }

  return diffCommits(root, from, to);
}

/**
 * {@link readCommitDiff} of two commits the caller has resolved already (full hashes, as
 * {@link resolveCommit} gives them): one git command instead of three. `from` null: `to`
 * against the empty tree.
 *
 * @throws GitError `GIT_BAD_REVISION` (through git) when either names no commit.
 */
export async function diffCommits(root: string, from: string | null, to: string): Promise<CommitDiff> {
  const fromTree = from ?? (await emptyTree(root));
  const args = [...DIFF_TREE_ARGS, fromTree, to];
  const r = await runGit(root, args);
  if (r.exitCode !== 0) throw gitFailure(root, args, r);
  return parseRawDiff(r.stdout, from, to);
}

/** A full commit hash as git prints it (SHA-1 or SHA-256). */
export const COMMIT_HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** HEAD, its parents and what HEAD changed: what {@link readHeadChange} gives. */
export interface HeadChange {
  head: string;
  parents: string[];
  /** HEAD against its only parent (the empty tree for a first commit); undefined for a merge commit. */
  diff: CommitDiff | undefined;
}

/**
 * HEAD, its parents and, unless it is a merge, the change it made (as {@link readCommitDiff}
 * reads it), from one git process: what the post-commit hook needs when the graph is at HEAD's
 * parent, which is after nearly every commit. Undefined when there is no commit yet.
 *
 * @throws GitError when git fails otherwise (not a repository, unreadable output).
 * @example
 * const c = await readHeadChange(root);
 * if (c?.diff && c.parents[0] === lastIndexed) index(c.diff);
 */
export async function readHeadChange(root: string): Promise<HeadChange | undefined> {
  const args = [...DIFF_TREE_ARGS.filter((a) => a !== '--no-commit-id'), '--root', '--always', '--pretty=format:%H %P', 'HEAD'];
  const r = await runGit(root, args);
  if (r.exitCode !== 0) {
    if ((await resolveCommit(root, 'HEAD')) === undefined) return undefined;
    throw gitFailure(root, args, r);
  }
  // `<hash> <parent hashes>` ends at the first newline (a NUL on some git versions), then the raw diff.
  const end = r.stdout.findIndex((byte) => byte === 10 || byte === 0);
  const header = end === -1 ? r.stdout : r.stdout.subarray(0, end);
  const [head = '', ...parents] = header.toString('utf8').trim().split(' ').filter(Boolean);
  if (!COMMIT_HASH.test(head))
    throw new GitError(
      GitErrorCode.OutputUnparsable,
      `git diff-tree printed no commit hash for HEAD (${JSON.stringify(head.slice(0, 80))}). Update git to 2.31 or newer; if it persists, report it with your git version.`,
      args,
    );
  const diff = parents.length > 1 ? undefined : parseRawDiff(r.stdout.subarray(header.length + 1), parents[0] ?? null, head);
  return { head, parents, diff };
}

/**
 * What changed from `fromCommit` (the last commit indexed) to HEAD, in one diff: how to
 * catch up when hook runs were missed, or after an amend, rebase, reset, checkout or pull,
 * which the post-commit hook does not see or where HEAD~1 is not what was indexed. It is a
 * tree diff, so it is right even when `fromCommit` is no longer an ancestor of HEAD.
 *
 * @throws GitError `GIT_BAD_REVISION` when `fromCommit` no longer exists (then do a full
 *   index), `GIT_NO_COMMITS`.
 */
export async function changedSince(root: string, fromCommit: string): Promise<CommitDiff> {
  return readCommitDiff(root, { from: fromCommit, to: 'HEAD' });
}

/** The empty tree's hash in this repository's object format (SHA-1 or SHA-256). */
async function emptyTree(root: string): Promise<string> {
  return gitText(root, ['hash-object', '-t', 'tree', '--stdin'], { input: '' });
}

function badRevision(root: string, rev: string, hint: string): GitError {
  return new GitError(GitErrorCode.BadRevision, `"${rev}" does not name a commit in the repository at ${root}. ${hint}`);
}
