import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, closeSync, existsSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { errorCode } from '@travsr/protocol';
import type { Logger } from '../log/logger.js';
import { processAlive } from '../paths/process-alive.js';
import { writePrivateFile } from '../paths/private-file.js';
import { HOST_VERSION } from '../version.js';
import { hostPackageDir } from '../paths/host-package.js';
import { daemonBuild } from './daemon-build.js';
import { probeDaemon } from './daemon-client.js';
import { DaemonCore, type DaemonCoreOptions } from './daemon-core.js';
import { checkedSocketPath, checkPrivate, ensurePrivateDirectory, type DaemonPaths } from './daemon-paths.js';
import {
  TOKEN_METADATA,
  daemonServiceDefinition,
  type CallToolRequest,
  type HelloReply,
  type IndexRequestMessage,
  type NotifyRequest,
  type StatusReply,
} from './daemon-service.js';
import { DaemonError, DaemonErrorCode } from './errors.js';
import { hostMcpSession, type McpMessage } from './mcp-host.js';
import { startHostedMcpHttp, type HostedMcpHttpOptions } from './mcp-http-host.js';
import type { McpHttpServer } from '../mcp/http-server.js';

/** Options of {@link startDaemon}. */
export interface DaemonServerOptions extends Omit<DaemonCoreOptions, 'logger'> {
  paths: DaemonPaths;
  logger: Logger;
  /** Also serve on TCP (`host:port`): only with `token` given explicitly. */
  listen?: string;
  /** The token TCP clients present (required with `listen`). */
  tcpToken?: string;
  /** Also serve MCP over HTTP (`travsr mcp --http`'s server, answered by the daemon). */
  mcpHttp?: HostedMcpHttpOptions;
}

/** A daemon that runs in this process. */
export interface RunningDaemon {
  core: DaemonCore;
  /** What the daemon serves: `unix:<socket>` (and the TCP address). */
  endpoints: string[];
  /** Resolves when a Shutdown call or {@link stop} ended it. */
  stopped: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the daemon in this process: claims the one-per-user slot (a pid file created
 * exclusively; a second daemon is refused while the first answers, and the leftovers of one that
 * died — pid file, socket — are replaced), serves the control plane on the Unix socket (mode
 * 0600, in a 0700 directory, every call checked against the token file), then opens the
 * repositories it manages.
 */
export async function startDaemon(opts: DaemonServerOptions): Promise<RunningDaemon> {
  const { paths, logger } = opts;
  if (opts.listen !== undefined && (opts.tcpToken === undefined || opts.tcpToken.length < 16))
    throw new DaemonError(
      DaemonErrorCode.InvalidOption,
      '--listen serves the daemon on TCP, where file permissions protect nothing: give a token of at least 16 characters with --token-file',
    );
  ensurePrivateDirectory(paths.dir);
  const socket = checkedSocketPath(paths);
  await claimPidFile(paths);
  let server: grpc.Server | undefined;
  let mcpHttp: McpHttpServer | undefined;
  const core = new DaemonCore(opts);
  try {
    await removeStaleSocket(paths);
    const token = ensureToken(paths.tokenFile);
    server = new grpc.Server({
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc.max_send_message_length': 256 * 1024 * 1024,
      // No channelz statistics (nothing reads them): their bookkeeping is a part of every call.
      'grpc.enable_channelz': 0,
    });
    let stopRequested: (() => void) | undefined;
    const stopped = new Promise<void>((resolve) => (stopRequested = resolve));
    const tokens = [token, ...(opts.tcpToken ? [opts.tcpToken] : [])];
    server.addService(
      daemonServiceDefinition(),
      handlers(
        core,
        tokens,
        paths,
        () => stopRequested?.(),
        logger,
        () => mcpHttp?.url,
      ),
    );
    // The repositories are open (watched, their catch-up queued) before anyone can connect.
    await core.start();
    await bind(server, `unix:${socket}`);
    chmodSync(socket, 0o600);
    checkPrivate(socket, 0o077, 'socket');
    const endpoints = [`unix:${socket}`];
    if (opts.listen !== undefined) {
      await bind(server, opts.listen);
      endpoints.push(opts.listen);
      logger.log('warn', `daemon: also serving on TCP ${opts.listen}; every call must carry the token`);
    }
    if (opts.mcpHttp) mcpHttp = await startHostedMcpHttp(core, opts.mcpHttp, logger);
    logger.log('info', `daemon ${HOST_VERSION} (pid ${process.pid}) serving ${endpoints.join(', ')}`);
    logger.log('info', `daemon: managing ${core.roots().length} repositories${core.roots().length ? `: ${core.roots().join(', ')}` : ''}`);
    const srv = server;
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        // Calls under way finish; open streams (WatchGraph) are cut after a grace period.
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => srv.tryShutdown(() => resolve())),
          new Promise((r) => (grace = setTimeout(r, 2_000))),
        ]);
        clearTimeout(grace);
        srv.forceShutdown();
        await mcpHttp?.close();
        await core.close();
        releaseFiles(paths, socket);
        stopRequested?.();
      })());
    void stopped.then(() => stop());
    return { core, endpoints, stopped: stopped.then(() => stop()), stop };
  } catch (e) {
    server?.forceShutdown();
    await mcpHttp?.close();
    await core.close();
    releaseFiles(paths, socket);
    throw e;
  }
}

