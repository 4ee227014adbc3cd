import type {
  AnalyzeParams,
  AnalyzeResult,
  GraphFileParams,
  HelloResult,
  LogParams,
  ParamsOf,
  PluginManifest,
  ProgressParams,
  RequestId,
  ResultOf,
  UnavailablePhase,
} from '@travsr/protocol';
import {
  DEFAULT_MAX_FRAME_BYTES,
  PLUGIN_COOKIE_ENV,
  PLUGIN_COOKIE_VALUE,
  PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS_ENV,
} from '@travsr/protocol';
import { Connection, type ConnectionStats } from '@travsr/protocol/node';
import { treeHash, verifyTreeHash } from '@travsr/registry/tree-hash';
import { pluginDigests, savePluginDigests } from './tree-digests.js';
import {
  evaluateConstraints,
  prepareLaunch,
  declaresTools,
  resolvePluginTools,
  warmSandboxProbe,
  type LaunchCommand,
  type LaunchSpec,
  type ResourceLimits,
  type TierGrant,
} from '../sandbox/index.js';
import type { Logger } from '../log/logger.js';
import { TraceRecorder, type Trace } from '../traces/trace.js';
import { PluginError, PluginErrorCode, errorCode } from './errors.js';
import type { LoadedPlugin } from './plugin-dir.js';
import { spawnPlugin, type ExitInfo, type PluginProcess } from './plugin-process.js';
import { StderrTail } from './stderr-tail.js';
import { AnalyzeWatchdog, type WatchdogVerdict } from './analyze-watchdog.js';
import { analyzeDeadlineMs, type PluginTimeouts } from './timeouts.js';
import { HOST_VERSION } from '../version.js';
import { preparePluginCacheDir } from '../paths/plugin-cache-dir.js';
import { DEFAULT_PLUGIN_CACHE_MAX_MIB, enforceCacheCap } from './plugin-cache-cap.js';
import type { ResolvedTool } from '../sandbox/plugin-tools.js';

/** States of a session, in the order a healthy one goes through them. */
export type SessionState =
  | 'created'
  | 'verifying'
  | 'evaluating_constraints'
  | 'launching'
  | 'handshaking'
  | 'initializing'
  | 'ready'
  | 'busy'
  | 'stopping'
  | 'stopped'
  | 'crashed'
  | 'error';

/** Everything a session needs. */
export interface SessionOptions {
  plugin: LoadedPlugin;
  /** Repository bound read-only into the sandbox. */
  repoRoot?: string;
  /** VName corpus every node of the session must carry. */
  corpus: string;
  grant: TierGrant;
  limits: ResourceLimits;
  /** Recorded tree hash; when set the plugin files must still match it. */
  expectedTreeHash?: string;
  timeouts: PluginTimeouts;
  logger: Logger;
  /** Receives the trace when the session ends (however it ends). */
  onTrace?: (trace: Trace) => void;
  /** Plugin options passed in `initialize`. */
  pluginOptions?: Record<string, unknown>;
  /**
   * Programs bound into the sandbox and named in `initialize.options.tools` besides the manifest's:
   * the SCIP indexers users brought (`initialize.options.scip`), which give the plugin a Phase B
   * for their languages even when its manifest declares none.
   */
  extraTools?: ResolvedTool[];
  /** Phases the host means to ask for, passed in `initialize` (default: not said, i.e. all). */
  phases?: ('A' | 'B')[];
  /** Largest frame the host accepts. */
  maxFrameBytes?: number;
  /** Builds the launch command (default: the sandbox's prepareLaunch). */
  launch?: (spec: LaunchSpec) => Promise<LaunchCommand>;
  /** `plugins.cacheMax`: past it, the plugin's cache directory is emptied when the session ends (default 512). */
  cacheMaxMiB?: number;
  /** A session of a few files (a small commit, a plugin with few files in the run): see {@link LaunchSpec.brief}. */
  brief?: boolean;
  /**
   * Called once, when the plugin's process has started (before the handshake) or its start
   * failed before that: what a caller that only needs the launch under way waits for.
   */
  onLaunched?: () => void;
}

/** What the caller of {@link PluginSession.analyze} receives as files stream in. */
export interface AnalyzeHandlers {
  /** One complete file. A returned promise applies back-pressure to the plugin. */
  onFile(file: GraphFileParams): void | Promise<void>;
  onProgress?(progress: ProgressParams): void;
}

