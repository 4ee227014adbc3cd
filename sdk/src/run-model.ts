import {
  DEFAULT_MAX_FRAME_BYTES,
  WireErrorCode,
  WireException,
  type EmbedParams,
  type EmbedResult,
  type HelloParams,
  type HelloResult,
  type InitializeParams,
  type InitializeResult,
  type LogLevel,
  type PingParams,
  type PingResult,
  type ScoreParams,
  type ScoreResult,
} from '@travsr/protocol';
import { Connection, type RequestContext } from '@travsr/protocol/node';
import { logToStderr, setLogSink } from './log.js';
import { chooseProtocolVersion, exitCodeOnClose, ID_PATTERN, runPluginProcess, SEMVER_PATTERN, type SessionIo } from './process-io.js';
import { SDK_NAME, SDK_VERSION } from './version.js';

/** What a model plugin's hooks are given when the session starts. */
export interface ModelSessionInfo {
  /** Plugin options from the host's configuration, opaque to the protocol. */
  options: Record<string, unknown>;
  log: (level: LogLevel, message: string, data?: unknown) => void;
}

/**
 * A model plugin: a learned model served to the host over the protocol (`embed` for an
 * embedding model, `score` for a cross-encoder). Give exactly the hooks of the model's task.
 */
export interface ModelDefinition {
  /** The plugin id, as in travsr-plugin.json. */
  id: string;
  /** The plugin version, as in travsr-plugin.json. */
  version: string;
  /** Loads the model (on `initialize`); a thrown error fails the session with its message. */
  load?(info: ModelSessionInfo): Promise<void> | void;
  /** One unit-length vector per text, in order. */
  embed?(texts: readonly string[], signal: AbortSignal): Promise<ArrayLike<number>[]>;
  /** One relevance score per candidate, in order; higher is more relevant. */
  score?(query: string, candidates: readonly string[], signal: AbortSignal): Promise<ArrayLike<number>>;
  /** Called on `shutdown`, before the process exits. */
  shutdown?(): Promise<void> | void;
  /** Protocol versions spoken (default: the SDK's). */
  protocolVersions?: readonly string[];
}

type State = 'awaiting-hello' | 'ready' | 'initialized' | 'shutting-down';

/** One protocol session of a model plugin on a pair of streams. Internal: plugins call {@link runModel}. */
export class ModelSession {
  private readonly conn: Connection;
  private state: State = 'awaiting-hello';
  private readonly stopAll = new AbortController();
  private ended!: () => void;
  private readonly endedPromise = new Promise<void>((resolve) => (this.ended = resolve));

  constructor(
    private readonly def: ModelDefinition,
    private readonly io: SessionIo,
  ) {
    this.conn = new Connection(io.input, io.output, { role: 'plugin', maxFrameBytes: DEFAULT_MAX_FRAME_BYTES });
  }

  /** Serves requests until the connection ends; resolves just before the exit. */
  run(): Promise<void> {
    const c = this.conn;
    c.onRequest('hello', (p) => this.hello(p));
    c.onRequest('initialize', (p) => this.initialize(p));
    c.onRequest('embed', (p, ctx) => this.embed(p, ctx));
    c.onRequest('score', (p, ctx) => this.score(p, ctx));
    c.onRequest('ping', (p) => this.ping(p));
    c.onRequest('shutdown', () => this.shutdown());
    c.onClose((err) => {
      this.stopAll.abort();
      setLogSink(undefined);
      const code = exitCodeOnClose(err, this.state === 'shutting-down', this.def.id, this.io);
      if (code !== undefined) this.finish(code);
    });
    return this.endedPromise;
  }

  private finish(code: number): void {
    this.ended();
    this.io.exit(code);
  }

  private require(method: string, initialized: boolean): void {
    if (this.state === 'shutting-down')
      throw new WireException(WireErrorCode.ShuttingDown, `${this.def.id} is shutting down and accepts no ${method}`);
    if (this.state === 'awaiting-hello')
      throw new WireException(WireErrorCode.NotInitialized, `${method} before hello: the first request must be hello`);
    if (initialized && this.state !== 'initialized')
      throw new WireException(WireErrorCode.NotInitialized, `${method} before initialize: send initialize first`);
  }

  private hello(params: HelloParams): HelloResult {
    if (this.state !== 'awaiting-hello')
      throw new WireException(WireErrorCode.InvalidRequest, 'hello was already answered in this session');
    const chosen = chooseProtocolVersion(params.protocolVersions, this.def.protocolVersions, `${this.def.id}@${this.def.version}`);
    this.conn.setMaxFrameBytes(Math.min(params.maxFrameBytes, DEFAULT_MAX_FRAME_BYTES));
    this.state = 'ready';
    setLogSink((level, message, data) => this.log(level, message, data));
    const served: ('embed' | 'score')[] = [];
    if (this.def.embed) served.push('embed');
    if (this.def.score) served.push('score');
    return {
      protocolVersion: chosen,
      plugin: { id: this.def.id, version: this.def.version },
      sdk: { name: SDK_NAME, version: SDK_VERSION },
      capabilities: { phases: [], cancellation: true, progress: false, model: served },
      maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
    };
  }

