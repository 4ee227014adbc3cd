import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '@travsr/protocol';
import { headCommit } from '../git/index.js';
import type { IndexMode } from '../indexer/indexer.js';
import type { SpareSessions } from '../indexer/spare-sessions.js';
import type { IndexSummary } from '../indexer/index-summary.js';
import { commitChangeList } from '../workspace/commit-reindex.js';
import { indexWorkspace } from '../workspace/index-workspace.js';
import type { Workspace } from '../workspace/workspace.js';

/** What one update did, for the graph-change stream and `daemon status`. */
export interface UpdateEvent {
  /**
   * `phase-a`: the first phase of every file is stored; `phase-b`: the changed files' Phase B is
   * stored (their dependents' may follow); `done`: the update is complete; `failed`.
   */
  stage: 'phase-a' | 'phase-b' | 'done' | 'failed';
  /** `watch` (edits), `commit` (the hook), `full` (start-up catch-up, or events the OS lost). */
  cause: 'watch' | 'commit' | 'full';
  files: readonly string[];
  graphVersion: number;
  ms: number;
  summary?: IndexSummary;
  error?: string;
}

/** Options of a {@link RepoUpdater}. */
export interface RepoUpdaterOptions {
  /** Quiet time after the last change before an update starts (ms). */
  debounceMs: number;
  /** Longest a change waits while changes keep coming (ms): a long burst is still updated. */
  maxDelayMs: number;
  onUpdate(e: UpdateEvent): void;
  /** Plugin sessions kept ready for the next update. */
  spares?: SpareSessions;
  /**
   * The commit HEAD is at (undefined before the first commit), when the caller can tell without
   * running git (`HeadWatcher.commit`); null or absent: `git rev-parse` is asked.
   */
  head?: () => string | undefined | null;
}

/** What the updater is doing. */
export type UpdaterState = 'idle' | 'waiting' | 'running' | 'failed';

/** The most files a run may have for newer changes to put its Phase B off (see `drain`). */
const DEFERRABLE_RUN_FILES = 64;

/** How long an update waits for `.travsr/index.lock` (a `travsr index` the user runs) before it is retried. */
const LOCK_WAIT_MS = 60_000;

/**
 * Keeps one repository's graph in step with its working tree, for the daemon: the paths the
 * watcher reports are gathered until edits pause (`debounceMs`, at most `maxDelayMs`), then one
 * incremental index run takes them all — files that exist are analyzed again when their content
 * changed, paths that are gone are removed with every stored file under them. Changes that
 * arrive during a run wait for the next one, so a branch switch of thousands of files is one or
 * two runs (a third when the checkout's writes trickle in on a busy machine), never thousands; and they cancel the Phase B of an edit's run (up to 64 files) that
 * has not started yet or is under way: its files keep their Phase A graph and go with the new
 * changes into the next run, which does Phase A of them all at once, then Phase B. A commit
 * adds the change from the last indexed commit to HEAD; a full run (hash every file) catches up
 * at start and after the OS lost events.
 *
 * Runs are serialized and each takes the repository's index lock, so a `travsr index` of the
 * user's waits for the daemon's run and the other way round. A failed run keeps its paths for
 * the next one.
 */
export class RepoUpdater {
  private pending = new Set<string>();
  private commitDue = false;
  private fullDue = false;
  /** The last run put off some files' Phase B: the next run analyzes them (the store lists them). */
  private deferredDue = false;
  /** Aborted when changes arrive while a run goes on: its Phase B is put off for them. */
  private deferLater: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstPendingAt = 0;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly waiters: (() => void)[] = [];
  state: UpdaterState = 'idle';
  lastError: string | undefined;
  last: { files: number; ms: number; at: number } | undefined;
  updates = 0;

  constructor(
    private readonly ws: Workspace,
    private readonly opts: RepoUpdaterOptions,
  ) {}

  /** Paths waiting for the next update. */
  get queued(): number {
    return this.pending.size;
  }

  /** Paths (repository-relative) that changed on disk. */
  changed(paths: readonly string[]): void {
    if (this.closed) return;
    const before = this.pending.size;
    for (const p of paths) if (!isPrivatePath(p)) this.pending.add(p);
    if (this.pending.size > before) this.deferLater?.abort();
    this.schedule(this.opts.debounceMs);
  }

  /** HEAD moved: the change since the last indexed commit joins the next update, which starts now. */
  commit(): void {
    if (this.closed) return;
    this.commitDue = true;
    this.deferLater?.abort();
    this.schedule(0);
  }

  /** The next update hashes every file (start-up, or the OS lost events). */
  full(): void {
    if (this.closed) return;
    this.fullDue = true;
    this.deferLater?.abort();
    this.schedule(0);
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops taking changes and waits for the run under way. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    for (const w of this.waiters.splice(0)) w();
  }

  /** HEAD's commit: from git's files when the watcher can read them (spawning git from a big process costs tens of ms), else from git. */
  private async headCommit(): Promise<string | undefined> {
    const known = this.opts.head ? this.opts.head() : null;
    return known === null ? headCommit(this.ws.root) : known;
  }

  private busy(): boolean {
    return this.running !== undefined || this.timer !== undefined || this.due();
  }

  /** Something is left for a run to do. */
  private due(): boolean {
    return this.pending.size > 0 || this.commitDue || this.fullDue || this.deferredDue;
  }

