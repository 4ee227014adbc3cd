import type { AnalyzeParams, UnavailablePhase } from '@travsr/protocol';
import { resolveLimits, type LaunchCommand, type LaunchSpec, type ResourceLimits, type TierGrant } from '../sandbox/index.js';
import type { ResolvedTool } from '../sandbox/plugin-tools.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { Trace } from '../traces/trace.js';
import { persistentTraceSink } from '../traces/trace-sink.js';
import { PluginError, PluginErrorCode } from './errors.js';
import type { LoadedPlugin } from './plugin-dir.js';
import { PluginSession, type AnalyzeHandlers, type AnalyzeOutcome } from './session.js';
import { DEFAULT_TIMEOUTS, analyzeDeadlineMs, type PluginTimeouts } from './timeouts.js';

/** When a crashed plugin is restarted, and when the supervisor gives up. */
export interface RestartPolicy {
  /** Crashes within `windowMs` after which the plugin is disabled (default 3). */
  maxCrashes: number;
  /** The crash-counting window (default 5 minutes). */
  windowMs: number;
  /** Delay before the n-th restart: base·4^(n-1), capped (defaults 250 ms and 10 s). */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { maxCrashes: 3, windowMs: 5 * 60_000, backoffBaseMs: 250, backoffMaxMs: 10_000 };

/** Options of a {@link PluginSupervisor}. */
export interface SupervisorOptions {
  plugin: LoadedPlugin;
  repoRoot?: string;
  corpus: string;
  grant: TierGrant;
  /** Resource limits; by default the sandbox defaults raised to what the manifest asks for (capped). */
  limits?: ResourceLimits;
  expectedTreeHash?: string;
  timeouts?: Partial<PluginTimeouts>;
  restart?: Partial<RestartPolicy>;
  logger?: Logger;
  /** Receives each session's trace; by default traces are saved for `travsr trace` (see persistentTraceSink). */
  onTrace?: (trace: Trace) => void;
  pluginOptions?: Record<string, unknown>;
  /** Programs to bind and name in `initialize.options.tools` besides the manifest's (the SCIP indexers users brought). */
  extraTools?: ResolvedTool[];
  /** Phases the host means to ask for (`initialize.phases`), so the plugin can prepare them. */
  phases?: ('A' | 'B')[];
  maxFrameBytes?: number;
  launch?: (spec: LaunchSpec) => Promise<LaunchCommand>;
  /** `plugins.cacheMax`: the size past which a plugin's cache directory is emptied after a session. */
  cacheMaxMiB?: number;
  /** Sessions of a few files (see `LaunchSpec.brief`). */
  brief?: boolean;
}

/** Lifecycle of a supervised plugin as the indexer sees it. */
export type SupervisorState = 'idle' | 'starting' | 'ready' | 'busy' | 'backoff' | 'disabled' | 'stopped';

/**
 * Keeps one plugin available: starts its session on first use, health-checks it with
 * `ping` while idle, restarts it with exponential backoff when it crashes or hangs, and
 * disables it after too many crashes in a short window (3 in 5 minutes by default), so a
 * broken plugin cannot stall the host. Requests are served one at a time.
 *
 * @example
 * ```ts
 * const sup = new PluginSupervisor({ plugin, repoRoot, corpus: '', grant, limits: defaultLimits() });
 * await sup.analyze({ phase: 'A', files }, { onFile: (f) => store.replaceFile(f) });
 * await sup.stop();
 * ```
 */
export class PluginSupervisor {
  private session: PluginSession | undefined;
  private starting: Promise<PluginSession> | undefined;
  private launching: Promise<void> | undefined;
  private readonly crashes: number[] = [];
  private stateValue: SupervisorState = 'idle';
  private healthTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private lastError: PluginError | undefined;
  private readonly timeouts: PluginTimeouts;
  private readonly policy: RestartPolicy;
  private readonly logger: Logger;
  /** Sessions started so far (the first launch included). */
  launches = 0;
  /** Paths changed since the session's last request, for the next one (`analyze.params.changed`). */
  private readonly pendingChanged = new Set<string>();
  /** Time spent in analyze requests so far, for {@link PluginTimeouts.analyzeTotalMs}. */
  private analyzeSpentMs = 0;
  private budgetSpent: PluginError | undefined;

