import { existsSync, readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import type { IndexProgress } from '../indexer/indexer.js';
import type { IndexSummary } from '../indexer/index-summary.js';
import { daemonBuild } from './daemon-build.js';
import { checkPrivate, daemonPaths, type DaemonPaths } from './daemon-paths.js';
import {
  TOKEN_METADATA,
  daemonClientConstructor,
  type CallToolReply,
  type CallToolRequest,
  type GraphChange,
  type HelloReply,
  type IndexEvent,
  type NotifyReply,
  type RepoReply,
  type StatusReply,
  type ToolDefinitionMessage,
} from './daemon-service.js';
import { DaemonError, DaemonErrorCode } from './errors.js';
import { HOST_VERSION } from '../version.js';

/** Options of {@link connectDaemon}. */
export interface ConnectOptions {
  paths?: DaemonPaths;
  /** How long the connection and the Hello may take (ms). Default 2 s. */
  timeoutMs?: number;
  /** `ignore`: accept a daemon of another build (`daemon stop`, `status`). Default `check`. */
  build?: 'check' | 'ignore';
}

type Unary = (
  req: unknown,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (e: grpc.ServiceError | null, r: unknown) => void,
) => grpc.ClientUnaryCall;
type Streaming = (req: unknown, md: grpc.Metadata, opts?: grpc.CallOptions) => grpc.ClientReadableStream<unknown>;

/**
 * A connection to the running daemon of this user. Every call carries the token; errors come
 * back as {@link DaemonError}s whose message is the daemon's.
 */
export class DaemonClient {
  private constructor(
    private readonly client: grpc.Client,
    private readonly token: string,
    /** What the daemon said at connect. */
    readonly hello: HelloReply,
  ) {}

  /** Connects (see {@link connectDaemon}). */
  static async connect(paths: DaemonPaths, token: string, timeoutMs: number): Promise<DaemonClient> {
    const Ctor = daemonClientConstructor();
    const client = new Ctor(`unix:${paths.socket}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 256 * 1024 * 1024,
      'grpc.max_send_message_length': 64 * 1024 * 1024,
      // No retries, no waiting for a socket that is not there: a client falls back at once.
      'grpc.enable_retries': 0,
      // No channelz statistics (nothing reads them): their bookkeeping is a part of every call.
      'grpc.enable_channelz': 0,
    });
    try {
      const hello = (await call(client, token, 'Hello', { version: HOST_VERSION, build: daemonBuild() }, timeoutMs)) as HelloReply;
      return new DaemonClient(client, token, hello);
    } catch (e) {
      client.close();
      throw e;
    }
  }

  status(repos: readonly string[] = []): Promise<StatusReply> {
    return call(this.client, this.token, 'Status', { repos }) as Promise<StatusReply>;
  }

  async listTools(): Promise<ToolDefinitionMessage[]> {
    return ((await call(this.client, this.token, 'ListTools', {})) as { tools: ToolDefinitionMessage[] }).tools;
  }

  /** Runs a tool (see CallToolRequest in the .proto for the fields). */
  callTool(req: Partial<CallToolRequest> & { tool: string }, signal?: AbortSignal): Promise<CallToolReply> {
    return call(this.client, this.token, 'CallTool', req, undefined, signal) as Promise<CallToolReply>;
  }

  notify(repo: string, wait: boolean, timeoutMs?: number): Promise<NotifyReply> {
    return call(this.client, this.token, 'Notify', { repo, event: 'commit', wait }, timeoutMs) as Promise<NotifyReply>;
  }

  addRepo(repo: string): Promise<RepoReply> {
    return call(this.client, this.token, 'AddRepo', { repo }) as Promise<RepoReply>;
  }

  removeRepo(repo: string): Promise<RepoReply> {
    return call(this.client, this.token, 'RemoveRepo', { repo }) as Promise<RepoReply>;
  }

  async reloadConfig(): Promise<number> {
    return ((await call(this.client, this.token, 'ReloadConfig', {})) as { repos: number }).repos;
  }

  async shutdown(): Promise<void> {
    await call(this.client, this.token, 'Shutdown', {});
  }

  /** Indexes a managed repository in the daemon, with progress; resolves with the summary. */
  index(repo: string, mode: 'full' | 'rebuild', onProgress?: (p: IndexProgress) => void): Promise<IndexSummary> {
    const stream = (this.client as unknown as Record<string, Streaming>).Index!.call(this.client, { repo, mode }, this.metadata());
    return new Promise((resolve, reject) => {
      let summary: IndexSummary | undefined;
      stream.on('data', (e: IndexEvent) => {
        if (e.progress) onProgress?.({ ...e.progress, stage: e.progress.stage as IndexProgress['stage'] });
        if (e.summaryJson) summary = JSON.parse(e.summaryJson) as IndexSummary;
      });
      stream.on('error', (e: grpc.ServiceError) => reject(callError(e)));
      stream.on('end', () =>
        summary ? resolve(summary) : reject(new DaemonError(DaemonErrorCode.CallFailed, 'the daemon ended the index without a summary')),
      );
    });
  }

  /** Follows graph changes; `stop()` ends the stream. */
  watchGraph(repos: readonly string[], onChange: (c: GraphChange) => void, onEnd?: (e?: Error) => void): { stop(): void } {
    const stream = (this.client as unknown as Record<string, Streaming>).WatchGraph!.call(this.client, { repos }, this.metadata());
    stream.on('data', (c: GraphChange) => onChange(c));
    stream.on('error', (e: grpc.ServiceError) => {
      if (e.code !== grpc.status.CANCELLED) onEnd?.(callError(e));
    });
    stream.on('end', () => onEnd?.());
    return { stop: () => stream.cancel() };
  }

  /** An MCP session hosted by the daemon for `roots`: write the client's messages, read the server's. */
  mcpSession(roots: readonly string[]): grpc.ClientDuplexStream<{ json: string }, { json: string }> {
    const md = this.metadata();
    md.set('travsr-repos', JSON.stringify(roots));
    return (
      this.client as unknown as Record<string, (md: grpc.Metadata) => grpc.ClientDuplexStream<{ json: string }, { json: string }>>
    ).McpSession!.call(this.client, md);
  }

  close(): void {
    this.client.close();
  }

  private metadata(): grpc.Metadata {
    const md = new grpc.Metadata();
    md.set(TOKEN_METADATA, this.token);
    return md;
  }
}

function call(
  client: grpc.Client,
  token: string,
  method: string,
  req: unknown,
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const md = new grpc.Metadata();
  md.set(TOKEN_METADATA, token);
  const opts: grpc.CallOptions = timeoutMs !== undefined ? { deadline: Date.now() + timeoutMs } : {};
  return new Promise((resolve, reject) => {
    const c = (client as unknown as Record<string, Unary>)[method]!.call(client, req, md, opts, (e, r) =>
      e ? reject(callError(e)) : resolve(r),
    );
    signal?.addEventListener('abort', () => c.cancel(), { once: true });
  });
}

/** A gRPC failure as a DaemonError (the daemon's own code when it sent one). */
function callError(e: grpc.ServiceError): DaemonError {
  const sent = e.metadata?.get('travsr-code')[0];
  if (e.code === grpc.status.UNAUTHENTICATED) return new DaemonError(DaemonErrorCode.Unauthenticated, e.details, { cause: e });
  if (e.code === grpc.status.UNAVAILABLE || e.code === grpc.status.DEADLINE_EXCEEDED)
    return new DaemonError(DaemonErrorCode.NotRunning, `the daemon does not answer (${e.details}); start it with \`travsr daemon start\``, {
      cause: e,
    });
  const err = new DaemonError(DaemonErrorCode.CallFailed, e.details.replace(/^\[[A-Z_]+\] /, ''), { cause: e });
  if (typeof sent === 'string') Object.defineProperty(err, 'daemonCode', { value: sent });
  return err;
}

/** The token the daemon checks; undefined when there is none (no daemon ever started). */
function readToken(paths: DaemonPaths): string | undefined {
  if (!existsSync(paths.tokenFile)) return undefined;
  checkPrivate(paths.tokenFile, 0o077, 'token file');
  return readFileSync(paths.tokenFile, 'utf8').trim();
}

/**
 * Connects to the running daemon, or resolves undefined when none runs (no socket, or a socket
 * nobody answers on). Refuses a socket, directory or token file that is not private to this
 * user (`DAEMON_INSECURE`), and a daemon of another build (`DAEMON_VERSION_MISMATCH`, unless
 * `build: 'ignore'`).
 */
export async function connectDaemon(opts: ConnectOptions = {}): Promise<DaemonClient | undefined> {
  const paths = opts.paths ?? daemonPaths();
  if (!existsSync(paths.socket)) return undefined;
  checkPrivate(paths.dir, 0o077, 'directory');
  checkPrivate(paths.socket, 0o077, 'socket');
  const token = readToken(paths);
  if (token === undefined) return undefined;
  let client: DaemonClient;
  try {
    client = await DaemonClient.connect(paths, token, opts.timeoutMs ?? 2_000);
  } catch (e) {
    if ((e as DaemonError).code === DaemonErrorCode.NotRunning) return undefined;
    throw e;
  }
  if ((opts.build ?? 'check') === 'check' && client.hello.build !== daemonBuild()) {
    client.close();
    throw new DaemonError(
      DaemonErrorCode.VersionMismatch,
      `the running daemon is build ${client.hello.build} (pid ${client.hello.pid}, from ${client.hello.hostDir}) and this travsr is build ${daemonBuild()}; restart it with \`travsr daemon restart\``,
    );
  }
  return client;
}

/** What {@link probeDaemon} says of a daemon that answered but refused the token: alive, identity unknown. */
export const ANSWERED_WITHOUT_TOKEN: HelloReply = Object.freeze({ version: '', build: '', pid: 0, startedAt: 0, hostDir: '', repos: [] });

/**
 * Whether a daemon answers on the socket (whatever its build and token): its Hello, or
 * {@link ANSWERED_WITHOUT_TOKEN} when it answered but refused the token; undefined when nothing answers.
 */
export async function probeDaemon(paths: DaemonPaths, timeoutMs: number): Promise<HelloReply | undefined> {
  if (!existsSync(paths.socket)) return undefined;
  let token = '';
  try {
    token = readToken(paths) ?? '';
  } catch {
    token = '';
  }
  try {
    const c = await DaemonClient.connect(paths, token, timeoutMs);
    c.close();
    return c.hello;
  } catch (e) {
    if ((e as DaemonError).code === DaemonErrorCode.Unauthenticated)
      return { version: '', build: '', pid: 0, startedAt: 0, hostDir: '', repos: [] };
    return undefined;
  }
}
