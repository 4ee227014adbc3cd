import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAEMON_PID_FILE, dirtyFiles, gitCommonDir, gitDir } from '../git/index.js';
import type { GraphChanges } from '../store/index.js';
import { openWorkspace, type Workspace } from '../workspace/workspace.js';
import type { RepoStatus } from './daemon-service.js';
import { SpareSessions } from '../indexer/spare-sessions.js';
import { RepoUpdater, type UpdateEvent } from './repo-updater.js';
import { HeadWatcher } from './head-watcher.js';
import { TreeWatcher } from './tree-watcher.js';

/** Dirty files listed in a status at most (the count is always whole). */
const DIRTY_LISTED = 1000;

/**
 * One repository the daemon manages: its workspace (configuration and graph store, open for
 * the daemon's life), the watchers of its working tree and of its HEAD, and the updater that
 * turns what they see into index runs. Opening it catches up with whatever changed while no
 * daemon watched: a full run, which re-analyzes only files whose content hash moved. While it
 * is open, `.travsr/daemon.pid` tells the post-commit hook that the daemon has the commits.
 */
export class ManagedRepo {
  private constructor(
    readonly ws: Workspace,
    readonly watcher: TreeWatcher,
    readonly updater: RepoUpdater,
    readonly spares: SpareSessions,
    private readonly head: HeadWatcher | undefined,
  ) {}

  /** The repository root. */
  get root(): string {
    return this.ws.root;
  }

  /** The corpus of the repository's nodes. */
  get corpus(): string {
    return this.ws.settings.corpus;
  }

  /**
   * Opens an initialized repository, starts watching it and queues the catch-up run.
   * `onUpdate` hears every update (for the graph-change stream and the query cache);
   * `onGraphChanges` what each committed write changed (for the tool workers' snapshots).
   */
  static async open(
    path: string,
    onUpdate: (repo: ManagedRepo, e: UpdateEvent) => void,
    onGraphChanges?: (root: string, changes: GraphChanges) => void,
  ): Promise<ManagedRepo> {
    const ws = await openWorkspace(path);
    try {
      // Its writes record what they change: the tool workers patch their snapshots instead of reading the graph again.
      ws.store.trackGraphChanges(onGraphChanges && ((c) => onGraphChanges(ws.root, c)));
      const values = ws.config.values;
      // The updater reports to the repository it belongs to, made just below.
      const owner: { repo?: ManagedRepo } = {};
      const spares = new SpareSessions({
        idleMs: values['daemon.pluginIdle'].value * 1000,
        memoryBytes: values['daemon.pluginMemory'].value * 1024 * 1024,
        onEvicted: (plugin, rss) =>
          ws.logger.log(
            'info',
            `daemon: ${plugin}'s session (${Math.round(rss / 1048576)} MiB) would pass daemon.pluginMemory: stopped instead of kept for the next update`,
          ),
      });
      // A commit, checkout or reset is seen without the hook: git's own files say HEAD moved
      // (and which commit each update indexes, without running git).
      const head = ws.git
        ? new HeadWatcher({ gitDir: await gitDir(ws.root), commonDir: await gitCommonDir(ws.root), onMoved: () => updater.commit() })
        : undefined;
      const updater = new RepoUpdater(ws, {
        ...(head ? { head: () => head.commit() } : {}),
        ...(values['daemon.warmPlugins'].value ? { spares } : {}),
        debounceMs: values['daemon.debounce'].value,
        maxDelayMs: Math.max(500, values['daemon.debounce'].value * 10),
        onUpdate: (e) => {
          if (owner.repo) onUpdate(owner.repo, e);
        },
      });
      const watcher = new TreeWatcher(ws.root, {
        exclude: ws.settings.exclude,
        followSymlinks: ws.settings.followSymlinks,
        maxDirectories: values['daemon.maxWatchedDirectories'].value,
        scanIntervalMs: values['daemon.scanInterval'].value,
        onChange: (paths) => updater.changed(paths),
        onLost: () => updater.full(),
        onMode: (mode, note) => {
          if (mode === 'scanning')
            ws.logger.log('warn', `daemon: ${ws.root} is scanned every ${values['daemon.scanInterval'].value} ms: ${note ?? ''}`);
        },
      });
      const repo = new ManagedRepo(ws, watcher, updater, spares, head);
      owner.repo = repo;
      // Watching starts before the catch-up run, so nothing saved in between is missed.
      await watcher.start();
      head?.start();
      if (head) claimPidFile(join(ws.root, '.travsr', DAEMON_PID_FILE), ws);
      updater.full();
      return repo;
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  /** What `daemon status` shows of this repository. */
  async status(): Promise<RepoStatus> {
    let dirty: string[] = [];
    if (this.ws.git) {
      try {
        dirty = await dirtyFiles(this.ws.root);
      } catch {
        dirty = []; // git failing here is said by the next update
      }
    }
    const u = this.updater;
    return {
      root: this.root,
      corpus: this.corpus,
      graphVersion: this.ws.store.graphVersion(),
      watchMode: this.watcher.mode,
      watchNote: this.watcher.note ?? '',
      watchedDirectories: this.watcher.watchedDirectories,
      dirtyFiles: dirty.slice(0, DIRTY_LISTED),
      dirtyCount: dirty.length,
      queuedFiles: u.queued,
      phaseBOwedFiles: 0,
      updateState: u.state,
      lastError: u.lastError ?? '',
      lastUpdateFiles: u.last?.files ?? 0,
      lastUpdateMs: u.last?.ms ?? 0,
      lastUpdateAt: u.last?.at ?? 0,
      updates: u.updates,
      warmPlugins: this.spares.plugins(),
    };
  }

  /** Stops watching, waits for the update under way, closes the store. */
  async close(): Promise<void> {
    this.watcher.close();
    if (this.head) {
      this.head.close();
      releasePidFile(join(this.ws.root, '.travsr', DAEMON_PID_FILE));
    }
    await this.updater.close();
    await this.spares.close();
    this.ws.close();
  }
}

/** Writes the hook's pid file; without it the hook still works (it notifies the daemon), so a failure is only said. */
function claimPidFile(path: string, ws: Workspace): void {
  try {
    writeFileSync(path, `${process.pid}\n`);
  } catch (e) {
    ws.logger.log(
      'warn',
      `daemon: cannot write ${path} (${(e as Error).message}): the post-commit hook will start travsr to tell the daemon`,
    );
  }
}

/** Removes the hook's pid file when it names this process (another daemon may have taken the repository since). */
function releasePidFile(path: string): void {
  try {
    if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
  } catch {
    // Gone already: nothing to release.
  }
}
