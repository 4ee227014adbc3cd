import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Dispatcher, EnvHttpProxyAgent, interceptors, request } from 'undici';
import { deadlineError } from './deadline.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { isRegistryPath } from './sha256-sums.js';

/** Time limits of registry requests, in milliseconds. */
export interface RegistryTimeouts {
  /** Establishing the TCP (and TLS) connection; applies only to the client's own dispatcher. */
  readonly connectMs: number;
  /** From sending a request until the response headers arrive. */
  readonly headersMs: number;
  /** The longest pause between two chunks of a response body. */
  readonly bodyIdleMs: number;
  /**
   * Overall limit of fetching one registry document, retries included, however steadily the
   * bytes come. A download gets this plus the time its recorded size takes at `minBytesPerSecond`.
   */
  readonly deadlineMs: number;
  /** The slowest average rate a download may have before its deadline stops it. */
  readonly minBytesPerSecond: number;
}

/**
 * Default {@link RegistryTimeouts}.
 * @example
 * ```ts
 * new RegistryClient({ url, trustedKeys, timeouts: { ...DEFAULT_TIMEOUTS, bodyIdleMs: 120_000 } });
 * ```
 */
export const DEFAULT_TIMEOUTS: Readonly<RegistryTimeouts> = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyIdleMs: 30_000,
  deadlineMs: 120_000,
  minBytesPerSecond: 16 * 1024,
};

/**
 * How long downloading `size` bytes may take in all: the document deadline plus `size` at the
 * slowest acceptable rate (a 5 MiB artifact: 2 min + 320 s with the defaults).
 */
export function downloadDeadlineMs(timeouts: Pick<RegistryTimeouts, 'deadlineMs' | 'minBytesPerSecond'>, size: number): number {
  return timeouts.deadlineMs + Math.ceil((size / timeouts.minBytesPerSecond) * 1000);
}

/** Options of {@link RegistryTransport.open}. */
export interface OpenOptions {
  /** Ask caches in between for a fresh copy (`SHA256SUMS` and the documents it signs change together). */
  fresh?: boolean;
  /** Aborts the request and its body; a `RequestDeadline`'s signal turns into its error. */
  signal?: AbortSignal;
}

/** A response body being read; errors from `chunks` are already `RegistryError`s. */
export interface RegistryBody {
  /** Offset in the file of the body's first byte: the offset asked for, or 0 when the whole file came. */
  readonly start: number;
  /** The body's length as announced (Content-Length), when known. */
  readonly length: number | undefined;
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Stops reading and frees the connection (needed only when `chunks` is not read to the end). */
  cancel(): void;
}

/** Where registry files come from: an HTTP(S) server or a local directory. */
export interface RegistryTransport {
  /** The registry as given to the client, for messages. */
  readonly location: string;
  /** The URL (or file path) of a registry path, for messages. */
  where(path: string): string;
  /** Opens a registry file from byte `offset` (a `Range` request over HTTP). */
  open(path: string, offset: number, options?: OpenOptions): Promise<RegistryBody>;
  close(): Promise<void>;
}

const NETWORK_HINT = 'check the registry URL, your network and your proxy settings (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), then try again';

function errorCodes(e: unknown): string[] {
  const codes: string[] = [];
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const inner = (cur as { errors?: unknown }).errors;
    if (Array.isArray(inner)) codes.push(...inner.flatMap(errorCodes));
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
}

/** Turns an undici or socket error into a `RegistryError`; `phase` is where the request was. */
export function classifyNetworkError(
  e: unknown,
  url: string,
  phase: 'request' | 'body',
  timeouts: RegistryTimeouts,
  received = 0,
): RegistryError {
  if (e instanceof RegistryError) return e;
  const codes = errorCodes(e);
  const reason = (e as Error).message || codes[0] || String(e);
  const details = { url, retryable: true, causeCode: codes[0] };
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) {
    return new RegistryError(
      RegistryErrorCode.RegistryTimeout,
      `could not connect to ${url} within ${timeouts.connectMs} ms; the registry is down or a firewall drops the connection — ${NETWORK_HINT}`,
      details,
    );
  }
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT')) {
    return new RegistryError(
      RegistryErrorCode.RegistryTimeout,
      `${url} did not answer within ${timeouts.headersMs} ms; the registry server is overloaded or stuck — try again later, or tell its maintainer`,
      details,
    );
  }
  if (codes.includes('UND_ERR_BODY_TIMEOUT')) {
    return new RegistryError(
      RegistryErrorCode.RegistryTimeout,
      `${url} stopped sending for ${timeouts.bodyIdleMs} ms after ${received} bytes; the registry or the network stalled — try again (a partial download resumes where it stopped)`,
      details,
    );
  }
  if (phase === 'body') {
    return new RegistryError(
      RegistryErrorCode.RegistryTruncated,
      `the connection to ${url} broke after ${received} bytes (${reason}); try again (a partial download resumes where it stopped)`,
      details,
    );
  }
  return new RegistryError(RegistryErrorCode.RegistryUnreachable, `cannot reach ${url}: ${reason}; ${NETWORK_HINT}`, details);
}

