import { dirname } from 'node:path';
import { StoreError, StoreErrorCode } from '../store/index.js';
import { isUnusableStoreError, LOST_WITH_DATABASE, setAsideDatabase } from '../store/set-aside.js';
import { acquireIndexLock } from './index-lock.js';
import { openWorkspace, type Workspace } from './workspace.js';

/** A graph database `travsr index --rebuild` could not use and moved aside. */
export interface StoreSetAside {
  /** The code of the problem (STORE_CORRUPT, STORE_TOO_NEW, …) and what SQLite or the check said. */
  code: string;
  reason: string;
  /** Where the file and its -wal/-shm went, the main file first. */
  movedTo: string[];
  /** What the new database does not have. */
  lost: string;
}

/**
 * Opens a repository for `travsr index --rebuild`: a graph database that cannot be opened
 * (corrupt, not SQLite, another tool's, newer, a failed migration) or fails SQLite's
 * `quick_check` is moved aside under the index lock — never deleted — and a new one is made,
 * so the rebuild the error messages advise really rebuilds. Any other error is thrown as is.
 */
export async function openWorkspaceForRebuild(dir: string): Promise<{ ws: Workspace; setAside?: StoreSetAside }> {
  let problem: StoreError & { path: string };
  try {
    const ws = await openWorkspace(dir);
    let found: string[];
    try {
      found = ws.store.quickCheck();
    } catch (e) {
      ws.close();
      throw e;
    }
    if (found.length === 0) return { ws };
    ws.close();
    problem = Object.assign(
      new StoreError(
        StoreErrorCode.Corrupt,
        `SQLite's quick_check found ${found.length} problem(s): ${found.slice(0, 3).join('; ')}`,
        ws.store.path,
      ),
      { path: ws.store.path },
    );
  } catch (e) {
    if (!isUnusableStoreError(e)) throw e;
    problem = e;
  }
  // Under the lock: no other index run is writing the file while it moves.
  const release = await acquireIndexLock(dirname(problem.path));
  let movedTo: string[];
  try {
    movedTo = setAsideDatabase(problem.path, problem.code === StoreErrorCode.Corrupt ? 'corrupt' : 'unusable');
  } finally {
    release();
  }
  // SQLite's own words when there are any, else the first clause of the message (the rest is advice).
  const reason = (problem.cause as Error | undefined)?.message ?? problem.message.split('; ')[0]!;
  return { ws: await openWorkspace(dir), setAside: { code: problem.code, reason, movedTo, lost: LOST_WITH_DATABASE } };
}

/** The lines `travsr index` prints when it moved a database aside. */
export function describeSetAside(s: StoreSetAside): string {
  const [main, ...logs] = s.movedTo;
  return (
    `the graph database could not be used (${s.code}: ${s.reason}): moved it aside to ${main ?? '(nothing to move)'}` +
    `${logs.length ? ` (with its ${logs.map((p) => p.slice(p.lastIndexOf('-'))).join(' and ')} file)` : ''}; indexing the repository from scratch. ` +
    `The graph comes back from the repository; ${s.lost}`
  );
}
