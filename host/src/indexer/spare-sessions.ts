import { processTreeRss } from '../plugins/process-memory.js';
import type { PluginSupervisor } from '../plugins/supervisor.js';

interface Spare {
  /** What the session was started with (see `PluginSessions`): a run with other settings cannot use it. */
  key: string;
  supervisor: PluginSupervisor;
  timer: NodeJS.Timeout;
}

/**
 * Plugin sessions ready for the next index run of one repository, for the daemon. When a
 * brief run (a few edited files) ends, each plugin it used gets a session for the next one:
 *
 * - an incremental plugin (`capabilities.incremental`) keeps its session — its process, its
 *   caches, lang-typescript its programs — as long as the sessions kept stay within the
 *   memory budget; the next run tells it which paths changed ({@link keep});
 * - any other plugin gets a fresh session, launched now — sandbox, process start, handshake —
 *   and warmed ({@link prepare}): a session of such a plugin serves one run, since it may
 *   cache what it read.
 *
 * The next brief run takes the session instead of paying the start-up while the user waits.
 * A session unused for `idleMs` is stopped; one started with other settings than a run asks
 * for is stopped and not used.
 */
export class SpareSessions {
  private readonly ready = new Map<string, Spare>();
  private closed = false;

  constructor(
    private readonly opts: {
      idleMs: number;
      /** Resident memory (bytes) the sessions kept may use together; past it a session is stopped instead. */
      memoryBytes?: number;
      /** Where a session that is stopped for memory is told. */
      onEvicted?: (pluginId: string, rssBytes: number) => void;
    },
  ) {}

  /** The plugins with a session waiting. */
  plugins(): string[] {
    return [...this.ready.keys()].sort();
  }

  /** The waiting session of `pluginId` started with `key`, now the caller's; undefined when there is none. */
  take(pluginId: string, key: string): PluginSupervisor | undefined {
    const spare = this.ready.get(pluginId);
    if (!spare) return undefined;
    this.ready.delete(pluginId);
    clearTimeout(spare.timer);
    if (spare.key === key) return spare.supervisor;
    void spare.supervisor.stop().catch(() => undefined);
    return undefined;
  }

  /**
   * Launches a session for the next run (`make` builds its supervisor), unless one waits
   * already; then `warm` (a first request, e.g. Phase A of a file the run analyzed, whose answer
   * is dropped) runs the plugin's code once, so the run that takes the session does not pay
   * for compiling it.
   */
  prepare(pluginId: string, key: string, make: () => PluginSupervisor, warm?: (s: PluginSupervisor) => Promise<unknown>): void {
    if (this.closed || this.ready.has(pluginId)) return;
    const supervisor = make();
    // A start that fails is reported to the run that takes the session.
    supervisor
      .capabilities()
      .then(() => warm?.(supervisor))
      .catch(() => undefined);
    this.wait(pluginId, key, supervisor);
  }

  /** Puts a session in wait for the next run, stopped after `idleMs` unused. */
  private wait(pluginId: string, key: string, supervisor: PluginSupervisor): void {
    const timer = setTimeout(() => {
      if (this.ready.get(pluginId)?.supervisor !== supervisor) return;
      this.ready.delete(pluginId);
      void supervisor.stop().catch(() => undefined);
    }, this.opts.idleMs);
    timer.unref();
    this.ready.set(pluginId, { key, supervisor, timer });
  }

  /**
   * Keeps the session a run used (its plugin is incremental) for the next run. False when it
   * was not kept — the sessions waiting and this one would pass the memory budget, one waits
   * already, or the sessions are closed —: the caller then stops it and prepares a fresh one.
   */
  keep(pluginId: string, key: string, supervisor: PluginSupervisor): boolean {
    if (this.closed || this.ready.has(pluginId)) return false;
    const budget = this.opts.memoryBytes;
    if (budget !== undefined && supervisor.pid !== undefined) {
      const rssOf = (s: PluginSupervisor) => (s.pid === undefined ? 0 : (processTreeRss(s.pid) ?? 0));
      const rss = rssOf(supervisor);
      const others = [...this.ready.values()].reduce((sum, s) => sum + rssOf(s.supervisor), 0);
      if (rss + others > budget) {
        this.opts.onEvicted?.(pluginId, rss);
        return false;
      }
    }
    this.wait(pluginId, key, supervisor);
    return true;
  }

  /** Stops every waiting session. */
  async close(): Promise<void> {
    this.closed = true;
    const spares = [...this.ready.values()];
    this.ready.clear();
    for (const s of spares) clearTimeout(s.timer);
    await Promise.all(spares.map((s) => s.supervisor.stop().catch(() => undefined)));
  }
}
