import { join } from 'node:path';
import type { GraphStore } from '../store/index.js';
import { indexLockHolder } from './index-lock.js';

/** Where the repository's indexing stands, for `travsr status`. */
export interface IndexRunState {
  /**
   * `complete`: the last run finished; `running`: a live process is indexing now;
   * `interrupted`: the last run never finished (killed, cancelled) — its files are pending
   * until the next `travsr index` or `hook-run` completes it; `never`: no run yet.
   */
  state: 'complete' | 'running' | 'interrupted' | 'never';
  /** The last run's mode (full, rebuild, incremental; unknown for one an older travsr left). */
  mode: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** Files stored or planned by an unfinished run: not yet counted as done. */
  pendingFiles: number;
  /** The indexing process, while one runs. */
  pid: number | null;
  /** One line for humans when the state needs one (running or interrupted). */
  note: string | null;
}

/**
 * Reads the index-run record of the graph and the index lock: a run left `running` is in
 * progress only while a live process holds `.travsr/index.lock`; otherwise it was interrupted.
 */
export function indexRunState(repoRoot: string, store: GraphStore): IndexRunState {
  const last = store.lastIndexRun();
  const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
  const base = {
    mode: last?.mode ?? null,
    startedAt: iso(last?.startedAt),
    endedAt: iso(last?.endedAt),
    pendingFiles: last?.pendingFiles ?? 0,
  };
  if (!last) {
    // A graph indexed before runs were recorded: the meta flag is all there is.
    const complete = store.getMeta('index_state') === 'complete';
    return { ...base, state: complete ? 'complete' : 'never', pid: null, note: null };
  }
  if (last.state !== 'running') return { ...base, state: 'complete', pid: null, note: null };
  const pid = indexLockHolder(join(repoRoot, '.travsr'));
  if (pid !== undefined)
    return { ...base, state: 'running', pid, note: `an index run (${last.mode}, pid ${pid}) is in progress since ${base.startedAt}` };
  return {
    ...base,
    state: 'interrupted',
    pid: null,
    note: `the last index run (${last.mode}, started ${base.startedAt}) was interrupted with ${last.pendingFiles} unfinished file${last.pendingFiles === 1 ? '' : 's'}; run \`travsr index\` to complete it`,
  };
}