  constructor(private readonly opts: SupervisorOptions) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
    this.policy = { ...DEFAULT_RESTART_POLICY, ...opts.restart };
    this.logger = opts.logger ?? silentLogger;
  }

  get state(): SupervisorState {
    return this.stateValue;
  }

  /** The error of the last failed session, if any. */
  get error(): PluginError | undefined {
    return this.lastError;
  }

  /** The current session, when one is running. */
  get current(): PluginSession | undefined {
    return this.session;
  }

  /**
   * True when the running session's plugin announced `capabilities.incremental`: the session
   * may serve another index run (the daemon keeps it warm) instead of one only.
   */
  get incremental(): boolean {
    return this.session?.helloResult?.capabilities.incremental === true;
  }

  /** Process id of the running session (the sandbox's, when there is one). */
  get pid(): number | undefined {
    return this.session?.pid;
  }

  /**
   * A new index run takes this supervisor over: the paths it changes go with its first
   * request (incremental sessions only; a session started after them reads them anyway), and
   * the run's analyze time ({@link PluginTimeouts}) counts from zero again.
   */
  beginRun(changed: readonly string[]): void {
    for (const p of changed) this.pendingChanged.add(p);
    this.analyzeSpentMs = 0;
    this.budgetSpent = undefined;
  }

  /** Starts the plugin now instead of on first use. */
  async start(): Promise<void> {
    await this.ensureSession();
  }

  /**
   * Resolves once the session being started has its process running (its handshake may still
   * be under way) or has failed to start; at once when no start is under way. Never rejects.
   */
  launched(): Promise<void> {
    return this.launching ?? Promise.resolve();
  }

  /**
   * Starts the plugin if needed and says which phases its session runs, and which it cannot
   * run and why (`initialize.unavailable`: a tool it needs is missing).
   * @throws PluginError when the plugin cannot be started.
   */
  async capabilities(): Promise<{ phases: readonly ('A' | 'B')[]; unavailable: readonly UnavailablePhase[] }> {
    const session = await this.ensureSession();
    return { phases: session.phases, unavailable: session.unavailable };
  }

  /**
   * Runs one analyze request (queued behind any other request), within the request's
   * deadline and what is left of the plugin's total analyze time ({@link PluginTimeouts}).
   * @throws PluginError — PLUGIN_TIMEOUT when a limit is passed (the plugin is stopped),
   * PLUGIN_DISABLED once the total is spent.
   */
  analyze(params: AnalyzeParams, handlers: AnalyzeHandlers, options: { signal?: AbortSignal } = {}): Promise<AnalyzeOutcome> {
    return this.serial(async () => {
      const budget = this.analyzeBudget(params.files.length);
      const session = await this.ensureSession();
      this.stateValue = 'busy';
      const t0 = performance.now();
      const changed = this.incremental && this.pendingChanged.size > 0 ? [...this.pendingChanged].sort() : undefined;
      this.pendingChanged.clear();
      try {
        return await session.analyze(changed ? { ...params, changed } : params, handlers, { ...options, ...budget });
      } catch (e) {
        await this.afterFailure(session, e);
        throw e;
      } finally {
        this.analyzeSpentMs += performance.now() - t0;
        if (this.stateValue === 'busy') this.stateValue = 'ready';
      }
    });
  }

