import {
  DEFAULT_MAX_FRAME_BYTES,
  errorCode,
  PLUGIN_COOKIE_ENV,
  PLUGIN_COOKIE_VALUE,
  PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS_ENV,
  type GraphFileParams,
  type HelloResult,
  type InitializeResult,
  type LogParams,
  type MethodName,
  type PluginManifest,
  type ProgressParams,
  type RequestId,
} from '@travsr/protocol';
import { Connection, ConnectionError, type ResultOf } from '@travsr/protocol/node';
import type { Launched, Launcher, LaunchedProcess, ProcessExit } from './launch.js';

const STDERR_KEEP = 16 * 1024;

/** The environment the host gives a plugin: the cookie and the protocol versions. */
export function hostEnv(withCookie = true): Record<string, string> {
  const env: Record<string, string> = { [PROTOCOL_VERSIONS_ENV]: PROTOCOL_VERSIONS.join(',') };
  if (withCookie) env[PLUGIN_COOKIE_ENV] = PLUGIN_COOKIE_VALUE;
  return env;
}

/** A failure of one step, with a message meant for the report. */
export class StepFailure extends Error {
  override readonly name = 'StepFailure';
}

/** Everything a test needs to start a plugin. */
export interface SessionTarget {
  pluginDir: string;
  manifest: PluginManifest;
  repoRoot: string;
  launch: Launcher;
}

/**
 * One plugin process driven from the host side, for the conformance kit and snapshot
 * tests: a host-role {@link Connection} on its pipes, every notification collected, the
 * tail of stderr kept for failure messages.
 */
export class PluginSession {
  readonly graphFiles: GraphFileParams[] = [];
  readonly progress: ProgressParams[] = [];
  readonly logs: LogParams[] = [];
  /** Raw bytes seen on stdout when no connection is attached. */
  rawStdoutBytes = 0;
  exit: ProcessExit | undefined;
  /** How far the session got: started, `hello` answered, `initialize` answered. */
  stage: 'started' | 'hello' | 'initialized' = 'started';
  readonly conn: Connection | undefined;
  private stderrText = '';
  private stderrDropped = 0;
  private lastId: RequestId | undefined;
  private negotiatedMax = DEFAULT_MAX_FRAME_BYTES;

  private constructor(
    readonly launched: Launched,
    withConnection: boolean,
  ) {
    const p = launched.process;
    p.stderr.setEncoding('utf8');
    p.stderr.on('data', (chunk: string) => {
      this.stderrText += chunk;
      if (this.stderrText.length > STDERR_KEEP * 2) {
        this.stderrDropped += this.stderrText.length - STDERR_KEEP;
        this.stderrText = this.stderrText.slice(-STDERR_KEEP);
      }
    });
    void p.exited.then((e) => (this.exit = e));
    if (withConnection) {
      const conn = new Connection(p.stdout, p.stdin, { role: 'host' });
      conn.onNotification('graph/file', (params) => this.graphFiles.push(params));
      conn.onNotification('progress', (params) => this.progress.push(params));
      conn.onNotification('log', (params) => this.logs.push(params));
      this.conn = conn;
    } else {
      p.stdout.on('data', (chunk: Buffer) => (this.rawStdoutBytes += chunk.length));
    }
  }

  /** Starts the plugin; `cookie: false` starts it the way a user would by hand. */
  static async start(target: SessionTarget, options: { cookie?: boolean; connect?: boolean } = {}): Promise<PluginSession> {
    let launched: Launched;
    try {
      launched = await target.launch({
        env: hostEnv(options.cookie ?? true),
        repoRoot: target.repoRoot,
        pluginDir: target.pluginDir,
        manifest: target.manifest,
      });
    } catch (e) {
      throw new StepFailure(`the launcher could not start the plugin: ${(e as Error).message}`);
    }
    return new PluginSession(launched, options.connect ?? true);
  }

  get process(): LaunchedProcess {
    return this.launched.process;
  }

  /** The frame limit agreed in `hello` (the smaller of both sides). */
  get maxFrameBytes(): number {
    return this.negotiatedMax;
  }

