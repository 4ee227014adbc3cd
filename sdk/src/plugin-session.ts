import {
  WireErrorCode,
  WireException,
  type HelloParams,
  type HelloResult,
  type InitializeParams,
  type InitializeResult,
  type LogLevel,
  type PingParams,
  type PingResult,
} from '@travsr/protocol';
import { Connection } from '@travsr/protocol/node';
import { logToStderr, setLogSink } from './log.js';
import { chooseProtocolVersion, exitCodeOnClose, type SessionIo } from './process-io.js';
import { SDK_NAME, SDK_VERSION } from './version.js';

/** Where a plugin session is: hello → initialize → its work → shutdown. */
export type SessionState = 'awaiting-hello' | 'ready' | 'initialized' | 'shutting-down';

/** What every plugin definition gives the session it runs in. */
export interface PluginIdentity {
  /** The plugin id, as in travsr-plugin.json. */
  id: string;
  /** The plugin version, as in travsr-plugin.json. */
  version: string;
  /** Protocol versions spoken (default: the SDK's). */
  protocolVersions?: readonly string[];
  /** Called on `shutdown`, before the process exits. */
  shutdown?(): Promise<void> | void;
}

/** The message of an error a plugin's hook threw. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * What the SDK's plugin sessions share, analyzer ({@link AnalyzerSession}) or model
 * ({@link ModelSession}): the connection, the state machine, `hello` (version and frame size
 * agreed, the plugin's capabilities), `ping`, `shutdown` (in-flight work settled, the plugin's
 * hook, every queued frame written, then the exit), log notifications, and the exit when the
 * host goes away. A session adds `initialize`, the methods of its kind and its capabilities.
 */
export abstract class PluginSession<D extends PluginIdentity> {
  protected readonly conn: Connection;
  protected state: SessionState = 'awaiting-hello';
  /** Aborted on shutdown and when the host goes away: every request's work stops. */
  protected readonly stopAll = new AbortController();
  private ended!: () => void;
  private readonly endedPromise = new Promise<void>((resolve) => (this.ended = resolve));

  constructor(
    protected readonly def: D,
    protected readonly io: SessionIo,
    /** The largest frame this plugin takes or sends. */
    protected readonly ownMaxFrameBytes: number,
  ) {
    this.conn = new Connection(io.input, io.output, { role: 'plugin', maxFrameBytes: ownMaxFrameBytes });
  }

  /** Serves requests until the connection ends; resolves just before the exit. */
  run(): Promise<void> {
    const c = this.conn;
    c.onRequest('hello', (p) => this.hello(p));
    c.onRequest('initialize', (p) => this.initialize(p));
    this.serveMethods(c);
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

  /** Answers `initialize` (state `ready` → `initialized`). */
  protected abstract initialize(params: InitializeParams): Promise<InitializeResult>;
  /** Registers the requests of the session's kind (`analyze`; `embed`, `score`). */
  protected abstract serveMethods(c: Connection): void;
  /** The capabilities `hello` announces. */
  protected abstract capabilities(): HelloResult['capabilities'];
  /** Waits for the work still running when `shutdown` came (after `stopAll` was aborted). */
  protected settle(): Promise<unknown> {
    return Promise.resolve();
  }

  /** Refuses a request the session's state does not allow. */
  protected requireState(method: string, needInitialize: boolean): void {
    if (this.state === 'shutting-down')
      throw new WireException(WireErrorCode.ShuttingDown, `${this.def.id} is shutting down and accepts no ${method}`);
    if (this.state === 'awaiting-hello')
      throw new WireException(WireErrorCode.NotInitialized, `${method} before hello: the first request must be hello`);
    if (needInitialize && this.state !== 'initialized')
      throw new WireException(WireErrorCode.NotInitialized, `${method} before initialize: send initialize first`);
  }

  /** Sends a log line to the host (to stderr before hello or once the connection is gone). */
  protected sendLog(level: LogLevel, message: string, data?: unknown): void {
    if (this.state === 'awaiting-hello' || this.conn.isClosed) {
      logToStderr(level, message, data);
      return;
    }
    const params: { level: LogLevel; message: string; data?: unknown } = { level, message: message.slice(0, 16384) };
    if (data !== undefined) {
      try {
        params.data = JSON.parse(JSON.stringify(data)) as unknown;
      } catch {
        params.data = '[unserializable data]';
      }
    }
    try {
      this.conn.notify('log', params).catch(() => logToStderr(level, message, data));
    } catch {
      logToStderr(level, message, data);
    }
  }

  private hello(params: HelloParams): HelloResult {
    if (this.state === 'shutting-down') throw new WireException(WireErrorCode.ShuttingDown, `${this.def.id} is shutting down`);
    if (this.state !== 'awaiting-hello')
      throw new WireException(WireErrorCode.InvalidRequest, 'hello was already answered in this session');
    const chosen = chooseProtocolVersion(params.protocolVersions, this.def.protocolVersions, `${this.def.id}@${this.def.version}`);
    this.conn.setMaxFrameBytes(Math.min(params.maxFrameBytes, this.ownMaxFrameBytes));
    this.state = 'ready';
    setLogSink((level, message, data) => this.sendLog(level, message, data));
    return {
      protocolVersion: chosen,
      plugin: { id: this.def.id, version: this.def.version },
      sdk: { name: SDK_NAME, version: SDK_VERSION },
      capabilities: this.capabilities(),
      maxFrameBytes: this.ownMaxFrameBytes,
    };
  }

  private ping(params: PingParams): PingResult {
    this.requireState('ping', false);
    return params.nonce === undefined ? {} : { nonce: params.nonce };
  }

  private async shutdown(): Promise<Record<string, never>> {
    this.requireState('shutdown', false);
    this.state = 'shutting-down';
    this.stopAll.abort();
    await this.settle();
    try {
      await this.def.shutdown?.();
    } catch (e) {
      this.io.stderr(`${this.def.id}: shutdown hook failed: ${errorText(e)}`);
    }
    // Wait until every frame queued so far is handed to the stream, then answer and exit
    // once the answer is queued too (setImmediate runs after the response's microtasks).
    await this.conn.writeRaw(new Uint8Array(0)).catch(() => undefined);
    setImmediate(() => {
      setLogSink(undefined);
      this.finish(0);
    });
    return {};
  }

  private finish(code: number): void {
    this.ended();
    this.io.exit(code);
  }
}