/** Options of one {@link PluginSession.analyze} request. */
export interface AnalyzeOptions {
  /** Aborting sends `cancel`. */
  signal?: AbortSignal;
  /** Hard deadline of this request (default: from the timeouts and the number of files). */
  deadlineMs?: number;
  /** Says why the deadline is what it is, for the error when it passes (default: the per-request rule). */
  deadlineReason?: string;
}

/** The answer of an analyze request, checked against what was streamed. */
export interface AnalyzeOutcome {
  result: AnalyzeResult;
  /** Files streamed with status ok. */
  analyzed: number;
  /** Files the plugin reported failed, or the host rejected. */
  failed: number;
  /** Requested files the plugin never sent. */
  missing: string[];
}

interface ActiveAnalyze {
  id: RequestId | undefined;
  languages: Map<string, string>;
  seen: Set<string>;
  handlers: AnalyzeHandlers;
  queue: Promise<void>;
  queued: number;
  analyzed: number;
  failed: number;
  handlerError: Error | undefined;
  watchdog?: AnalyzeWatchdog;
}

const MAX_QUEUED_FILES = 64;

/**
 * One run of a plugin process: verify its files, check its constraints, launch it in its
 * sandbox tier, handshake, initialize, then serve analyze/ping until it is stopped or fails.
 * Everything the plugin sends is untrusted: frames are schema-checked by the connection,
 * and graph data is checked against the request (right files, right corpus, own nodes only).
 * Any fatal problem ends the session with a {@link PluginError} and kills the process.
 */
export class PluginSession {
  readonly recorder: TraceRecorder;
  private stateValue: SessionState = 'created';
  private cmd: LaunchCommand | undefined;
  private proc: PluginProcess | undefined;
  private conn: Connection | undefined;
  private stderr: StderrTail;
  private failure: PluginError | undefined;
  private failFatal!: (e: PluginError) => void;
  private readonly fatal: Promise<never>;
  private outputBytes = 0;
  private active: ActiveAnalyze | undefined;
  private exitInfo: ExitInfo | undefined;
  private finished = false;
  private resolveEnded!: () => void;
  /** Settles when the process is gone, the sandbox cleaned up and the trace written. */
  readonly ended: Promise<void>;
  helloResult: HelloResult | undefined;
  private phasesValue: ('A' | 'B')[] = [];
  private unavailableValue: UnavailablePhase[] = [];
  /** Host path of the plugin's cache directory, when its manifest asks for one and a repository is open. */
  private cacheDir: string | undefined;

  /** Phases this session runs: the plugin's `capabilities.phases` less those its `initialize` said it cannot run. */
  get phases(): readonly ('A' | 'B')[] {
    return this.phasesValue;
  }

  /** Phases the plugin implements but cannot run in this session, with its reasons. */
  get unavailable(): readonly UnavailablePhase[] {
    return this.unavailableValue;
  }

  private constructor(private readonly opts: SessionOptions) {
    this.recorder = new TraceRecorder('plugin-session', opts.plugin.label);
    this.stderr = new StderrTail(opts.plugin.label, opts.logger);
    this.fatal = new Promise<never>((_, reject) => {
      this.failFatal = reject;
    });
    this.fatal.catch(() => undefined);
    this.ended = new Promise<void>((r) => (this.resolveEnded = r));
  }

  /**
   * Starts a session and resolves once the plugin is initialized and ready.
   * @throws PluginError (or the sandbox's ConstraintError / SandboxUnavailableError) — the trace is still written.
   */
  static async start(opts: SessionOptions): Promise<PluginSession> {
    const s = new PluginSession(opts);
    try {
      await s.boot();
    } catch (e) {
      s.saidLaunched();
      const err = s.failure ?? toPluginError(e, s.label);
      s.fail(err);
      await s.ended;
      throw err;
    }
    return s;
  }

  private launchedSaid = false;

  /** Calls {@link SessionOptions.onLaunched} (once). */
  private saidLaunched(): void {
    if (this.launchedSaid) return;
    this.launchedSaid = true;
    this.opts.onLaunched?.();
  }

  /** `id@version` of the plugin. */
  get label(): string {
    return this.opts.plugin.label;
  }

  get state(): SessionState {
    return this.stateValue;
  }

  /** The error that ended the session, if it failed. */
  get error(): PluginError | undefined {
    return this.failure;
  }

  /** Where the repository appears inside the sandbox. */
  get repoRootInside(): string | undefined {
    return this.cmd?.repoRootInside;
  }

  /** Frame and byte counters of the connection so far (zeros before launch). */
  get stats(): ConnectionStats {
    return this.conn ? { ...this.conn.stats } : { framesIn: 0, framesOut: 0, bytesIn: 0, bytesOut: 0 };
  }