  /**
   * The deadline of the next request: its own, or less when the plugin's total analyze time
   * is nearly spent. Once it is spent the plugin is disabled for the rest of the run.
   */
  private analyzeBudget(files: number): { deadlineMs?: number; deadlineReason?: string } {
    const total = this.timeouts.analyzeTotalMs;
    if (total <= 0) return {};
    const own = analyzeDeadlineMs(this.timeouts, files);
    const left = total - this.analyzeSpentMs;
    const why = `the ${Math.round(total / 1000)} s that one plugin may spend analyzing in one run (analyze.total)`;
    if (left <= 0) {
      this.budgetSpent ??= new PluginError(
        PluginErrorCode.Disabled,
        `${this.opts.plugin.label} has used up ${why} and is disabled for this run; the files left were not analyzed. Raise analyze.total if the plugin is just slow, or see \`travsr trace list\``,
        this.opts.plugin.label,
      );
      this.clearHealth();
      this.stateValue = 'disabled';
      throw this.budgetSpent;
    }
    return left < own ? { deadlineMs: left, deadlineReason: `what was left of ${why}` } : {};
  }

  /** Pings the plugin (starting it if needed) and resolves with the round trip in ms. */
  ping(): Promise<number> {
    return this.serial(async () => {
      const session = await this.ensureSession();
      try {
        return await session.ping();
      } catch (e) {
        await this.afterFailure(session, e);
        throw e;
      }
    });
  }

  /** Stops the plugin gracefully; the supervisor accepts no more work. */
  async stop(): Promise<void> {
    this.clearHealth();
    this.stateValue = 'stopped';
    const s = this.session ?? (await this.starting?.catch(() => undefined));
    this.session = undefined;
    await s?.stop();
  }

  /** Re-enables a disabled plugin (forgets its crashes and the analyze time it spent). */
  reset(): void {
    this.crashes.length = 0;
    this.lastError = undefined;
    this.budgetSpent = undefined;
    this.analyzeSpentMs = 0;
    if (this.stateValue === 'disabled') this.stateValue = 'idle';
  }

  /** Through a method, so the compiler does not narrow the state across the awaits that can change it. */
  private stopped(): boolean {
    return this.stateValue === 'stopped';
  }

