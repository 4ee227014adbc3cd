import { COMMIT_HASH, diffCommits, readCommitDiff, readHeadChange, type CommitDiff, type HeadChange } from '../git/index.js';
import { registeredPlugins } from '../catalog/registered-plugins.js';
import type { IndexSummary } from '../indexer/index-summary.js';
import { indexWorkspace } from './index-workspace.js';
import { openWorkspace, type Workspace } from './workspace.js';

/** What {@link reindexCommits} did. */
export type CommitReindex =
  { kind: 'no-commits' } | { kind: 'up-to-date'; head: string } | { kind: 'indexed'; head: string; summary: IndexSummary };

/**
 * What the post-commit hook runs (`travsr hook-run`): reindexes the change from the last
 * indexed commit to HEAD — which catches up after missed hooks, amends and rebases — or, when
 * that commit is gone (or none was recorded), the change HEAD itself made. Files whose content
 * hash is unchanged are skipped; the rest and the files whose edges point into them are
 * analyzed again. A run killed after HEAD was indexed is completed.
 *
 * The hook runs after every commit, so the steps before the plugins start overlap: git is
 * asked for HEAD and the change it made (one process, {@link readHeadChange}) before the
 * workspace opens, the plugin catalog is read while git runs, and when the graph is at HEAD's
 * parent — after nearly every commit — that change is the one indexed, without a second git
 * run. Otherwise the diff from the recorded commit is asked for (a diff from a commit that is
 * gone fails, and the commit's own change is read instead).
 *
 * @example
 * ```ts
 * const r = await reindexCommits('.');
 * if (r.kind === 'indexed') console.log(formatSummary(r.summary));
 * ```
 */
export async function reindexCommits(path: string): Promise<CommitReindex> {
  const asked = readHeadChange(path);
  asked.catch(() => undefined);
  const ws = await openWorkspace(path);
  try {
    const catalog = registeredPlugins(ws.config.values['plugins.dirs'].value, { repoRoot: ws.root });
    catalog.catch(() => undefined);
    const headChange = await asked;
    if (!headChange) return { kind: 'no-commits' };
    const { head } = headChange;
    const change = await commitChangeList(ws, head, headChange);
    if (!change) return { kind: 'up-to-date', head };
    const summary = await indexWorkspace(ws, { kind: 'incremental', ...change }, { progress: false, commit: head, catalog });
    return { kind: 'indexed', head, summary };
  } finally {
    ws.close();
  }
}

/**
 * The files to index again to bring the graph from the last indexed commit to `head`: changed
 * (added, modified, renamed to, type changed) and deleted (or renamed from); undefined when the
 * graph is at `head` already and no run was left unfinished. `known`: HEAD's own change, when
 * the caller has it (used when the graph is at HEAD's only parent, or has no commit recorded).
 */
export async function commitChangeList(
  ws: Workspace,
  head: string,
  known?: HeadChange,
): Promise<{ changed: string[]; deleted: string[] } | undefined> {
  const last = ws.store.getMeta('last_indexed_commit');
  if (last === head && ws.store.lastIndexRun()?.state !== 'running') return undefined;
  const own = known?.head === head ? known.diff : undefined;
  const recorded = last !== undefined && COMMIT_HASH.test(last);
  const diff = own && (!recorded || last === known?.parents[0]) ? own : await commitChange(ws, last, head);
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