  /** Process id of the launched command (bwrap's, when sandboxed). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  private setState(state: SessionState, detail?: string): void {
    this.stateValue = state;
    this.recorder.transition(state, detail);
  }

  private async boot(): Promise<void> {
    const { plugin, grant } = this.opts;
    const trace = this.recorder.trace;

    // The sandbox probe (two bwrap runs, once per process) overlaps the verification.
    if (!this.opts.launch) warmSandboxProbe();
    this.setState('verifying');
    if (this.opts.expectedTreeHash) {
      try {
        await verifyTreeHash(plugin.dir, this.opts.expectedTreeHash, pluginDigests());
      } catch (e) {
        throw new PluginError(PluginErrorCode.Tampered, `${this.label}: ${(e as Error).message}`, this.label);
      }
      trace.details.treeHash = this.opts.expectedTreeHash;
    } else {
      trace.details.treeHash = await treeHash(plugin.dir, pluginDigests());
    }
    savePluginDigests();

    this.setState('evaluating_constraints');
    const checks = evaluateConstraints(plugin.manifest, grant);
    trace.constraints = checks.map((c) => ({ ...c }));
    trace.tier = grant.tier;
    const refused = checks.filter((c) => !c.ok);
    if (refused.length > 0) {
      throw new PluginError(
        PluginErrorCode.ConstraintRefused,
        `${this.label} was not started: ${refused.map((c) => `constraint ${c.constraint} asks for ${c.requested} but ${c.granted} is granted${c.reason ? ` (${c.reason})` : ''}`).join('; ')}`,
        this.label,
      );
    }

    this.setState('launching');
    const launch = this.opts.launch ?? prepareLaunch;
    const tools = resolvePluginTools(plugin.manifest);
    for (const t of this.opts.extraTools ?? []) if (!tools.found.some((f) => f.name === t.name)) tools.found.push(t);
    if (tools.missing.length + tools.optionalMissing.length > 0) trace.details.toolsMissing = [...tools.missing, ...tools.optionalMissing];
    const spec: LaunchSpec = {
      pluginDir: plugin.dir,
      manifest: plugin.manifest,
      tier: grant.tier,
      limits: this.opts.limits,
      env: { [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, [PROTOCOL_VERSIONS_ENV]: PROTOCOL_VERSIONS.join(',') },
      allowUnsandboxed: grant.allowUnsandboxed,
    };
    if (this.opts.brief) spec.brief = true;
    if (this.opts.repoRoot) spec.repoRoot = this.opts.repoRoot;
    if (grant.networkAllow) spec.networkAllow = grant.networkAllow;
    if (tools.found.length > 0) spec.tools = tools.found;
    this.cacheDir = await this.prepareCacheDir();
    if (this.cacheDir !== undefined) spec.cacheDir = this.cacheDir;
    this.cmd = await launch(spec);
    trace.details.sandbox = this.cmd.description;
    try {
      this.proc = spawnPlugin(this.cmd);
    } catch (e) {
      throw new PluginError(
        PluginErrorCode.LaunchFailed,
        `${this.label}: could not start ${this.cmd.file}: ${(e as Error).message}`,
        this.label,
      );
    }
    const proc = this.proc;
    this.saidLaunched();
    void proc.exited.then((info) => this.onExit(info));
    proc.stderr.on('data', (chunk: Buffer) => {
      this.active?.watchdog?.alive();
      this.stderr.push(chunk);
      this.addOutput(chunk.length);
    });
    proc.stderr.on('end', () => this.stderr.end());

    const conn = new Connection(proc.stdout, proc.stdin, {
      role: 'host',
      maxFrameBytes: this.opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    });
    this.conn = conn;
    conn.onClose((err) => this.onConnectionClosed(err));
    conn.onNotification('graph/file', (p) => this.onGraphFile(p));
    conn.onNotification('progress', (p) => this.onProgress(p));
    conn.onNotification('log', (p) => this.onLog(p));

    this.setState('handshaking');
    const maxFrameBytes = this.opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    const hello = await this.guard(
      conn.request(
        'hello',
        { protocolVersions: [...PROTOCOL_VERSIONS], host: { name: 'travsr', version: HOST_VERSION }, maxFrameBytes },
        { timeoutMs: this.opts.timeouts.handshakeMs },
      ),
      'handshake',
    );
    const manifest = plugin.manifest;
    if (hello.plugin.id !== manifest.id || hello.plugin.version !== manifest.version) {
      throw new PluginError(
        PluginErrorCode.HandshakeFailed,
        `${this.label}: the process introduced itself as ${hello.plugin.id}@${hello.plugin.version}, not as its manifest says; rebuild the plugin so its code and travsr-plugin.json agree`,
        this.label,
      );
    }
    if (!(PROTOCOL_VERSIONS as readonly string[]).includes(hello.protocolVersion)) {
      throw new PluginError(
        PluginErrorCode.HandshakeFailed,
        `${this.label}: chose protocol version ${hello.protocolVersion}, which this host (${PROTOCOL_VERSIONS.join(', ')}) did not offer`,
        this.label,
      );
    }
    const kindProblem = capabilityProblem(manifest, hello.capabilities);
    if (kindProblem) throw new PluginError(PluginErrorCode.HandshakeFailed, `${this.label}: ${kindProblem}`, this.label);
    this.helloResult = hello;
    trace.details.hello = hello;
    conn.setMaxFrameBytes(Math.min(maxFrameBytes, hello.maxFrameBytes));

    this.setState('initializing');
    const init: { root: string; corpus: string; options?: Record<string, unknown>; phases?: ('A' | 'B')[] } = {
      root: this.cmd.repoRootInside ?? '/',
      corpus: this.opts.corpus,
    };
    // Said only when the host will not ask for every phase: plugins built before the field existed reject it.
    const wanted = this.opts.phases?.filter((p) => hello.capabilities.phases.includes(p));
    if (wanted && wanted.length > 0 && wanted.length < hello.capabilities.phases.length) init.phases = wanted;
    if (this.opts.pluginOptions) init.options = this.opts.pluginOptions;
    if (declaresTools(manifest) || (this.opts.extraTools ?? []).length > 0 || this.opts.pluginOptions?.['scip'] !== undefined) {
      // Where each declared tool is, as the plugin sees it (bound at the same path); missing ones are absent.
      init.options = { ...init.options, tools: Object.fromEntries(tools.found.map((t) => [t.name, t.path])) };
    }
    if (this.cmd.cacheDirInside !== undefined) init.options = { ...init.options, cacheDir: this.cmd.cacheDirInside };
    const initResult = await this.guard(conn.request('initialize', init, { timeoutMs: this.opts.timeouts.requestMs }), 'initialize');
    trace.details.languages = initResult.languages;
    const offered = hello.capabilities.phases;
    // A plugin gains Phase B from the SCIP indexers users brought for its languages, when its initialize says so.
    const accepted = this.opts.pluginOptions?.['scip'] !== undefined ? [...offered, 'B' as const] : offered;
    this.phasesValue = (initResult.phases ?? offered).filter((p) => accepted.includes(p));
    this.unavailableValue = initResult.unavailable ?? [];
    if (this.unavailableValue.length > 0) trace.details.unavailable = this.unavailableValue;
    this.setState('ready');
  }

  /**
   * Runs `analyze`, delivering each streamed file to `handlers.onFile` (in order, with
   * back-pressure when it returns a promise). Aborting `signal` sends `cancel`.
   * @throws PluginError — the session may still be usable if the code is PLUGIN_REQUEST_FAILED or PLUGIN_REQUEST_CANCELLED.
   */
  async analyze(params: AnalyzeParams, handlers: AnalyzeHandlers, options: AnalyzeOptions = {}): Promise<AnalyzeOutcome> {
    const conn = this.readyConnection();
    const active: ActiveAnalyze = {
      id: undefined,
      languages: new Map(params.files.map((f) => [f.path, f.language])),
      seen: new Set(),
      handlers,
      queue: Promise.resolve(),
      queued: 0,
      analyzed: 0,
      failed: 0,
      handlerError: undefined,
    };
    this.active = active;
    this.setState('busy', `analyze ${params.files.length} file(s), phase ${params.phase}`);
    const deadlineMs = options.deadlineMs ?? analyzeDeadlineMs(this.opts.timeouts, params.files.length);
    const watchdog = new AnalyzeWatchdog({
      idleMs: this.opts.timeouts.analyzeIdleMs,
      deadlineMs,
      inbound: () => conn.stats,
      onExpired: (verdict) => this.fail(this.watchdogError(verdict, params.files.length, options.deadlineReason)),
    });
    active.watchdog = watchdog;
    try {
      const reqOpts: { signal?: AbortSignal; onId: (id: RequestId) => void } = { onId: (id) => (active.id = id) };
      if (options.signal) reqOpts.signal = options.signal;
      const result = await this.guard(conn.request('analyze', params, reqOpts), 'analyze');
      await active.queue;
      if (active.handlerError) throw active.handlerError;
      const missing = params.files.map((f) => f.path).filter((p) => !active.seen.has(p));
      this.recorder.count('analyzeRequests');
      return { result, analyzed: active.analyzed, failed: active.failed, missing };
    } finally {
      watchdog.stop();
      this.active = undefined;
      if (this.stateValue === 'busy') this.setState('ready');
      this.proc?.stdout.resume();
    }
  }

