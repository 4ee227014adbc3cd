import { diffCommits, headCommit, readCommitDiff, type CommitDiff } from '../git/index.js';
import type { IndexSummary } from '../indexer/index-summary.js';
import { indexWorkspace } from './index-workspace.js';
import { openWorkspace, type Workspace } from './workspace.js';

/** What {@link reindexCommits} did. */
export type CommitReindex =
  { kind: 'no-commits' } | { kind: 'up-to-date'; head: string } | { kind: 'indexed'; head: string; summary: IndexSummary };

/** A full commit hash as git prints it (SHA-1 or SHA-256): what the store's record must look like before git is given it. */
const COMMIT_HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * What the post-commit hook runs (`travsr hook-run`): reindexes the change from the last
 * indexed commit to HEAD — which catches up after missed hooks, amends and rebases — or, when
 * that commit is gone (or none was recorded), the change HEAD itself made. Files whose content
 * hash is unchanged are skipped; the rest and the files whose edges point into them are
 * analyzed again. A run killed after HEAD was indexed is completed.
 *
 * HEAD is asked of git while the workspace opens, and the diff is asked for without checking
 * the recorded commit first (a diff from a commit that is gone fails, and the commit's own
 * change is read instead): the hook runs after every commit, so each git run saved counts.
 *
 * @example
 * ```ts
 * const r = await reindexCommits('.');
 * if (r.kind === 'indexed') console.log(formatSummary(r.summary));
 * ```
 */
export async function reindexCommits(path: string): Promise<CommitReindex> {
  const [opened, asked] = await Promise.allSettled([openWorkspace(path), headCommit(path)]);
  if (opened.status === 'rejected') throw opened.reason;
  const ws = opened.value;
  try {
    if (asked.status === 'rejected') throw asked.reason;
    const head = asked.value;
    if (!head) return { kind: 'no-commits' };
    const change = await commitChangeList(ws, head);
    if (!change) return { kind: 'up-to-date', head };
    const summary = await indexWorkspace(ws, { kind: 'incremental', ...change }, { progress: false, commit: head });
    return { kind: 'indexed', head, summary };
  } finally {
    ws.close();
  }
}

/**
 * The files to index again to bring the graph from the last indexed commit to `head`: changed
 * (added, modified, renamed to, type changed) and deleted (or renamed from); undefined when the
 * graph is at `head` already and no run was left unfinished.
 */
export async function commitChangeList(ws: Workspace, head: string): Promise<{ changed: string[]; deleted: string[] } | undefined> {
  const last = ws.store.getMeta('last_indexed_commit');
  if (last === head && ws.store.lastIndexRun()?.state !== 'running') return undefined;
  const diff = await commitChange(ws, last, head);
  return {
    changed: [...diff.added, ...diff.modified, ...diff.renamed.map((r) => r.to), ...(diff.typeChanged ?? [])],
    deleted: [...diff.deleted, ...diff.renamed.map((r) => r.from)],
  };
}

/** The change from the last indexed commit to `head`; the change `head` made when there is none (or it is gone). */
async function commitChange(ws: Workspace, last: string | undefined, head: string): Promise<CommitDiff> {
  if (last !== undefined && COMMIT_HASH.test(last)) {
    try {
      return await diffCommits(ws.root, last, head);
    } catch {
      // The recorded commit no longer exists (rebased away, collected): the commit's own change.
    }
  }
  return readCommitDiff(ws.root, { to: head });
}