  /** Sends a request; resolves with the result, rejects with a {@link ConnectionError} (`REMOTE_ERROR` carries `wire`). */
  request<M extends MethodName>(
    method: M | string,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ResultOf<M & MethodName>> {
    const conn = this.requireConnection();
    const options: { timeoutMs: number; signal?: AbortSignal; onId: (id: RequestId) => void } = {
      timeoutMs,
      onId: (id) => (this.lastId = id),
    };
    if (signal) options.signal = signal;
    // the conformance kit sends unknown methods and invalid params on purpose
    return conn.requestUntyped(method, params, options) as Promise<ResultOf<M & MethodName>>;
  }

  /**
   * The id of the request sent last (set as soon as {@link request} is called): the
   * `graph/file` notifications of an `analyze` must name it.
   */
  get lastRequestId(): RequestId | undefined {
    return this.lastId;
  }

  /** `hello` as a host sends it; checks nothing but the schema. */
  async hello(timeoutMs: number): Promise<HelloResult> {
    const result = await this.request(
      'hello',
      {
        protocolVersions: [...PROTOCOL_VERSIONS],
        host: { name: 'travsr-conformance', version: '1' },
        maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
      },
      timeoutMs,
    );
    this.negotiatedMax = Math.min(DEFAULT_MAX_FRAME_BYTES, result.maxFrameBytes);
    this.conn?.setMaxFrameBytes(this.negotiatedMax);
    this.stage = 'hello';
    return result;
  }

  /** `hello` then `initialize` on the repository root; throws a {@link StepFailure} naming the step. */
  async handshake(timeoutMs: number, corpus: string): Promise<{ hello: HelloResult; initialize: InitializeResult }> {
    let hello: HelloResult;
    try {
      hello = await this.hello(timeoutMs);
    } catch (e) {
      throw new StepFailure(`setup: hello failed: ${this.describe(e)}`);
    }
    try {
      return { hello, initialize: await this.initialize(timeoutMs, corpus) };
    } catch (e) {
      throw new StepFailure(`setup: initialize failed: ${this.describe(e)}`);
    }
  }

  /** `initialize` of the repository the plugin was launched for, after {@link hello}. */
  async initialize(timeoutMs: number, corpus: string): Promise<InitializeResult> {
    const result = await this.request('initialize', { root: this.launched.repoRootInside, corpus }, timeoutMs);
    this.stage = 'initialized';
    return result;
  }

  /** Waits for the process to end; `undefined` if it is still running after `timeoutMs`. */
  async waitExit(timeoutMs: number): Promise<ProcessExit | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    try {
      return await Promise.race([this.process.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kills the process if it still runs and waits for it (bounded). */
  async stop(): Promise<void> {
    this.conn?.close();
    if (this.exit) return;
    this.process.kill('SIGKILL');
    await this.waitExit(5000);
  }

  /** Waits until stderr has drained after an exit, so the tail is complete. */
  async settleStderr(): Promise<void> {
    const s = this.process.stderr;
    if (s.readableEnded || s.destroyed) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 300);
      s.once('end', () => {
        clearTimeout(t);
        resolve();
      });
      s.once('close', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Everything the plugin wrote on stderr (the last 16 KiB when it wrote more). */
  get stderr(): string {
    return this.stderrDropped > 0 ? `[${this.stderrDropped} earlier characters dropped]\n${this.stderrText}` : this.stderrText;
  }

  /** A one-line description of an error from {@link request}, with the wire code when there is one. */
  describe(e: unknown): string {
    if (e instanceof ConnectionError) {
      if (e.code === 'REMOTE_ERROR' && e.wire) return `the plugin answered error ${e.wire.code}: ${e.wire.message}`;
      if (e.code === 'CONNECTION_CLOSED')
        return `the connection closed${this.conn?.error ? ` (${this.conn.error.message})` : ''}${this.exitText()}`;
      return e.message;
    }
    const code = errorCode(e);
    const message = (e as Error).message ?? String(e);
    if (code?.startsWith('FRAME_')) {
      return `the plugin's stdout is not a valid frame stream (${code}: ${message}); only protocol frames may be written to stdout${this.exitText()}`;
    }
    if (code === 'SCHEMA_VIOLATION') return `the plugin sent a frame that fails the protocol schema: ${message}${this.exitText()}`;
    return `${code !== undefined ? `${code}: ` : ''}${message}${this.exitText()}`;
  }

  private exitText(): string {
    if (!this.exit) return '';
    if (this.exit.error) return `; ${this.exit.error}`;
    return `; the plugin exited with ${this.exit.signal ? `signal ${this.exit.signal}` : `code ${this.exit.code}`}`;
  }

  private requireConnection(): Connection {
    if (!this.conn) throw new Error('this session was started without a connection');
    return this.conn;
  }
}