  private schedule(delayMs: number): void {
    if (this.running) return; // the run picks them up when it ends
    const now = Date.now();
    if (!this.timer) this.firstPendingAt = now;
    const wait = Math.max(0, Math.min(delayMs, this.firstPendingAt + this.opts.maxDelayMs - now));
    if (this.timer) clearTimeout(this.timer);
    this.state = 'waiting';
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.drain().finally(() => {
        this.running = undefined;
        if (!this.closed && this.due()) this.schedule(this.opts.debounceMs);
        else {
          if (this.state !== 'failed') this.state = 'idle';
          for (const w of this.waiters.splice(0)) w();
        }
      });
    }, wait);
  }

  /** Runs updates until nothing is queued. */
  private async drain(): Promise<void> {
    while (!this.closed && this.due()) {
      const paths = [...this.pending];
      const commit = this.commitDue;
      const full = this.fullDue;
      const deferred = this.deferredDue;
      this.pending = new Set();
      this.commitDue = false;
      this.fullDue = false;
      this.deferredDue = false;
      this.state = 'running';
      const t0 = performance.now();
      const cause: UpdateEvent['cause'] = full ? 'full' : commit ? 'commit' : 'watch';
      let files: string[] = paths;
      try {
        const head = this.ws.git ? await this.headCommit() : undefined;
        let mode: IndexMode;
        if (full) mode = { kind: 'full' };
        else {
          const change = await this.expand(paths);
          if (commit && head) {
            const since = await commitChangeList(this.ws, head);
            if (since) {
              change.changed.push(...since.changed.filter((p) => !change.changed.includes(p)));
              change.deleted.push(...since.deleted.filter((p) => !change.deleted.includes(p) && !change.changed.includes(p)));
            }
          }
          // Files whose Phase B the last run put off are added by the index run itself (the store keeps them).
          if (change.changed.length === 0 && change.deleted.length === 0 && !deferred) continue;
          files = [...change.changed, ...change.deleted];
          mode = { kind: 'incremental', changed: change.changed, deleted: change.deleted };
        }
        // What the run stored so far, said while it goes on (Phase A of every file, then the changed files' Phase B).
        const stored = (stage: 'phase-a' | 'phase-b') => (_plugin: string, files: readonly string[]) =>
          this.opts.onUpdate({ stage, cause, files, graphVersion: this.ws.store.graphVersion(), ms: performance.now() - t0 });
        // Changes that arrive while an edit's run goes on put its Phase B off: they are analyzed
        // next, Phase A first, instead of waiting for a Phase B they make stale. The files put
        // off are analyzed again whole, so a large run (a catch-up, a branch switch) finishes.
        const deferLater = mode.kind === 'incremental' && mode.changed.length <= DEFERRABLE_RUN_FILES ? new AbortController() : undefined;
        this.deferLater = deferLater;
        if (this.due()) deferLater?.abort();
        const summary = await indexWorkspace(this.ws, mode, {
          progress: false,
          lockWaitMs: LOCK_WAIT_MS,
          ...(head ? { commit: head } : {}),
          extra: {
            onFirstPhase: stored('phase-a'),
            onChangedResolved: stored('phase-b'),
            ...(deferLater ? { deferLaterPhases: deferLater.signal } : {}),
            ...(this.opts.spares ? { spares: this.opts.spares } : {}),
          },
        }).finally(() => (this.deferLater = undefined));
        if (summary.deferred && summary.deferred.length > 0) this.deferredDue = true;
        const ms = Math.round(performance.now() - t0);
        this.updates++;
        this.lastError = undefined;
        this.last = { files: files.length, ms, at: Date.now() };
        this.opts.onUpdate({ stage: 'done', cause, files, graphVersion: this.ws.store.graphVersion(), ms, summary });
      } catch (e) {
        // Kept for the next update: nothing the user changed is forgotten.
        for (const p of paths) this.pending.add(p);
        if (commit) this.commitDue = true;
        if (full) this.fullDue = true;
        if (deferred) this.deferredDue = true;
        this.state = 'failed';
        this.lastError = `${errorCode(e) ?? 'UPDATE_FAILED'}: ${(e as Error).message}`;
        this.ws.logger.log('error', `daemon: updating ${this.ws.root} failed: ${this.lastError}`);
        this.opts.onUpdate({
          stage: 'failed',
          cause,
          files,
          graphVersion: this.ws.store.graphVersion(),
          ms: performance.now() - t0,
          error: this.lastError,
        });
        // Tried again after a pause, not in a loop.
        await new Promise((r) => setTimeout(r, 2_000));
        return;
      }
    }
  }

  /**
   * Splits reported paths into files to analyze again (they exist) and paths to remove (they
   * are gone: a file, or a directory with every stored file under it). A directory that exists
   * is left to the watcher, which reports the files of a new directory itself.
   */
  private async expand(paths: readonly string[]): Promise<{ changed: string[]; deleted: string[] }> {
    const changed: string[] = [];
    const deleted = new Set<string>();
    let stored: string[] | undefined;
    for (const p of paths) {
      try {
        const s = await lstat(join(this.ws.root, p));
        if (!s.isDirectory()) changed.push(p);
      } catch (e) {
        if (errorCode(e) !== 'ENOENT' && errorCode(e) !== 'ENOTDIR') {
          changed.push(p); // unreadable: the index run records why
          continue;
        }
        stored ??= this.ws.store.listFiles().map((f) => f.path);
        deleted.add(p);
        const prefix = `${p}/`;
        for (const f of stored) if (f.startsWith(prefix)) deleted.add(f);
      }
    }
    return { changed, deleted: [...deleted] };
  }
}

/** `.git/` and `.travsr/` are never indexed; their changes (the index's own writes) are not edits. */
function isPrivatePath(p: string): boolean {
  return p === '.git' || p === '.travsr' || p.startsWith('.git/') || p.startsWith('.travsr/');
}