function httpStatusError(url: string, status: number): RegistryError {
  const why =
    status === 404 || status === 410
      ? 'the registry does not have this file — check the registry URL and that the plugin version is published'
      : status === 401 || status === 403 || status === 407
        ? 'access was refused — check the registry URL and your proxy settings'
        : status >= 500
          ? 'the registry server failed — try again later, and tell its maintainer if it persists'
          : 'the registry refused the request — check the registry URL';
  return new RegistryError(RegistryErrorCode.RegistryHttpError, `${url} answered HTTP ${status}: ${why}`, {
    url,
    status,
    retryable: status >= 500,
  });
}

/** For streams whose errors reach the reader another way (or are of no interest after a cancel). */
function ignoreError(): void {}

const CONTENT_RANGE_RE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * undici, loaded on the first request: a command that never talks HTTP (`travsr init` of a
 * checkout, `index`) does not pay for loading it.
 */
interface Undici {
  EnvHttpProxyAgent: typeof EnvHttpProxyAgent;
  interceptors: typeof interceptors;
  request: typeof request;
}
let undici: Promise<Undici> | undefined;
const loadUndici = (): Promise<Undici> =>
  (undici ??= import('undici').then((ns) => {
    // A CommonJS package: its exports are named on the namespace or only on its default, depending on who loads it (Node, a bundle).
    const u = (ns.EnvHttpProxyAgent ? ns : (ns as unknown as { default: typeof ns }).default) as Undici;
    return { EnvHttpProxyAgent: u.EnvHttpProxyAgent, interceptors: u.interceptors, request: u.request };
  }));

/** Registry over HTTP(S) with undici: timeouts, redirects, `Range` and the environment's proxy. */
export class HttpTransport implements RegistryTransport {
  private readonly base: URL;
  private dispatcher: Dispatcher | undefined;
  private owned: Dispatcher | undefined;

  constructor(
    readonly location: string,
    private readonly timeouts: RegistryTimeouts,
    private readonly userAgent: string,
    private readonly given?: Dispatcher,
  ) {
    this.base = new URL(location.endsWith('/') ? location : `${location}/`);
  }

  /** The dispatcher requests go through: the given one, or the client's own, with redirects followed. */
  private async dispatcherFor(): Promise<{ dispatcher: Dispatcher; request: Undici['request'] }> {
    const { EnvHttpProxyAgent, interceptors, request } = await loadUndici();
    if (!this.dispatcher) {
      // proxyTunnel: false sends http:// requests to an HTTP proxy as absolute-URI GETs (as curl
      // does, and as proxies without CONNECT need); https:// is still tunnelled with CONNECT.
      this.owned = this.given ? undefined : new EnvHttpProxyAgent({ connect: { timeout: this.timeouts.connectMs }, proxyTunnel: false });
      this.dispatcher = (this.given ?? this.owned!).compose(interceptors.redirect({ maxRedirections: 5 }));
    }
    return { dispatcher: this.dispatcher, request };
  }

  where(path: string): string {
    return new URL(path, this.base).href;
  }