  /** The error that ends a session whose analyze request went silent or overran its deadline. */
  private watchdogError(verdict: WatchdogVerdict, files: number, deadlineReason?: string): PluginError {
    const see = `Check its stderr (\`travsr trace show ${this.recorder.trace.id}\`)`;
    if (verdict.kind === 'idle')
      return new PluginError(
        PluginErrorCode.Timeout,
        `${this.label} sent nothing for ${Math.round(verdict.idleMs / 1000)} s during analyze and looks hung (only files, logs and progress whose count advances show work); it was stopped. ${see}`,
        this.label,
        this.stderr.lastLines(),
      );
    const { analyzeBaseMs, analyzePerFileMs } = this.opts.timeouts;
    const why =
      deadlineReason ??
      `the deadline of a request of ${files} file(s): ${seconds(analyzeBaseMs)} s + ${seconds(analyzePerFileMs)} s per file, settable with analyze.deadline and analyze.deadlinePerFile`;
    return new PluginError(
      PluginErrorCode.Timeout,
      `${this.label} did not finish analyze within ${seconds(verdict.deadlineMs)} s (${why}), whatever progress it reported; it was stopped. ${see}`,
      this.label,
      this.stderr.lastLines(),
    );
  }

  /**
   * A model plugin's `embed` (texts → vectors) or `score` (query, candidates → scores). A plugin
   * that does not answer within `timeoutMs` is stopped (PLUGIN_TIMEOUT); one that answers with
   * an error leaves the session usable (PLUGIN_REQUEST_FAILED).
   */
  async model<M extends 'embed' | 'score'>(
    method: M,
    params: ParamsOf<M>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<ResultOf<M>> {
    const conn = this.readyConnection();
    this.setState(
      'busy',
      `${method} ${method === 'embed' ? (params as ParamsOf<'embed'>).texts.length : (params as ParamsOf<'score'>).candidates.length}`,
    );
    try {
      return (await this.guard(
        conn.requestUntyped(method, params, { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }),
        method,
      )) as ResultOf<M>;
    } finally {
      if (this.stateValue === 'busy') this.setState('ready');
    }
  }

  /** Sends `ping` and resolves with the round-trip time in milliseconds. */
  async ping(timeoutMs = this.opts.timeouts.requestMs): Promise<number> {
    const conn = this.connection();
    const nonce = Math.floor(Math.random() * 2 ** 31);
    const t0 = performance.now();
    const r = await this.guard(conn.request('ping', { nonce }, { timeoutMs }), 'ping');
    if (r.nonce !== nonce) {
      const err = new PluginError(PluginErrorCode.ProtocolViolation, `${this.label} answered ping with the wrong nonce`, this.label);
      this.fail(err);
      throw err;
    }
    return performance.now() - t0;
  }

  /**
   * Ends the session gracefully: `shutdown`, close stdin, wait; then SIGTERM, then SIGKILL.
   * Idempotent; resolves when the process is gone and the trace is written.
   */
  async stop(): Promise<void> {
    if (this.finished || this.stateValue === 'stopping') return this.ended;
    if (this.failure || !this.proc) return this.ended;
    this.setState('stopping');
    const grace = this.opts.timeouts.shutdownGraceMs;
    const proc = this.proc;
    try {
      await this.conn?.request('shutdown', {}, { timeoutMs: grace });
    } catch {
      // a plugin that cannot answer shutdown is stopped by signals below
    }
    proc.stdin.end();
    if (await settlesWithin(this.ended, grace)) return;
    proc.kill('SIGTERM');
    if (await settlesWithin(this.ended, grace)) return;
    proc.kill('SIGKILL');
    await this.ended;
  }

  /** Kills the process at once and ends the session with `error`. */
  kill(error: PluginError): Promise<void> {
    this.fail(error);
    return this.ended;
  }

  private readyConnection(): Connection {
    if (this.stateValue !== 'ready') {
      throw this.failure ?? new PluginError(PluginErrorCode.Stopped, `${this.label} is ${this.stateValue}, not ready for work`, this.label);
    }
    return this.connection();
  }

  private connection(): Connection {
    if (this.failure) throw this.failure;
    if (!this.conn || this.finished) throw new PluginError(PluginErrorCode.Stopped, `${this.label} is not running`, this.label);
    return this.conn;
  }

  /** Races a request against the session failing, and turns wire errors into PluginErrors. */
  private async guard<T>(p: Promise<T>, what: string): Promise<T> {
    try {
      return await Promise.race([p, this.fatal]);
    } catch (e) {
      let code = errorCode(e);
      if (code === 'CONNECTION_CLOSED' && !this.failure && this.proc) {
        // stdout ended before the exit status arrived: wait for it, to report how the plugin died
        await settlesWithin(
          this.proc.exited.then(() => this.fatal.catch(() => undefined)),
          2_000,
        );
      }
      if (this.failure) throw this.failure;
      code = errorCode(e);
      if (code === 'REQUEST_TIMEOUT') {
        const err = new PluginError(
          what === 'handshake' ? PluginErrorCode.HandshakeFailed : PluginErrorCode.Timeout,
          `${this.label} did not answer ${what} in time (${(e as Error).message}); it was stopped`,
          this.label,
          this.stderr.lastLines(),
        );
        this.fail(err);
        throw err;
      }
      if (code === 'REMOTE_ERROR') {
        const wire = (e as { wire?: { code: number; message: string } }).wire;
        if (what === 'handshake' || what === 'initialize') {
          const err = new PluginError(
            PluginErrorCode.HandshakeFailed,
            `${this.label} refused ${what}: ${wire?.message ?? (e as Error).message}`,
            this.label,
          );
          this.fail(err);
          throw err;
        }
        throw new PluginError(
          wire?.code === -32800 ? PluginErrorCode.Cancelled : PluginErrorCode.RequestFailed,
          `${this.label}: ${wire?.message ?? (e as Error).message}`,
          this.label,
        );
      }
      if (code === 'SCHEMA_VIOLATION') {
        const err = new PluginError(
          PluginErrorCode.ProtocolViolation,
          `${this.label} answered ${what} with invalid data: ${(e as Error).message}; the session was ended`,
          this.label,
        );
        this.fail(err);
        throw err;
      }
      throw e;
    }
  }

  private onGraphFile(file: GraphFileParams): void {
    const active = this.active;
    if (!active || active.id === undefined || file.requestId !== active.id) {
      throw new PluginError(
        PluginErrorCode.ProtocolViolation,
        `${this.label} sent graph/file for ${file.path} outside of an analyze request (requestId ${String(file.requestId)})`,
        this.label,
      );
    }
    const language = active.languages.get(file.path);
    if (language === undefined) {
      throw new PluginError(
        PluginErrorCode.ProtocolViolation,
        `${this.label} sent graph/file for ${file.path}, which was not requested`,
        this.label,
      );
    }
    if (active.seen.has(file.path)) {
      throw new PluginError(PluginErrorCode.ProtocolViolation, `${this.label} sent graph/file for ${file.path} twice`, this.label);
    }
    active.seen.add(file.path);
    active.watchdog?.alive();
    const problem = language !== file.language ? `language ${file.language} was sent for a ${language} file` : this.foreignData(file);
    let delivered = file;
    if (problem) {
      this.recorder.count('rejectedFiles');
      this.opts.logger.log('warn', `[${this.label}] rejected ${file.path}: ${problem}`);
      delivered = {
        ...file,
        language,
        status: 'failed',
        nodes: [],
        edges: [],
        refs: [],
        diagnostics: [{ severity: 'error', code: 'HOST_REJECTED', message: `the host rejected this file's graph: ${problem}` }],
      };
    }
    if (delivered.status === 'ok') {
      active.analyzed++;
      this.recorder.count('files');
      this.recorder.count('nodes', delivered.nodes.length);
      this.recorder.count('edges', delivered.edges.length);
      this.recorder.count('refs', delivered.refs?.length ?? 0);
    } else {
      active.failed++;
      this.recorder.count('failedFiles');
    }
    active.queued++;
    if (active.queued > MAX_QUEUED_FILES) this.proc?.stdout.pause();
    active.queue = active.queue.then(async () => {
      try {
        if (!active.handlerError) await active.handlers.onFile(delivered);
      } catch (e) {
        active.handlerError = e instanceof Error ? e : new Error(String(e));
      } finally {
        active.queued--;
        if (active.queued <= MAX_QUEUED_FILES / 2) this.proc?.stdout.resume();
      }
    });
  }

  /** Why a file's graph reaches outside what this plugin may write, or undefined. */
  private foreignData(file: GraphFileParams): string | undefined {
    const corpus = this.opts.corpus;
    for (const n of file.nodes) {
      if (n.vname.path !== file.path) return `node ${n.vname.signature} claims path ${n.vname.path}`;
      if (n.vname.corpus !== corpus) return `node ${n.vname.signature} claims corpus ${JSON.stringify(n.vname.corpus)}`;
    }
    for (const e of file.edges) {
      if (e.src.path !== file.path || e.src.corpus !== corpus)
        return `an edge starts at ${e.src.path}#${e.src.signature}, outside this file`;
    }
    for (const r of file.refs ?? []) {
      if (r.src.path !== file.path || r.src.corpus !== corpus)
        return `a reference starts at ${r.src.path}#${r.src.signature}, outside this file`;
    }
    return undefined;
  }

  private onProgress(p: ProgressParams): void {
    this.addOutput(32 + (p.message?.length ?? 0));
    if (this.active && p.requestId === this.active.id) {
      this.active.watchdog?.progress(p.done);
      this.active.handlers.onProgress?.(p);
    }
  }

  private onLog(p: LogParams): void {
    this.addOutput(p.message.length);
    this.recorder.count('logMessages');
    this.active?.watchdog?.alive();
    this.opts.logger.log(p.level, `[${this.label}] ${p.message}`);
  }

  private addOutput(bytes: number): void {
    this.outputBytes += bytes;
    if (this.outputBytes > this.opts.limits.outputBytes && !this.failure) {
      this.fail(
        new PluginError(
          PluginErrorCode.OutputLimit,
          `${this.label} wrote more than ${this.opts.limits.outputBytes} bytes of logs and progress (the output limit) and was stopped; a plugin should log little, or raise limits.outputBytes`,
          this.label,
          this.stderr.lastLines().slice(-3),
        ),
      );
    }
  }

  private onConnectionClosed(err?: Error): void {
    if (this.finished || this.stateValue === 'stopping') return;
    if (err) {
      const code = errorCode(err);
      if (err instanceof PluginError) {
        this.fail(err);
      } else if (code?.startsWith('FRAME_') || code === 'SCHEMA_VIOLATION') {
        this.fail(
          new PluginError(
            PluginErrorCode.ProtocolViolation,
            `${this.label} broke the protocol (${code}): ${err.message}; the session was ended. Run \`travsr plugin test ${this.opts.plugin.dir}\` to see what it sends`,
            this.label,
            this.stderr.lastLines(),
          ),
        );
      } else {
        this.fail(
          new PluginError(PluginErrorCode.Crashed, `${this.label}: connection failed: ${err.message}`, this.label, this.stderr.lastLines()),
        );
      }
    }
    // A clean end of stdout: the exit handler reports the crash with the exit status.
  }

  private onExit(info: ExitInfo): void {
    this.exitInfo = info;
    this.recorder.trace.details.exit = info;
    if (!this.failure && this.stateValue !== 'stopping') {
      const lines = this.stderr.lastLines();
      const how = info.signal ? `was killed by ${info.signal}${signalReason(info.signal)}` : `exited with code ${String(info.code)}`;
      const phase =
        this.stateValue === 'handshaking'
          ? 'before answering hello'
          : this.stateValue === 'busy'
            ? 'in the middle of analyze'
            : `while ${this.stateValue}`;
      this.fail(
        new PluginError(
          this.stateValue === 'handshaking' || this.stateValue === 'launching' ? PluginErrorCode.HandshakeFailed : PluginErrorCode.Crashed,
          `${this.label} ${how} ${phase}${lines.length ? `; last stderr: ${lines.slice(-3).join(' | ')}` : ''}`,
          this.label,
          lines,
        ),
      );
    }
    void this.finish();
  }

  /** Records the first fatal error, kills the process and closes the connection. */
  private fail(err: PluginError): void {
    if (this.failure || this.finished) return;
    this.failure = err;
    const crashed = err.code === PluginErrorCode.Crashed;
    this.setState(crashed ? 'crashed' : 'error', `${err.code}: ${err.message}`);
    this.failFatal(err);
    this.proc?.kill('SIGKILL');
    this.conn?.close(err);
    if (!this.proc) void this.finish();
  }

  /**
   * Creates the plugin's cache directory when its manifest sets `constraints.cache` and the
   * session has a repository. A cache is an optimisation: when it cannot be made the plugin
   * runs without one, and the log says why.
   */
  private async prepareCacheDir(): Promise<string | undefined> {
    const { manifest } = this.opts.plugin;
    if (manifest.constraints.cache !== true || this.opts.repoRoot === undefined) return undefined;
    try {
      const dir = await preparePluginCacheDir(manifest, this.opts.repoRoot);
      this.recorder.trace.details.cacheDir = dir;
      return dir;
    } catch (e) {
      this.opts.logger.log(
        'warn',
        `[${this.label}] runs without its cache directory: it could not be created (${(e as Error).message}); check that ~/.travsr (or TRAVSR_HOME) is writable`,
      );
      return undefined;
    }
  }

  /** Empties the cache directory once it holds more than `plugins.cacheMax`; the plugin has exited. */
  private async capCacheDir(): Promise<void> {
    if (this.cacheDir === undefined) return;
    const maxMiB = this.opts.cacheMaxMiB ?? DEFAULT_PLUGIN_CACHE_MAX_MIB;
    try {
      const r = await enforceCacheCap(this.cacheDir, maxMiB);
      if (r.emptied)
        this.opts.logger.log(
          'info',
          `[${this.label}] emptied its cache ${this.cacheDir}: it held more than plugins.cacheMax (${maxMiB} MiB) or more files than the host counts; the plugin rebuilds what it needs (raise plugins.cacheMax to keep more)`,
        );
    } catch (e) {
      this.opts.logger.log('warn', `[${this.label}] could not check the size of its cache ${this.cacheDir}: ${(e as Error).message}`);
    }
  }

  private async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (!this.failure) this.setState('stopped');
    if (this.conn) {
      const s = this.conn.stats;
      this.recorder.count('framesIn', s.framesIn);
      this.recorder.count('framesOut', s.framesOut);
      this.recorder.count('bytesIn', s.bytesIn);
      this.recorder.count('bytesOut', s.bytesOut);
      this.conn.close();
    }
    this.recorder.count('stderrLines', this.stderr.lines);
    if (this.exitInfo === undefined && this.proc) this.exitInfo = await this.proc.exited;
    try {
      await this.cmd?.cleanup();
    } catch (e) {
      this.opts.logger.log('warn', `[${this.label}] sandbox cleanup failed: ${(e as Error).message}`);
    }
    await this.capCacheDir();
    const trace = this.recorder.finish(this.failure ? { code: this.failure.code, message: this.failure.message } : undefined);
    if (this.failure?.stderrTail?.length) trace.details.stderrTail = this.failure.stderrTail;
    try {
      this.opts.onTrace?.(trace);
    } catch (e) {
      this.opts.logger.log('warn', `could not record trace ${trace.id}: ${(e as Error).message}`);
    }
    this.resolveEnded();
  }
}

