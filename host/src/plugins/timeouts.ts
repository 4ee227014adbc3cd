/** Time limits of a plugin session, in milliseconds. */
export interface PluginTimeouts {
  /** From spawn to a valid `hello` answer. */
  handshakeMs: number;
  /** `initialize`, `ping` and `shutdown` answers. */
  requestMs: number;
  /** Longest silence (no frame at all) during `analyze` before the plugin is declared hung. */
  analyzeIdleMs: number;
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
  pingIntervalMs: 30_000,
  shutdownGraceMs: 3_000,
};
