import type { PluginSupervisor } from '../plugins/supervisor.js';

interface Spare {
  /** What the session was started with (see `PluginSessions`): a run with other settings cannot use it. */
  key: string;
  supervisor: PluginSupervisor;
  timer: NodeJS.Timeout;
}

/**
 * Plugin sessions started ahead of the next index run of one repository, for the daemon: when
 * a brief run (a few edited files) ends, a fresh session of each plugin it used is launched —
 * sandbox, process start, handshake — and waits; the next brief run takes it instead of paying
 * the start-up while the user waits. Each session serves one run (the plugin starts from the
 * repository as it is when it is asked, as in any session) and is replaced after it. A spare
 * unused for `idleMs` is stopped; one started with other settings than a run asks for is
 * stopped and not used.
 */
export class SpareSessions {
  private readonly ready = new Map<string, Spare>();
  private closed = false;

  constructor(private readonly opts: { idleMs: number }) {}

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
    const timer = setTimeout(() => {
      if (this.ready.get(pluginId)?.supervisor !== supervisor) return;
      this.ready.delete(pluginId);
      void supervisor.stop().catch(() => undefined);
    }, this.opts.idleMs);
    timer.unref();
    this.ready.set(pluginId, { key, supervisor, timer });
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