  private stoppedError(): PluginError {
    return new PluginError(PluginErrorCode.Stopped, `${this.opts.plugin.label} was stopped`, this.opts.plugin.label);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ensureSession(): Promise<PluginSession> {
    if (this.stopped()) throw this.stoppedError();
    if (this.stateValue === 'disabled') throw this.disabledError();
    if (this.session && this.session.state === 'ready') return this.session;
    if (this.starting) return this.starting;
    const delay = this.backoffDelay();
    let sayLaunched = () => {};
    this.launching = new Promise<void>((resolve) => (sayLaunched = resolve));
    this.starting = (async () => {
      if (delay > 0) {
        this.stateValue = 'backoff';
        this.logger.log('info', `[${this.opts.plugin.label}] restarting in ${delay} ms after ${this.recentCrashes()} crash(es)`);
        await new Promise((r) => setTimeout(r, delay));
        if (this.stopped()) throw this.stoppedError();
      }
      this.stateValue = 'starting';
      this.launches++;
      const sessionOpts = {
        plugin: this.opts.plugin,
        corpus: this.opts.corpus,
        grant: this.opts.grant,
        limits: this.opts.limits ?? resolveLimits(this.opts.plugin.manifest),
        timeouts: this.timeouts,
        logger: this.logger,
        ...(this.opts.repoRoot ? { repoRoot: this.opts.repoRoot } : {}),
        ...(this.opts.expectedTreeHash ? { expectedTreeHash: this.opts.expectedTreeHash } : {}),
        onTrace: this.opts.onTrace ?? persistentTraceSink(this.opts.repoRoot, this.logger),
        ...(this.opts.pluginOptions ? { pluginOptions: this.opts.pluginOptions } : {}),
        ...(this.opts.extraTools ? { extraTools: this.opts.extraTools } : {}),
        ...(this.opts.phases ? { phases: this.opts.phases } : {}),
        ...(this.opts.maxFrameBytes ? { maxFrameBytes: this.opts.maxFrameBytes } : {}),
        ...(this.opts.launch ? { launch: this.opts.launch } : {}),
        ...(this.opts.cacheMaxMiB !== undefined ? { cacheMaxMiB: this.opts.cacheMaxMiB } : {}),
        ...(this.opts.brief ? { brief: true } : {}),
        onLaunched: sayLaunched,
      };
      try {
        const session = await PluginSession.start(sessionOpts);
        // stop() came while the session started: it must not come back to life as 'ready'
        // (a request queued behind the start would then launch another process nobody stops).
        if (this.stopped()) {
          await session.stop();
          throw this.stoppedError();
        }
        this.session = session;
        this.stateValue = 'ready';
        this.scheduleHealth();
        void session.ended.then(() => {
          if (this.session === session && session.error) void this.afterFailure(session, session.error);
        });
        return session;
      } catch (e) {
        if (!this.stopped()) this.recordFailure(e);
        throw e;
      } finally {
        sayLaunched();
        this.starting = undefined;
        this.launching = undefined;
      }
    })();
    return this.starting;
  }

  /** Counts a crash when the session died (not for a plugin answering an error). */
  private async afterFailure(session: PluginSession, e: unknown): Promise<void> {
    if (!session.error) return; // an error answer; the session is still fine
    if (this.session === session) {
      this.session = undefined;
      this.clearHealth();
      this.recordFailure(e);
    }
    await session.ended;
  }

  private recordFailure(e: unknown): void {
    const err =
      e instanceof PluginError ? e : new PluginError(PluginErrorCode.Crashed, String((e as Error)?.message ?? e), this.opts.plugin.label);
    this.lastError = err;
    // Refusals (constraints, missing sandbox, tampering) will not heal by retrying.
    if (
      err.code === PluginErrorCode.ConstraintRefused ||
      err.code === PluginErrorCode.SandboxUnavailable ||
      err.code === PluginErrorCode.Tampered ||
      err.code === PluginErrorCode.NotFound
    ) {
      this.stateValue = 'disabled';
      return;
    }
    const now = Date.now();
    this.crashes.push(now);
    if (this.recentCrashes() >= this.policy.maxCrashes) {
      this.stateValue = 'disabled';
      this.logger.log('error', this.disabledError().message);
    } else if (this.stateValue !== 'stopped') {
      this.stateValue = 'idle';
    }
  }

  private recentCrashes(): number {
    const since = Date.now() - this.policy.windowMs;
    while (this.crashes.length && this.crashes[0]! < since) this.crashes.shift();
    return this.crashes.length;
  }

  private backoffDelay(): number {
    const n = this.recentCrashes();
    if (n === 0) return 0;
    return Math.min(this.policy.backoffMaxMs, this.policy.backoffBaseMs * 4 ** (n - 1));
  }

  private disabledError(): PluginError {
    if (this.budgetSpent) return this.budgetSpent;
    const last = this.lastError;
    if (
      last &&
      (last.code === PluginErrorCode.ConstraintRefused ||
        last.code === PluginErrorCode.SandboxUnavailable ||
        last.code === PluginErrorCode.Tampered ||
        last.code === PluginErrorCode.NotFound)
    ) {
      return last;
    }
    return new PluginError(
      PluginErrorCode.Disabled,
      `${this.opts.plugin.label} crashed ${this.recentCrashes()} times within ${Math.round(this.policy.windowMs / 60_000)} minutes and is disabled for this run${last ? ` (last: ${last.message})` : ''}; run \`travsr plugin test ${this.opts.plugin.dir}\` or see \`travsr trace list\``,
      this.opts.plugin.label,
      last?.stderrTail,
    );
  }

  private scheduleHealth(): void {
    this.clearHealth();
    if (this.timeouts.pingIntervalMs <= 0) return;
    this.healthTimer = setInterval(() => {
      const s = this.session;
      if (!s || s.state !== 'ready' || this.stateValue !== 'ready') return;
      void this.serial(async () => {
        if (this.session !== s || s.state !== 'ready') return;
        try {
          await s.ping(Math.min(this.timeouts.requestMs, 10_000));
        } catch (e) {
          this.logger.log('warn', `[${this.opts.plugin.label}] health check failed: ${(e as Error).message}`);
          await this.afterFailure(s, e);
        }
      });
    }, this.timeouts.pingIntervalMs);
    this.healthTimer.unref();
  }

  private clearHealth(): void {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = undefined;
  }
}