  async open(path: string, offset: number, options: OpenOptions = {}): Promise<RegistryBody> {
    const url = this.where(path);
    const signal = options.signal;
    const headers: Record<string, string> = { 'user-agent': this.userAgent, 'accept-encoding': 'identity' };
    if (offset > 0) headers.range = `bytes=${offset}-`;
    if (options.fresh) headers['cache-control'] = 'no-cache';
    let res: Dispatcher.ResponseData;
    try {
      const { dispatcher, request } = await this.dispatcherFor();
      res = await request(url, {
        dispatcher,
        headers,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyIdleMs,
        ...(signal ? { signal } : {}),
      });
    } catch (e) {
      throw deadlineError(signal) ?? classifyNetworkError(e, url, 'request', this.timeouts);
    }
    // Destroying a body that is still arriving makes undici emit 'error' (UND_ERR_ABORTED) on
    // it, and so does an abort; with no listener, that event would crash the process.
    res.body.on('error', ignoreError);
    const discard = (): Promise<void> => res.body.dump().catch(() => undefined);
    let start = 0;
    if (offset > 0 && res.statusCode === 206) {
      const range = CONTENT_RANGE_RE.exec(headerValue(res.headers['content-range']) ?? '');
      if (!range || Number(range[1]) !== offset) {
        // A range we did not ask for: start over with the whole file.
        await discard();
        return this.open(path, 0, options);
      }
      start = offset;
    } else if (offset > 0 && res.statusCode === 416) {
      await discard();
      return this.open(path, 0, options);
    } else if (res.statusCode !== 200) {
      await discard();
      throw httpStatusError(url, res.statusCode);
    }
    const announced = headerValue(res.headers['content-length']);
    const length = announced !== undefined && /^\d+$/.test(announced) ? Number(announced) : undefined;
    const timeouts = this.timeouts;
    const body = res.body;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      let received = 0;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          received += chunk.length;
          yield chunk;
        }
      } catch (e) {
        throw deadlineError(signal) ?? classifyNetworkError(e, url, 'body', timeouts, received);
      } finally {
        if (!body.destroyed) body.destroy();
      }
    }
    return { start, length, chunks: chunks(), cancel: () => body.destroy() };
  }

  async close(): Promise<void> {
    await this.owned?.close();
  }
}

/** Registry in a local directory (a plain path or a `file://` URL): no network, no retries needed. */
export class FileTransport implements RegistryTransport {
  constructor(
    readonly location: string,
    private readonly root: string,
  ) {}

  where(path: string): string {
    return join(this.root, ...path.split('/'));
  }

  async open(path: string, offset: number, options: OpenOptions = {}): Promise<RegistryBody> {
    const file = this.where(path);
    const signal = options.signal;
    const expired = deadlineError(signal);
    if (expired) throw expired;
    let size: number;
    try {
      const st = await stat(file);
      if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
      size = st.size;
    } catch (e) {
      const rootExists = await stat(this.root).then(
        (s) => s.isDirectory(),
        () => false,
      );
      throw new RegistryError(
        RegistryErrorCode.RegistryUnreachable,
        rootExists
          ? `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); ${this.root} is not a complete registry — check that the plugin version is published there`
          : `the registry directory ${this.root} does not exist; check the registry location (a directory, file:// URL or http(s):// URL)`,
        { url: pathToFileURL(file).href, retryable: false },
      );
    }
    const start = Math.min(offset, size);
    const stream = createReadStream(file, { start, ...(signal ? { signal } : {}) });
    stream.on('error', ignoreError);
    async function* chunks(): AsyncGenerator<Uint8Array> {
      let received = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          received += chunk.length;
          yield chunk;
        }
      } catch (e) {
        throw (
          deadlineError(signal) ??
          new RegistryError(
            RegistryErrorCode.RegistryTruncated,
            `reading ${file} failed after ${received} bytes (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); check the registry directory and its disk, then try again`,
            { url: pathToFileURL(file).href, retryable: true },
          )
        );
      } finally {
        stream.destroy();
      }
    }
    return { start, length: size - start, chunks: chunks(), cancel: () => stream.destroy() };
  }

  async close(): Promise<void> {}
}

/**
 * The transport for a registry location: `http://` and `https://` URLs go over undici,
 * `file://` URLs and plain paths read the directory.
 *
 * @throws RegistryError `REGISTRY_URL_INVALID` for any other scheme.
 */
export function transportFor(location: string, timeouts: RegistryTimeouts, userAgent: string, dispatcher?: Dispatcher): RegistryTransport {
  if (/^https?:\/\//i.test(location)) {
    try {
      return new HttpTransport(location, timeouts, userAgent, dispatcher);
    } catch (e) {
      if (e instanceof TypeError) {
        throw new RegistryError(
          RegistryErrorCode.RegistryUrlInvalid,
          `"${location}" is not a valid URL (${e.message}); fix the registry URL`,
        );
      }
      throw e;
    }
  }
  if (/^file:/i.test(location)) return new FileTransport(location, fileURLToPath(location));
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(location)) {
    throw new RegistryError(
      RegistryErrorCode.RegistryUrlInvalid,
      `"${location}" is not a registry location Travsr can read; use an http(s):// URL, a file:// URL or a directory path`,
    );
  }
  return new FileTransport(location, isAbsolute(location) ? location : resolve(location));
}

/** Checks that a path a document points at is a clean registry path before it reaches a URL. */
export function assertRegistryPath(path: string): string {
  if (!isRegistryPath(path)) {
    throw new RegistryError(
      RegistryErrorCode.DocumentInvalid,
      `"${path.slice(0, 80)}" is not a registry path; the registry document is damaged or malicious — tell its maintainer`,
    );
  }
  return path;
}