function bind(server: grpc.Server, address: string): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err)
        reject(new DaemonError(DaemonErrorCode.StartFailed, `the daemon cannot serve on ${address}: ${err.message}`, { cause: err }));
      else resolve(port);
    }),
  );
}

interface PidRecord {
  pid: number;
  startedAt: number;
}

/**
 * Creates the pid file exclusively (the one-per-user lock). One left by a daemon that is gone
 * is replaced; one whose daemon still answers refuses the start.
 */
async function claimPidFile(paths: DaemonPaths): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(paths.pidFile, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: Date.now() } satisfies PidRecord));
      closeSync(fd);
      return;
    } catch (e) {
      if (errorCode(e) !== 'EEXIST') throw e;
    }
    const other = readPid(paths.pidFile);
    if (other && other.pid !== process.pid && processAlive(other.pid)) {
      // Running, or starting: wait a moment for it to answer.
      const hello = await probeDaemon(paths, 3_000);
      if (hello || processAlive(other.pid))
        throw new DaemonError(
          DaemonErrorCode.AlreadyRunning,
          `a Travsr daemon is running already (pid ${other.pid}${hello ? `, version ${hello.version}` : ', not answering yet'}); one daemon per user serves every repository: stop it with \`travsr daemon stop\` first`,
        );
    }
    rmSync(paths.pidFile, { force: true }); // left by a daemon that died
  }
  throw new DaemonError(DaemonErrorCode.StartFailed, `cannot claim ${paths.pidFile}: another daemon is starting at the same moment`);
}

function readPid(file: string): PidRecord | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<PidRecord>;
    return typeof v.pid === 'number' ? { pid: v.pid, startedAt: v.startedAt ?? 0 } : undefined;
  } catch {
    return undefined;
  }
}

/** The pid of the daemon recorded in the pid file, when that process is alive. */
export function recordedDaemonPid(paths: DaemonPaths): number | undefined {
  const r = readPid(paths.pidFile);
  return r && processAlive(r.pid) ? r.pid : undefined;
}

/** A socket file with no daemon behind it (one that died) is removed; anything else there is refused. */
async function removeStaleSocket(paths: DaemonPaths): Promise<void> {
  if (!existsSync(paths.socket)) return;
  if (await probeDaemon(paths, 1_000))
    throw new DaemonError(
      DaemonErrorCode.AlreadyRunning,
      `a daemon answers on ${paths.socket} already; stop it with \`travsr daemon stop\``,
    );
  unlinkSync(paths.socket);
}

/** The token file (made once, 32 random bytes, mode 0600); refused when others may read it. */
function ensureToken(file: string): string {
  if (!existsSync(file)) {
    if (!writePrivateFile(file, `${randomBytes(32).toString('base64url')}\n`))
      throw new DaemonError(DaemonErrorCode.StartFailed, `cannot write the daemon's token file ${file}`);
  }
  checkPrivate(file, 0o077, 'token file');
  return readFileSync(file, 'utf8').trim();
}

function releaseFiles(paths: DaemonPaths, socket: string): void {
  const mine = readPid(paths.pidFile)?.pid === process.pid;
  if (!mine) return;
  rmSync(socket, { force: true });
  rmSync(paths.pidFile, { force: true });
}

type Call = grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;

/** Whether the call carries one of the tokens (compared in constant time). */
function authorized(call: Call, tokens: readonly string[]): boolean {
  const given = call.metadata.get(TOKEN_METADATA)[0];
  if (typeof given !== 'string') return false;
  const g = Buffer.from(given);
  return tokens.some((t) => {
    const b = Buffer.from(t);
    return b.length === g.length && timingSafeEqual(b, g);
  });
}

function grpcError(e: unknown): grpc.ServiceError {
  const code = errorCode(e);
  const status = code === DaemonErrorCode.InvalidOption || code === 'NOT_INITIALIZED' ? grpc.status.INVALID_ARGUMENT : grpc.status.INTERNAL;
  const err = new Error(`${code ? `[${code}] ` : ''}${(e as Error).message}`) as grpc.ServiceError;
  err.code = status;
  err.details = err.message;
  err.metadata = new grpc.Metadata();
  if (code) err.metadata.set('travsr-code', code);
  return err;
}

