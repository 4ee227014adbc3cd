/** Time limits of a plugin session, in milliseconds. */
export interface PluginTimeouts {
  /** From spawn to a valid `hello` answer. */
  handshakeMs: number;
  /** `initialize`, `ping` and `shutdown` answers. */
  requestMs: number;
  /**
   * Longest time without a sign of work during `analyze` before the plugin is declared hung.
   * Progress counts only when its `done` counter advances.
   */
  analyzeIdleMs: number;
  /** Fixed part of an `analyze` request's hard deadline, which no progress extends. */
  analyzeBaseMs: number;
  /** Added to the deadline for each file of the request. */
  analyzePerFileMs: number;
  /**
   * Ceiling on the total time one supervised plugin spends in `analyze` (all its requests and
   * restarts, i.e. one plugin in one index run); 0 means no ceiling.
   */
  analyzeTotalMs: number;
  /** Health-check period while idle; 0 disables health checks. */
  pingIntervalMs: number;
  /** After `shutdown` (or closing stdin), how long to wait before SIGTERM, then SIGKILL. */
  shutdownGraceMs: number;
}

/** Defaults that suit a sandboxed Node.js analyzer on a laptop or a CI runner. */
export const DEFAULT_TIMEOUTS: PluginTimeouts = {
  handshakeMs: 10_000,
  requestMs: 30_000,
  analyzeIdleMs: 120_000,
  // A 256-file batch (the indexer's default) may take 120 + 256·2 s ≈ 10.5 min: far beyond what a
  // working analyzer needs, yet a plugin that only pretends to work is stopped.
  analyzeBaseMs: 120_000,
  analyzePerFileMs: 2_000,
  analyzeTotalMs: 2 * 60 * 60_000,
  pingIntervalMs: 30_000,
  shutdownGraceMs: 3_000,
};

/** The hard deadline of an analyze request of `files` files. */
export function analyzeDeadlineMs(timeouts: Pick<PluginTimeouts, 'analyzeBaseMs' | 'analyzePerFileMs'>, files: number): number {
  return timeouts.analyzeBaseMs + timeouts.analyzePerFileMs * files;
}

/** The analyze deadlines set in the configuration (`analyze.deadline*`, `analyze.total`, in seconds). */
export function pluginDeadlines(values: {
  'analyze.deadline': { value: number };
  'analyze.deadlinePerFile': { value: number };
  'analyze.total': { value: number };
}): Pick<PluginTimeouts, 'analyzeBaseMs' | 'analyzePerFileMs' | 'analyzeTotalMs'> {
  return {
    analyzeBaseMs: values['analyze.deadline'].value * 1000,
    analyzePerFileMs: values['analyze.deadlinePerFile'].value * 1000,
    analyzeTotalMs: values['analyze.total'].value * 1000,
  };
}
