import { chmod, unlink } from 'node:fs/promises';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, connect, createServer, isIP, type Server, type Socket } from 'node:net';
import { isLiteralAddressEntry, matchAllowlist, normalizeHost, parseAllowlist, splitHostPort, type AllowEntry } from './allowlist.js';

/** One proxy decision, for traces. */
export interface ProxyDecision {
  /** `host:port` the plugin asked for. */
  target: string;
  method: string;
  allowed: boolean;
  /** The allowlist entry that allowed it, or why it was refused. */
  reason: string;
}

/** Counters of an {@link AllowlistProxy}. */
export interface ProxyStats {
  /** Client connections accepted so far. */
  connections: number;
  /** Client connections open now. */
  active: number;
  allowed: number;
  denied: number;
  /** Allowed requests whose target could not be reached. */
  failed: number;
  bytesToTargets: number;
  bytesFromTargets: number;
}

/** Options of {@link AllowlistProxy.start}. */
export interface AllowlistProxyOptions {
  /** Unix socket to listen on; its directory should be private to the host user. */
  socketPath: string;
  /** Allowlist entries (see allowlist.ts): `host`, `host:port`, `*.suffix[:port]`. */
  allow: string[];
  /** Concurrent client connections; more are answered 503 (default 32). */
  maxConnections?: number;
  /** Time a client has to send its request head (default 10 s). */
  headTimeoutMs?: number;
  /** Time to connect to a target (default 10 s). */
  connectTimeoutMs?: number;
  /** A tunnel with no traffic either way for this long is closed (default 5 min). */
  idleTimeoutMs?: number;
  /** Largest request head accepted (default 16 KiB). */
  maxHeadBytes?: number;
  /** Name resolution (default: the system resolver, every address). */
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
  /** Called for every request, allowed or not. */
  onDecision?: (decision: ProxyDecision) => void;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'Connection Established',
  400: 'Bad Request',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Addresses a host name must not resolve to unless the entry names them literally (DNS rebinding, cloud metadata). */
const PRIVILEGED = new BlockList();
PRIVILEGED.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVILEGED.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVILEGED.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVILEGED.addSubnet('224.0.0.0', 4, 'ipv4');
PRIVILEGED.addAddress('::1', 'ipv6');
PRIVILEGED.addAddress('::', 'ipv6');
PRIVILEGED.addSubnet('fe80::', 10, 'ipv6');
PRIVILEGED.addSubnet('ff00::', 8, 'ipv6');
PRIVILEGED.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
PRIVILEGED.addSubnet('::ffff:169.254.0.0', 112, 'ipv6');

function isPrivileged(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PRIVILEGED.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

async function systemLookup(host: string): Promise<{ address: string; family: number }[]> {
  return dnsLookup(host, { all: true, verbatim: true });
}

interface Target {
  method: string;
  host: string;
  port: number;
  /** For absolute-form HTTP requests: the head to send upstream. */
  forwardHead?: string;
}

class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function parseHead(head: string): Target {
  const lines = head.split('\r\n');
  const [method, target, version, extra] = (lines[0] ?? '').split(' ');
  if (!method || !target || !version || extra !== undefined || !/^HTTP\/1\.[01]$/.test(version)) {
    throw new RequestError(400, 'malformed request line; send "CONNECT host:port HTTP/1.1"');
  }
  if (method === 'CONNECT') {
    const { host, port } = splitHostPort(target);
    const name = normalizeHost(host);
    if (!name || port === undefined || Number.isNaN(port))
      throw new RequestError(400, `CONNECT needs host:port, got ${JSON.stringify(target)}`);
    return { method, host: name, port };
  }
  if (!/^[A-Z]{1,16}$/.test(method)) throw new RequestError(405, `method ${JSON.stringify(method)} is not supported`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new RequestError(400, 'only CONNECT and absolute http:// requests go through this proxy');
  }
  if (url.protocol !== 'http:') throw new RequestError(400, `use CONNECT for ${url.protocol} URLs`);
  const name = normalizeHost(url.hostname);
  if (!name || url.username || url.password) throw new RequestError(400, `bad URL ${JSON.stringify(target)}`);
  const port = url.port ? Number(url.port) : 80;
  const headers = lines.slice(1).filter((l) => l !== '' && !/^(proxy-connection|proxy-authorization|connection|keep-alive)\s*:/i.test(l));
  if (!headers.some((l) => /^host\s*:/i.test(l))) headers.unshift(`Host: ${url.host}`);
  // One request per connection: the target closes after answering, so a second request
  // on the same connection can never reach another host.
  const forwardHead = [`${method} ${url.pathname}${url.search} ${version}`, ...headers, 'Connection: close', '', ''].join('\r\n');
  return { method, host: name, port, forwardHead };
}

function respond(socket: Socket, status: number, reason: string): void {
  const body = `${reason}\n`;
  const safeReason = reason.replace(/[^\x20-\x7e]/g, '?');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nX-Travsr-Proxy-Reason: ${safeReason}\r\n\r\n${body}`,
  );
  // The connection is half-open (allowHalfOpen); do not wait long for the client to close.
  socket.setTimeout(2_000, () => socket.destroy());
}

/**
 * The host side of the elevated tier: an HTTP proxy on a unix socket that the sandbox sees
 * at /run/travsr/proxy.sock. It accepts `CONNECT host:port` (and simple absolute-form
 * `http://` requests), answers 403 with the reason for targets not on the allowlist, and
 * otherwise connects to the target and pipes bytes both ways. A host name may not resolve
 * to a loopback, link-local or multicast address unless the entry names that address.
 *
 * @example
 * ```ts
 * const proxy = await AllowlistProxy.start({ socketPath: '/tmp/x/proxy.sock', allow: ['registry.npmjs.org'] });
 * // … run the plugin …
 * await proxy.close();
 * ```
 */
export class AllowlistProxy {
  private readonly sockets = new Set<Socket>();
  private readonly counters: ProxyStats = {
    connections: 0,
    active: 0,
    allowed: 0,
    denied: 0,
    failed: 0,
    bytesToTargets: 0,
    bytesFromTargets: 0,
  };
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    /** The unix socket the proxy listens on. */
    readonly socketPath: string,
    private readonly entries: AllowEntry[],
    private readonly opts: Required<Omit<AllowlistProxyOptions, 'onDecision' | 'socketPath' | 'allow'>> &
      Pick<AllowlistProxyOptions, 'onDecision'>,
  ) {}

  /** Starts listening on `opts.socketPath` (mode 0600); throws if the allowlist is malformed or the socket cannot be created. */
  static async start(opts: AllowlistProxyOptions): Promise<AllowlistProxy> {
    const entries = parseAllowlist(opts.allow);
    const server = createServer({ allowHalfOpen: true });
    const proxy = new AllowlistProxy(server, opts.socketPath, entries, {
      maxConnections: opts.maxConnections ?? 32,
      headTimeoutMs: opts.headTimeoutMs ?? 10_000,
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      idleTimeoutMs: opts.idleTimeoutMs ?? 300_000,
      maxHeadBytes: opts.maxHeadBytes ?? 16 * 1024,
      lookup: opts.lookup ?? systemLookup,
      ...(opts.onDecision ? { onDecision: opts.onDecision } : {}),
    });
    server.on('connection', (s) => proxy.accept(s));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', () => undefined);
    await chmod(opts.socketPath, 0o600);
    return proxy;
  }

  /** A snapshot of the counters. */
  get stats(): ProxyStats {
    return { ...this.counters };
  }

  /** Stops listening, closes every connection and removes the socket file; idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const s of this.sockets) s.destroy();
      await new Promise<void>((resolve) => this.server.close(() => resolve()));
      await unlink(this.socketPath).catch(() => undefined);
    })();
    return this.closing;
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
  }

  private decide(d: ProxyDecision): void {
    if (d.allowed) this.counters.allowed++;
    else this.counters.denied++;
    try {
      this.opts.onDecision?.(d);
    } catch {
      // a trace callback must not break the proxy
    }
  }

  private accept(client: Socket): void {
    this.counters.connections++;
    this.track(client);
    if (this.closing || this.counters.active >= this.opts.maxConnections) {
      respond(client, 503, `too many proxy connections (at most ${this.opts.maxConnections} at once)`);
      return;
    }
    this.counters.active++;
    client.once('close', () => this.counters.active--);
    client.setTimeout(this.opts.headTimeoutMs, () => {
      respond(client, 408, `request head not received within ${this.opts.headTimeoutMs} ms`);
    });
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > this.opts.maxHeadBytes) {
          client.off('data', onData);
          respond(client, 431, `request head larger than ${this.opts.maxHeadBytes} bytes`);
        }
        return;
      }
      client.off('data', onData);
      client.pause();
      client.setTimeout(0);
      const head = buffered.subarray(0, end).toString('latin1');
      const rest = buffered.subarray(end + 4);
      void this.handle(client, head, rest);
    };
    client.on('data', onData);
  }

  private async handle(client: Socket, head: string, rest: Buffer): Promise<void> {
    let target: Target;
    try {
      target = parseHead(head);
    } catch (e) {
      const err = e as RequestError;
      respond(client, err.status ?? 400, err.message);
      return;
    }
    const label = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
    const entry = matchAllowlist(this.entries, target.host, target.port);
    if (!entry) {
      const reason = `${label} is not in this plugin's network allowlist (${this.entries.map((e) => e.raw).join(', ') || 'empty'})`;
      this.decide({ target: label, method: target.method, allowed: false, reason });
      respond(client, 403, reason);
      return;
    }
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(target.host) ? [{ address: target.host, family: isIP(target.host) }] : await this.opts.lookup(target.host);
    } catch (e) {
      this.decide({ target: label, method: target.method, allowed: true, reason: `allowed by ${entry.raw}` });
      this.counters.failed++;
      respond(client, 502, `cannot resolve ${target.host}: ${(e as Error).message}`);
      return;
    }
    if (!isLiteralAddressEntry(entry)) addresses = addresses.filter((a) => !isPrivileged(a.address));
    const first = addresses[0];
    if (!first) {
      const reason = `${target.host} resolves only to loopback, link-local or multicast addresses; name the address itself in the allowlist to allow it`;
      this.decide({ target: label, method: target.method, allowed: false, reason });
      respond(client, 403, reason);
      return;
    }
    this.decide({ target: label, method: target.method, allowed: true, reason: `allowed by ${entry.raw}` });
    if (client.destroyed) return;
    const upstream = connect({ host: first.address, port: target.port, family: first.family, allowHalfOpen: true });
    this.track(upstream);
    let connected = false;
    const connectTimer = setTimeout(() => {
      this.counters.failed++;
      upstream.destroy();
      respond(client, 504, `connecting to ${label} timed out after ${this.opts.connectTimeoutMs} ms`);
    }, this.opts.connectTimeoutMs);
    upstream.once('error', (e) => {
      clearTimeout(connectTimer);
      if (!connected) {
        this.counters.failed++;
        respond(client, 502, `cannot connect to ${label}: ${e.message}`);
      } else {
        client.destroy();
      }
    });
    client.once('close', () => upstream.destroy());
    upstream.once('connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      if (client.destroyed) {
        upstream.destroy();
        return;
      }
      if (target.forwardHead !== undefined) upstream.write(target.forwardHead);
      else client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (rest.length > 0) {
        this.counters.bytesToTargets += rest.length;
        upstream.write(rest);
      }
      client.on('data', (c: Buffer) => (this.counters.bytesToTargets += c.length));
      upstream.on('data', (c: Buffer) => (this.counters.bytesFromTargets += c.length));
      const idle = (): void => {
        client.destroy();
        upstream.destroy();
      };
      client.setTimeout(this.opts.idleTimeoutMs, idle);
      upstream.setTimeout(this.opts.idleTimeoutMs, idle);
      upstream.once('close', () => client.end());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }
}