const UNAUTHENTICATED: Partial<grpc.ServiceError> = {
  code: grpc.status.UNAUTHENTICATED,
  details: `[${DaemonErrorCode.Unauthenticated}] the call carries no valid token; clients read it from the daemon's token file, which only its owner may read`,
};

function handlers(
  core: DaemonCore,
  tokens: readonly string[],
  paths: DaemonPaths,
  requestStop: () => void,
  logger: Logger,
  mcpHttpUrl: () => string | undefined,
): grpc.UntypedServiceImplementation {
  const hello = (): HelloReply => ({
    version: HOST_VERSION,
    build: daemonBuild(),
    pid: process.pid,
    startedAt: core.startedAt,
    hostDir: hostPackageDir(),
    repos: core.roots(),
  });
  /** A unary handler: authorized, errors turned into gRPC statuses. */
  const unary =
    <Req, Res>(fn: (req: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res> | Res) =>
    (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => {
      if (!authorized(call, tokens)) return callback(UNAUTHENTICATED);
      Promise.resolve()
        .then(() => fn(call.request, call))
        .then(
          (res) => callback(null, res),
          (e: unknown) => callback(grpcError(e)),
        );
    };
  return {
    Hello: unary(() => hello()),
    Status: unary<{ repos: string[] }, StatusReply>(async (req) => ({
      daemon: hello(),
      repos: await core.status(req.repos),
      cache: core.cacheStatus(),
      rss: process.memoryUsage.rss(),
      endpoint: `unix:${paths.socket}`,
      mcpHttpUrl: mcpHttpUrl() ?? '',
    })),
    Index: (call: grpc.ServerWritableStream<IndexRequestMessage, unknown>) => {
      if (!authorized(call, tokens)) return call.destroy(UNAUTHENTICATED as grpc.ServiceError);
      const mode = call.request.mode === 'rebuild' ? 'rebuild' : 'full';
      core
        .index(call.request.repo, mode, (p) =>
          call.write({ progress: { stage: p.stage, done: p.done, total: p.total, plugin: p.plugin ?? '' } }),
        )
        .then(
          (summary) => {
            call.write({ summaryJson: JSON.stringify(summary) });
            call.end();
          },
          (e: unknown) => call.destroy(grpcError(e)),
        );
    },
    ListTools: unary(() => ({ tools: core.tools() })),
    CallTool: unary<CallToolRequest, unknown>((req, call) => {
      const abort = new AbortController();
      // grpc-js reports the end of every call, answered ones too: only one still running is stopped.
      let answered = false;
      call.on('cancelled', () => {
        if (!answered) abort.abort();
      });
      return core.callTool(req, abort.signal).finally(() => {
        answered = true;
      });
    }),
    WatchGraph: (call: grpc.ServerWritableStream<{ repos: string[] }, unknown>) => {
      if (!authorized(call, tokens)) return call.destroy(UNAUTHENTICATED as grpc.ServiceError);
      const wanted = new Set(call.request.repos.map((r) => core.repoOf(r)?.root ?? r));
      const stop = core.onChange((c) => {
        if (wanted.size === 0 || wanted.has(c.root)) call.write(c);
      });
      call.on('cancelled', stop);
      call.on('close', stop);
    },
    Notify: unary<NotifyRequest, unknown>(async (req) => {
      const accepted = await core.notifyCommit(req.repo, req.wait);
      return { accepted, message: accepted ? 'the daemon updates the graph' : 'the daemon does not manage this repository' };
    }),
    AddRepo: unary<{ repo: string }, unknown>((req) => core.addRepo(req.repo)),
    RemoveRepo: unary<{ repo: string }, unknown>((req) => core.removeRepo(req.repo)),
    ReloadConfig: unary(async () => ({ repos: await core.reloadConfig() })),
    McpSession: (call: grpc.ServerDuplexStream<McpMessage, McpMessage>) => {
      if (!authorized(call as unknown as Call, tokens)) return call.destroy(UNAUTHENTICATED as grpc.ServiceError);
      let roots: string[];
      try {
        const asked = JSON.parse(String(call.metadata.get('travsr-repos')[0] ?? '[]')) as unknown;
        roots = Array.isArray(asked) ? asked.map((r) => core.repoOf(String(r))?.root ?? '') : [];
      } catch {
        roots = [];
      }
      if (roots.includes(''))
        return call.destroy(
          grpcError(new DaemonError(DaemonErrorCode.InvalidOption, 'the MCP session names a repository the daemon does not manage')),
        );
      hostMcpSession(core, roots, call, logger);
    },
    Shutdown: unary(() => {
      logger.log('info', 'daemon: shutdown requested');
      setImmediate(requestStop);
      return {};
    }),
  };
}
