import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { BlockList, isIPv6, type AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { listenFailureReason } from '@travsr/registry';
import { silentLogger, type Logger } from '../log/logger.js';
import { FULL_ACCESS, type AccessPolicy } from '../retrieval/access-policy.js';
import { McpServerError } from './errors.js';
import { OAuthVerifier, type OAuthOptions } from './oauth.js';
import type { McpServerFactory } from './server.js';
import {
  DEFAULT_SESSION_LIMITS,
  SessionQuota,
  isSessionRefusal,
  type SessionLimits,
  type SessionRefusal,
  type SessionSlot,
} from './session-quota.js';
import { TOKEN_PREFIX, type TokenStore } from './token-store.js';

/** How to start the MCP HTTP server. */
export interface McpHttpServerOptions {
  /** Makes the Server of one session, bound to the policy of the token that opened it. */
  factory: McpServerFactory;
  /** Address to listen on, e.g. `127.0.0.1`, `::1`, `0.0.0.0`. */
  host: string;
  /** Port to listen on; 0 picks a free one (see the `port` of the result). */
  port: number;
  /**
   * Bearer tokens every request must present. `undefined` serves without authentication, with
   * full access, and is refused unless `host` is a loopback address.
   */
  tokens: TokenStore | undefined;
  /**
   * Also accept OAuth 2.1 access tokens (JWTs) of this issuer, beside `tokens` (whose tokens,
   * which start with `travsr_`, keep working), and serve the protected-resource metadata at
   * `/.well-known/oauth-protected-resource`. See {@link OAuthVerifier}.
   */
  oauth?: OAuthOptions;
  logger?: Logger;
  /**
   * Origins (e.g. `https://app.example.com`) allowed to call from a browser. On loopback the
   * server's own `http://localhost:<port>` forms are always allowed; requests without an Origin
   * header (every non-browser client) are never refused for it.
   */
  allowedOrigins?: readonly string[];
  /**
   * Extra `Host` header values accepted on loopback (exact, e.g. `mcp.internal` or `proxy:8443`),
   * for a reverse proxy in front of the server. Beyond loopback the Host header is not checked.
   */
  allowedHosts?: readonly string[];
  /** Largest request body accepted, in bytes (default 4 MiB); a bigger one is answered 413. */
  maxBodyBytes?: number;
  /**
   * A Streamable HTTP session with no request in flight and none for this long is closed, so
   * clients that vanish without DELETE do not pile up (default {@link DEFAULT_SESSION_IDLE_MS}).
   * HTTP+SSE sessions end with their stream.
   */
  sessionIdleMs?: number;
  /**
   * Open sessions one token may hold, and the whole server (default {@link DEFAULT_SESSION_LIMITS}).
   * An initialize past a limit is refused with 429 (per token) or 503 (server), saying what to do.
   */
  sessionLimits?: Partial<SessionLimits>;
}

/** A running MCP HTTP server. */
export interface McpHttpServer {
  /** The Streamable HTTP endpoint, `http://<host>:<port>/mcp`. */
  url: string;
  /** The deprecated HTTP+SSE endpoint for older clients, `http://<host>:<port>/sse`. */
  sseUrl: string;
  port: number;
  /** Ends every session (their streams close), stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Default largest request body: 4 MiB, the SDK's own default. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Who made a request: the token (by its hash) or, without authentication, the local user. */
interface Caller {
  /** Identity a session is bound to: the token's sha256, or `local` without authentication. */
  key: string;
  /** For logs: the token's name. */
  name: string;
  policy: AccessPolicy;
}

type Session =
  | {
      kind: 'streamable';
      transport: StreamableHTTPServerTransport;
      server: Server;
      caller: Caller;
      lastSeen: number;
      active: number;
      slot: SessionSlot;
    }
  | { kind: 'sse'; transport: SSEServerTransport; server: Server; caller: Caller; slot: SessionSlot };

/**
 * A Streamable HTTP session with no request for this long is closed (default: 10 minutes; a
 * client that is still there opens a new one with initialize).
 */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;

/** The HTTP answer to a refused request: status, JSON-RPC error code and a message saying what to do. */
class Refusal {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Where RFC 9728 puts the protected-resource metadata (the resource's path may follow). */
const WELL_KNOWN_RESOURCE = '/.well-known/oauth-protected-resource';

const TOKEN_HINT =
  'Create a token on the server machine with `travsr mcp token add <name> --corpus <corpus>` (or --all-corpora) and configure the client to send it as `Authorization: Bearer <token>`.';

/**
 * Serves MCP over HTTP: Streamable HTTP at `/mcp` (POST/GET/DELETE, with sessions), the deprecated
 * HTTP+SSE transport at `/sse` + `/messages?sessionId=` for older clients, and `GET /healthz`.
 * Every MCP request carries `Authorization: Bearer <token>` (unless `tokens` is undefined); each
 * session gets its own Server from `factory`, bound to the policy of the token that opened it, and
 * only that token may use the session.
 *
 * @example
 * const http = await startMcpHttpServer({ factory, host: '127.0.0.1', port: 7531, tokens: TokenStore.load() });
 * console.log(`MCP at ${http.url}`);
 * await http.close();
 */
export async function startMcpHttpServer(opts: McpHttpServerOptions): Promise<McpHttpServer> {
  const loopback = isLoopbackHost(opts.host);
  if (!opts.tokens && !opts.oauth && !loopback)
    throw new McpServerError(
      'MCP_AUTH_REQUIRED',
      `refusing to serve MCP on ${opts.host} without authentication: anyone who can reach that address could read the graph. Require tokens (create one with \`travsr mcp token add <name>\`), or listen on a loopback address such as 127.0.0.1`,
    );
  const logger = opts.logger ?? silentLogger;
  // Built before listening, so a setting that is not a usable URL stops the start; the default
  // resource (this server's own /mcp URL) is known once it listens.
  let ownUrl = '';
  const oauth = opts.oauth ? new OAuthVerifier(opts.oauth, () => ownUrl) : undefined;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = new Map<string, Session>();
  let closing: Promise<void> | undefined;
  const idleMs = opts.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const limits: SessionLimits = { ...DEFAULT_SESSION_LIMITS, ...opts.sessionLimits };
  const quota = new SessionQuota(limits);
  /** Takes a session slot for `caller`, or the refusal to answer. */
  const takeSlot = (caller: Caller): SessionSlot | Refusal => {
    const slot = quota.take(caller.key);
    if (!isSessionRefusal(slot)) return slot;
    logger.log('warn', `MCP session refused for token "${caller.name}": ${slot.limit} limit of ${slot.max} open sessions reached`);
    return sessionLimitRefusal(slot, caller, idleMs);
  };
  const sweeper = setInterval(
    () => {
      const now = performance.now();
      for (const [id, s] of sessions) {
        if (s.kind !== 'streamable' || s.active > 0 || now - s.lastSeen < idleMs) continue;
        sessions.delete(id);
        s.slot.release();
        logger.log('info', `MCP session ${id} closed after ${Math.round(idleMs / 1000)} s without a request`);
        void s.server.close().catch(() => undefined);
      }
    },
    Math.max(20, Math.min(60_000, idleMs / 4)),
  );
  sweeper.unref();

  if (opts.tokens && opts.tokens.list().length === 0)
    logger.log('warn', `no MCP tokens in ${opts.tokens.path}: every request is refused until one is added with \`travsr mcp token add\``);

  const http = createServer();

  async function handle(req: IncomingMessage, res: ServerResponse, g: RebindingGuard): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://server.invalid');
    if (url.pathname === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, methodNotAllowed('GET, HEAD'));
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('ok');
      return;
    }
    if (url.pathname === WELL_KNOWN_RESOURCE || url.pathname.startsWith(`${WELL_KNOWN_RESOURCE}/`)) return resourceMetadata(req, res);
    if (url.pathname !== '/mcp' && url.pathname !== '/sse' && url.pathname !== '/messages')
      return send(
        res,
        new Refusal(404, -32000, `Not found: ${url.pathname}. The MCP endpoint is /mcp (Streamable HTTP), or /sse for older clients.`),
      );
    if (closing) return send(res, new Refusal(503, -32000, 'The MCP server is shutting down; connect again once it is restarted.'));
    const rebinding = g.check(req);
    if (rebinding) return send(res, rebinding);
    const caller = await authenticate(req);
    if (caller instanceof Refusal) return send(res, caller);

    if (url.pathname === '/mcp') return streamable(req, res, caller, g);
    if (url.pathname === '/sse') return openSse(req, res, caller, g);
    return sseMessage(req, res, caller, url.searchParams.get('sessionId'));
  }

  /**
   * The caller of a request: a `travsr mcp token` (the token store), else an OAuth access token
   * (when `oauth` is set), else the local user when the server needs no authentication.
   */
  async function authenticate(req: IncomingMessage): Promise<Caller | Refusal> {
    if (!opts.tokens && !oauth) return { key: 'local', name: 'local', policy: FULL_ACCESS };
    const header = req.headers.authorization;
    const presented = header === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(header)?.[1];
    if (presented === undefined)
      return new Refusal(
        401,
        -32000,
        `Unauthorized: this Travsr MCP server needs a bearer token and the request ${header === undefined ? 'has no Authorization header' : 'has an Authorization header that is not `Bearer <token>`'}. ${tokenHint()}`,
        { 'WWW-Authenticate': bearerChallenge() },
      );
    if (opts.tokens && (!oauth || presented.startsWith(TOKEN_PREFIX))) {
      const entry = opts.tokens.authenticate(presented);
      if (!entry)
        return new Refusal(
          401,
          -32000,
          `Unauthorized: the bearer token is not one this server knows (it may have been removed; \`travsr mcp token list\` shows the current ones). ${tokenHint()}`,
          { 'WWW-Authenticate': bearerChallenge('invalid_token') },
        );
      return { key: entry.sha256, name: entry.name, policy: { corpora: entry.corpora, groups: entry.groups } };
    }
    const verified = await oauth!.verify(presented);
    if ('policy' in verified) return verified;
    logger.log('info', `MCP request refused: OAuth token: ${verified.description}`);
    const what = verified.status === 403 ? 'Forbidden' : verified.status === 503 ? 'Service Unavailable' : 'Unauthorized';
    return new Refusal(
      verified.status,
      -32000,
      `${what}: ${verified.description}.${verified.status === 401 ? ` Get a new access token from ${oauth!.issuer} for ${oauth!.audience}.` : ''}`,
      verified.error ? { 'WWW-Authenticate': bearerChallenge(verified.error, verified.description) } : {},
    );
  }

  /** What a 401 or 403 tells the client (RFC 6750 §3, and RFC 9728's `resource_metadata` with OAuth). */
  function bearerChallenge(error?: string, description?: string): string {
    const parts = ['realm="travsr"'];
    if (oauth) parts.push(`resource_metadata="${oauth.metadataUrl()}"`);
    if (error) parts.push(`error="${error}"`);
    if (description) parts.push(`error_description="${description.replace(/["\\]/g, "'")}"`);
    return `Bearer ${parts.join(', ')}`;
  }

  function tokenHint(): string {
    return oauth
      ? `Send an OAuth access token from ${oauth.issuer} (its metadata: ${oauth.metadataUrl()}), or a token made with \`travsr mcp token add\`, as \`Authorization: Bearer <token>\`.`
      : TOKEN_HINT;
  }

  /** RFC 9728 protected-resource metadata: public, for clients to find where to get a token. */
  function resourceMetadata(req: IncomingMessage, res: ServerResponse): void {
    if (!oauth) return send(res, new Refusal(404, -32000, 'Not found: this MCP server does not take OAuth tokens (no mcp.oauthIssuer)'));
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, methodNotAllowed('GET, HEAD'));
    res
      .writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=3600' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(oauth.metadata()));
  }

  async function streamable(req: IncomingMessage, res: ServerResponse, caller: Caller, g: RebindingGuard): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const s = sessions.get(sessionId);
      if (!s || s.kind !== 'streamable') return send(res, sessionNotFound(sessionId));
      if (s.caller.key !== caller.key) return send(res, wrongToken());
      s.lastSeen = performance.now();
      s.active++;
      res.once('close', () => {
        s.active--;
        s.lastSeen = performance.now();
      });
      const body = req.method === 'POST' ? await readJsonBody(req, maxBody) : undefined;
      if (body instanceof Refusal) return send(res, body);
      return s.transport.handleRequest(req, res, body?.value);
    }
    if (req.method !== 'POST')
      return send(
        res,
        new Refusal(
          400,
          -32000,
          `Bad Request: ${req.method ?? ''} /mcp needs an Mcp-Session-Id header; open a session first with an initialize request (POST without the header)`,
        ),
      );
    const body = await readJsonBody(req, maxBody);
    if (body instanceof Refusal) return send(res, body);
    if (!isInitializeRequest(body.value))
      return send(
        res,
        new Refusal(
          400,
          -32000,
          'Bad Request: no Mcp-Session-Id header, and the message is not an initialize request; open a session with initialize first',
        ),
      );

    // The slot is taken before anything is built and given back however the session ends.
    const slot = takeSlot(caller);
    if (slot instanceof Refusal) return send(res, slot);
    const server = opts.factory(caller.policy);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, { kind: 'streamable', transport, server, caller, lastSeen: performance.now(), active: 0, slot });
        logger.log('info', `MCP session ${id} opened (Streamable HTTP, token "${caller.name}")`);
      },
      maxRequestBodySize: maxBody,
      ...g.sdkOptions(),
    });
    transport.onclose = () => {
      slot.release();
      const id = transport.sessionId;
      if (id !== undefined && sessions.delete(id)) logger.log('info', `MCP session ${id} closed`);
    };
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body.value);
    } finally {
      if (transport.sessionId === undefined) {
        // initialize was refused (or failed): no session to keep
        slot.release();
        await server.close();
      }
    }
  }

  async function openSse(req: IncomingMessage, res: ServerResponse, caller: Caller, g: RebindingGuard): Promise<void> {
    if (req.method !== 'GET') return send(res, methodNotAllowed('GET'));
    const slot = takeSlot(caller);
    if (slot instanceof Refusal) return send(res, slot);
    const server = opts.factory(caller.policy);
    const transport = new SSEServerTransport('/messages', res, g.sdkOptions());
    const id = transport.sessionId;
    sessions.set(id, { kind: 'sse', transport, server, caller, slot });
    transport.onclose = () => {
      slot.release();
      if (sessions.delete(id)) logger.log('info', `MCP session ${id} closed`);
    };
    logger.log('info', `MCP session ${id} opened (HTTP+SSE, token "${caller.name}")`);
    await server.connect(transport);
  }

  async function sseMessage(req: IncomingMessage, res: ServerResponse, caller: Caller, sessionId: string | null): Promise<void> {
    if (req.method !== 'POST') return send(res, methodNotAllowed('POST'));
    const s = sessionId === null ? undefined : sessions.get(sessionId);
    if (!s || s.kind !== 'sse') return send(res, sessionNotFound(sessionId ?? '(none)'));
    if (s.caller.key !== caller.key) return send(res, wrongToken());
    const body = await readJsonBody(req, maxBody);
    if (body instanceof Refusal) return send(res, body);
    await s.transport.handlePostMessage(req, res, body.value);
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      for (const s of open) s.slot.release();
      for (const s of open)
        await s.server.close().catch((e: unknown) => logger.log('warn', `closing an MCP session failed: ${(e as Error).message}`));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    })();
    return closing;
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      reject(new McpServerError('MCP_LISTEN_FAILED', `cannot serve MCP on ${opts.host}:${opts.port}: ${listenFailureReason(e)}`));
    };
    http.once('error', onError);
    http.listen(opts.port, opts.host, () => {
      http.off('error', onError);
      resolve();
    });
  });
  http.on('error', (e) => logger.log('error', `MCP HTTP server: ${e.message}`));
  const port = (http.address() as AddressInfo).port;
  const guard = new RebindingGuard(loopback, opts.host, port, opts.allowedHosts ?? [], opts.allowedOrigins ?? []);
  // Attached only now, when the port (which the Host check needs) is known; no request can have
  // arrived before the listen callback.
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res, guard).catch((e: unknown) => {
      logger.log('error', `MCP HTTP ${req.method ?? '?'} ${req.url ?? ''} failed: ${(e as Error).message}`);
      if (!res.headersSent) send(res, new Refusal(500, -32603, `Internal error: ${(e as Error).message}`));
      else res.end();
    });
  });
  const base = `http://${hostForUrl(opts.host)}:${port}`;
  ownUrl = `${base}/mcp`;
  logger.log('info', `MCP HTTP server listening on ${base}/mcp (and ${base}/sse for older clients)`);
  return { url: `${base}/mcp`, sseUrl: `${base}/sse`, port, close };
}