  private async initialize(params: InitializeParams): Promise<InitializeResult> {
    this.require('initialize', false);
    try {
      await this.def.load?.({ options: params.options ?? {}, log: (l, m, d) => this.log(l, m, d) });
    } catch (e) {
      this.io.stderr(`${this.def.id}: the model could not be loaded: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new WireException(WireErrorCode.InternalError, `${this.def.id} could not load its model: ${(e as Error).message ?? String(e)}`);
    }
    this.state = 'initialized';
    return { languages: [] };
  }

  private async embed(params: EmbedParams, rc: RequestContext): Promise<EmbedResult> {
    this.require('embed', true);
    if (!this.def.embed)
      throw new WireException(WireErrorCode.MethodNotFound, `${this.def.id} is not an embedding model: it serves no embed`);
    const signal = AbortSignal.any([rc.signal, this.stopAll.signal]);
    const vectors = await this.serve(() => this.def.embed!(params.texts, signal), 'embed');
    if (vectors.length !== params.texts.length)
      throw new WireException(
        WireErrorCode.InternalError,
        `${this.def.id} returned ${vectors.length} vectors for ${params.texts.length} texts`,
      );
    return { vectors: vectors.map((v) => Array.from(v)) };
  }

  private async score(params: ScoreParams, rc: RequestContext): Promise<ScoreResult> {
    this.require('score', true);
    if (!this.def.score) throw new WireException(WireErrorCode.MethodNotFound, `${this.def.id} is not a cross-encoder: it serves no score`);
    const signal = AbortSignal.any([rc.signal, this.stopAll.signal]);
    const scores = await this.serve(() => this.def.score!(params.query, params.candidates, signal), 'score');
    if (scores.length !== params.candidates.length)
      throw new WireException(
        WireErrorCode.InternalError,
        `${this.def.id} returned ${scores.length} scores for ${params.candidates.length} candidates`,
      );
    return { scores: Array.from(scores) };
  }

  /** Runs a model hook; its failure becomes an InternalError answer with the message (the session goes on). */
  private async serve<T>(hook: () => Promise<T>, method: string): Promise<T> {
    try {
      return await hook();
    } catch (e) {
      if (e instanceof WireException) throw e;
      this.io.stderr(`${this.def.id}: ${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new WireException(WireErrorCode.InternalError, `${this.def.id} ${method} failed: ${(e as Error).message ?? String(e)}`);
    }
  }

  private ping(params: PingParams): PingResult {
    this.require('ping', false);
    return params.nonce === undefined ? {} : { nonce: params.nonce };
  }

  private async shutdown(): Promise<Record<string, never>> {
    this.require('shutdown', false);
    this.state = 'shutting-down';
    this.stopAll.abort();
    try {
      await this.def.shutdown?.();
    } catch (e) {
      this.io.stderr(`${this.def.id}: shutdown hook failed: ${(e as Error).message ?? String(e)}`);
    }
    await this.conn.writeRaw(new Uint8Array(0)).catch(() => undefined);
    setImmediate(() => {
      setLogSink(undefined);
      this.finish(0);
    });
    return {};
  }

  private log(level: LogLevel, message: string, data?: unknown): void {
    if (this.state === 'awaiting-hello' || this.conn.isClosed) {
      logToStderr(level, message, data);
      return;
    }
    this.conn.notify('log', { level, message: message.slice(0, 16384) }).catch(() => logToStderr(level, message, data));
  }
}

/**
 * The harness a model plugin's entry point calls: speaks the protocol on stdin/stdout
 * (hello, initialize — where the model is loaded —, embed or score, ping, shutdown) and
 * returns when the session ends. Like {@link runAnalyzer}, started by hand it explains
 * itself and exits with code 1.
 *
 * @example
 * ```ts
 * import { runModel } from '@travsr/sdk';
 * await runModel({ id: 'model-tiny', version: '1.0.0', load: () => model.load(), embed: (texts) => model.embed(texts) });
 * ```
 */
export async function runModel(definition: ModelDefinition): Promise<void> {
  await runPluginProcess({ name: 'runModel', kind: 'model' }, definition, definitionProblem(definition), (io) =>
    new ModelSession(definition, io).run(),
  );
}

function definitionProblem(def: ModelDefinition): string | undefined {
  if (typeof def.id !== 'string' || !ID_PATTERN.test(def.id))
    return `id ${JSON.stringify(def.id)} must look like "model-minilm" (lowercase, digits, . _ -)`;
  if (typeof def.version !== 'string' || !SEMVER_PATTERN.test(def.version))
    return `version ${JSON.stringify(def.version)} of ${def.id} must be semver like "1.2.3"`;
  if (!def.embed && !def.score) return `${def.id} defines neither embed nor score`;
  return undefined;
}