function seconds(ms: number): string {
  return ms >= 10_000 || ms % 1000 === 0 ? String(Math.round(ms / 1000)) : (ms / 1000).toFixed(1);
}

function signalReason(signal: string): string {
  switch (signal) {
    case 'SIGXCPU':
      return ' (it used up its CPU time limit)';
    case 'SIGXFSZ':
      return ' (it wrote a file over its size limit)';
    case 'SIGKILL':
      return ' (killed: out of memory or process limit, or by the host)';
    case 'SIGSEGV':
    case 'SIGABRT':
    case 'SIGTRAP':
      return ' (it crashed; out of memory is a common cause under the sandbox memory limit)';
    default:
      return '';
  }
}

function toPluginError(e: unknown, label: string): PluginError {
  if (e instanceof PluginError) return e;
  const code = errorCode(e);
  const msg = e instanceof Error ? e.message : String(e);
  const known = Object.values(PluginErrorCode) as string[];
  const mapped = code && known.includes(code) ? (code as PluginErrorCode) : PluginErrorCode.LaunchFailed;
  const err = new PluginError(mapped, `${label}: ${msg}`, label);
  (err as { cause?: unknown }).cause = e;
  return err;
}

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  const done = p.then(() => true);
  const won = await Promise.race([done, timeout]);
  clearTimeout(timer);
  return won;
}

/** Why a plugin's `hello` capabilities do not fit its manifest's kind, or undefined. */
function capabilityProblem(manifest: PluginManifest, caps: HelloResult['capabilities']): string | undefined {
  if (manifest.kind === 'model') {
    const wanted = manifest.model?.task === 'rerank' ? 'score' : 'embed';
    if (!caps.model?.includes(wanted))
      return `is a ${manifest.model?.task ?? ''} model plugin but its process does not serve ${wanted}; rebuild it so its code and travsr-plugin.json agree`;
    return undefined;
  }
  if (caps.phases.length === 0) return 'announced no analysis phase; an analyzer runs phase A, B or both';
  return undefined;
}
