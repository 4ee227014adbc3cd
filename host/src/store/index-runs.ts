import type { StoreContext } from './store-context.js';

/** What an index run was asked to do. `unknown`: a run an older travsr left unfinished. */
export type IndexRunMode = 'full' | 'rebuild' | 'incremental' | 'unknown';

/** One recorded index run. */
export interface IndexRunRecord {
  id: number;
  mode: IndexRunMode;
  /**
   * `running`: started and not completed — in progress, or killed (only the index lock tells
   * which); `complete`: its last step is stored; `interrupted`: a later run found it unfinished
   * and took over its pending files.
   */
  state: 'running' | 'complete' | 'interrupted';
  /** ms since the epoch. */
  startedAt: number;
  endedAt: number | null;
}

/** The newest run and how many files still wait for a run to complete. */
export interface IndexRunStatus extends IndexRunRecord {
  /** Files stored by an unfinished run (or to be redone by it): not yet counted as done. */
  pendingFiles: number;
}

/** What {@link IndexRunLedger.begin} found and started. */
export interface IndexRunStart {
  /** The new run's id. */
  id: number;
  /** Earlier runs that never completed (killed, cancelled), oldest first. */
  interrupted: IndexRunRecord[];
  /** Files those runs left pending: the new run must analyze them again. */
  pendingFiles: string[];
}

/** Completed runs kept for `travsr status` and debugging; older ones are dropped. */
const RUNS_KEPT = 20;
// The meta key of the files whose later phase the last run put off: the next run analyzes them again.
const DEFERRED_KEY = 'deferred_files';

interface RawRun {
  id: number;
  mode: IndexRunMode;
  state: IndexRunRecord['state'];
  started_at: number;
  ended_at: number | null;
}

const toRecord = (r: RawRun): IndexRunRecord => ({ id: r.id, mode: r.mode, state: r.state, startedAt: r.started_at, endedAt: r.ended_at });

/**
 * The record of index runs that makes indexing crash-consistent: a run is written when it
 * starts; the files it is going to analyze are marked pending before it changes any of them;
 * a file it stores stays pending until its last phase is stored (`done`); one last
 * transaction, after name matching, clears what is left and completes the run. A kill
 * anywhere in between leaves the run `running` — so the next run redoes every name match —
 * and the unfinished files pending — so the next run analyzes them again, while files whose
 * analysis was complete keep it. Each method expects to run inside one transaction (the
 * {@link GraphStore} opens it).
 */
export class IndexRunLedger {
  constructor(private readonly ctx: StoreContext) {}

  /** Starts a run: earlier unfinished runs become `interrupted` and their pending files are returned. */
  begin(mode: IndexRunMode): IndexRunStart {
    const interrupted = (this.ctx.stmt("SELECT * FROM index_runs WHERE state = 'running' ORDER BY id").all() as RawRun[]).map(toRecord);
    this.ctx.stmt("UPDATE index_runs SET state = 'interrupted' WHERE state = 'running'").run();
    const pendingFiles = this.pendingFiles();
    const id = Number(
      this.ctx.stmt("INSERT INTO index_runs (mode, state, started_at) VALUES (?, 'running', ?)").run(mode, this.ctx.now()).lastInsertRowid,
    );
    // Kept for readers that only know the meta flag (retrieval's completeness note).
    this.setMeta('index_state', 'running');
    return { id, interrupted, pendingFiles };
  }

  /** Marks `paths` (those with a files row) pending for run `id`: not done until it completes. */
  markPending(id: number, paths: readonly string[]): void {
    this.ctx.stmt('UPDATE files SET pending_run = ? WHERE path IN (SELECT value FROM json_each(?))').run(id, JSON.stringify(paths));
  }

  /** Paths of the files some unfinished run stored or was going to analyze, sorted. */
  pendingFiles(): string[] {
    return (this.ctx.stmt('SELECT path FROM files WHERE pending_run IS NOT NULL ORDER BY path').all() as { path: string }[]).map(
      (r) => r.path,
    );
  }

  /** Files whose later phase the last complete run put off (`deferred` of {@link complete}), sorted. */
  deferredFiles(): string[] {
    const row = this.ctx.stmt('SELECT value FROM meta WHERE key = ?').get(DEFERRED_KEY) as { value: string } | undefined;
    if (!row) return [];
    try {
      const paths = JSON.parse(row.value) as unknown;
      return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : [];
    } catch {
      return [];
    }
  }

  /**
   * The run's last step: every pending file now counts as done, the run is complete and the
   * meta keys status reads (`index_state`, `last_indexed_at`, `last_indexed_commit`) say so;
   * the files whose later phase it put off (`deferred`) are kept for the next run.
   */
  complete(id: number, opts: { commit?: string; deferred?: readonly string[] } = {}): void {
    const now = this.ctx.now();
    if (opts.deferred && opts.deferred.length > 0) this.setMeta(DEFERRED_KEY, JSON.stringify([...new Set(opts.deferred)].sort()));
    else this.ctx.stmt('DELETE FROM meta WHERE key = ?').run(DEFERRED_KEY);
    this.ctx.stmt('UPDATE files SET pending_run = NULL WHERE pending_run IS NOT NULL').run();
    this.ctx.stmt("UPDATE index_runs SET state = 'complete', ended_at = ? WHERE id = ?").run(now, id);
    this.ctx.stmt("DELETE FROM index_runs WHERE id <= ? AND state <> 'running'").run(id - RUNS_KEPT);
    if (opts.commit) this.setMeta('last_indexed_commit', opts.commit);
    this.setMeta('last_indexed_at', new Date(now).toISOString());
    this.setMeta('index_state', 'complete');
  }

  /** The newest run, with the number of pending files; undefined before the first run. */
  last(): IndexRunStatus | undefined {
    const r = this.ctx.stmt('SELECT * FROM index_runs ORDER BY id DESC LIMIT 1').get() as RawRun | undefined;
    if (!r) return undefined;
    const pending = (this.ctx.stmt('SELECT count(*) AS n FROM files WHERE pending_run IS NOT NULL').get() as { n: number }).n;
    return { ...toRecord(r), pendingFiles: pending };
  }

  private setMeta(key: string, value: string): void {
    this.ctx.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}