/**
 * DNS-rebinding protection: on loopback, a request must name this server in `Host` (a page on
 * evil.example whose name was re-pointed at 127.0.0.1 sends `Host: evil.example`), and a browser
 * request must come from an allowed Origin. Checked here for every route (the SDK's SSE transport
 * checks only its POSTs), and handed to the SDK transports as well.
 */
class RebindingGuard {
  private readonly hosts: string[] | undefined;
  private readonly origins: string[] | undefined;

  constructor(loopback: boolean, host: string, port: number, extraHosts: readonly string[], extraOrigins: readonly string[]) {
    const names = [...new Set(['localhost', '127.0.0.1', '[::1]', hostForUrl(host)])];
    const withPort = (n: string) => (port === 80 ? [`${n}:${port}`, n] : [`${n}:${port}`]);
    this.hosts = loopback ? [...names.flatMap(withPort), ...extraHosts] : undefined;
    const origins = [...(loopback ? names.flatMap(withPort).map((h) => `http://${h}`) : []), ...extraOrigins];
    this.origins = origins.length > 0 ? origins : undefined;
  }

  check(req: IncomingMessage): Refusal | undefined {
    const host = req.headers.host;
    if (this.hosts && (host === undefined || !this.hosts.includes(host)))
      return new Refusal(
        403,
        -32000,
        `Forbidden: Host header ${JSON.stringify(host ?? null)} does not name this server (DNS-rebinding protection); connect to ${this.hosts[0]}, or start the server with that host allowed`,
      );
    const origin = req.headers.origin;
    if (this.origins && origin !== undefined && !this.origins.includes(origin))
      return new Refusal(
        403,
        -32000,
        `Forbidden: Origin ${origin} is not allowed to call this server (DNS-rebinding protection); start the server with that origin allowed`,
      );
    return undefined;
  }

  /** The same rules as options of the SDK transports. */
  sdkOptions(): { enableDnsRebindingProtection: boolean; allowedHosts?: string[]; allowedOrigins?: string[] } {
    return {
      enableDnsRebindingProtection: this.hosts !== undefined || this.origins !== undefined,
      ...(this.hosts ? { allowedHosts: this.hosts } : {}),
      ...(this.origins ? { allowedOrigins: this.origins } : {}),
    };
  }
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped loopback addresses (brackets allowed). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost') return true;
  if (isIPv6(h)) return LOOPBACK.check(h, 'ipv6');
  return /^\d+\.\d+\.\d+\.\d+$/.test(h) && LOOPBACK.check(h, 'ipv4');
}

function hostForUrl(host: string): string {
  return isIPv6(host) ? `[${host}]` : host;
}

/** Reads a JSON request body of at most `maxBytes`: 413 when bigger, 415 when not JSON, 400 when unparsable. */
async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<{ value: unknown } | Refusal> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    return new Refusal(415, -32000, 'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json');
  const tooLarge = new Refusal(413, -32000, `Payload Too Large: a request body may have at most ${maxBytes} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  const text = await new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // Answer now and discard the rest as it arrives: destroying the request would reset the
      // connection before the client reads the 413. (The error listener stays: a client hanging
      // up must not become an unhandled 'error'.)
      req.off('data', onData).off('end', onEnd);
      req.resume();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
  if (text === undefined) return tooLarge;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return new Refusal(400, -32700, 'Parse error: the request body is not valid JSON');
  }
}

function sessionLimitRefusal(refused: SessionRefusal, caller: Caller, idleMs: number): Refusal {
  const idle = `Streamable HTTP sessions left idle close after ${Math.round(idleMs / 1000)} s`;
  if (refused.limit === 'per-token')
    return new Refusal(
      429,
      -32000,
      `Too Many Requests: token "${caller.name}" already has ${refused.max} open MCP sessions, the most one token may hold. End the sessions you no longer use (DELETE /mcp with their Mcp-Session-Id header, or close the SSE stream) and reuse one session per client; ${idle}. The server's --max-sessions-per-token sets the limit.`,
      { 'Retry-After': String(Math.min(60, Math.ceil(idleMs / 1000))) },
    );
  return new Refusal(
    503,
    -32000,
    `Service Unavailable: this MCP server already has ${refused.max} open sessions, its limit for all tokens together. Try again later (${idle}), or raise the server's --max-sessions.`,
    { 'Retry-After': String(Math.min(60, Math.ceil(idleMs / 1000))) },
  );
}

function sessionNotFound(id: string): Refusal {
  return new Refusal(
    404,
    -32001,
    `Session not found: ${id} is not an open session of this server (it ended, or the server restarted); start a new session with initialize`,
  );
}

function wrongToken(): Refusal {
  return new Refusal(
    403,
    -32000,
    'Forbidden: this session was opened with a different token, and a session answers only the token that opened it; open a new session with this token',
  );
}

function methodNotAllowed(allow: string): Refusal {
  return new Refusal(405, -32000, `Method Not Allowed: use ${allow}`, { Allow: allow });
}

function send(res: ServerResponse, r: Refusal): void {
  res
    .writeHead(r.status, { 'Content-Type': 'application/json', ...r.headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: r.rpcCode, message: r.message }, id: null }));
}
