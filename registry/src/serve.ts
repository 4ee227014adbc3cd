import { createHash } from 'node:crypto';
import { constants as fsConstants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { TravsrError } from '@travsr/protocol';
import { artifactPath, INDEX_FILE, PLATFORMS, sbomPath, SIGNATURE_FILE, SUMS_FILE, versionDocumentPath } from './layout.js';
import { isVersion } from './semver.js';
import { isRegistryPath } from './sha256-sums.js';

/**
 * String codes of {@link RegistryServerError}.
 *
 * @example
 * ```ts
 * RegistryServerErrorCode.ListenFailed === 'REGISTRY_LISTEN_FAILED'; // true
 * ```
 */
export const RegistryServerErrorCode = {
  /** The directory to serve does not exist or is not a directory. */
  NotADirectory: 'REGISTRY_NOT_A_DIRECTORY',
  /** The server could not listen on the address (in use, not permitted, no such address). */
  ListenFailed: 'REGISTRY_LISTEN_FAILED',
} as const;
export type RegistryServerErrorCode = (typeof RegistryServerErrorCode)[keyof typeof RegistryServerErrorCode];

/**
 * An error of {@link serveRegistry}, raised before the server accepts any request.
 *
 * @example
 * ```ts
 * try { await serveRegistry({ dir, port: 80 }); } catch (e) {
 *   if (errorCode(e) === 'REGISTRY_LISTEN_FAILED') console.error((e as Error).message);
 * }
 * ```
 */
export class RegistryServerError extends TravsrError {
  override readonly name = 'RegistryServerError';
  constructor(
    readonly code: RegistryServerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** One answered request, as given to {@link ServeRegistryOptions.onRequest}. */
export interface RegistryRequestLog {
  method: string;
  /** The request target as received (path and query). */
  url: string;
  status: number;
  /** Body bytes read from the file for the response (0 for HEAD, 304 and refused requests). */
  bytes: number;
  durationMs: number;
  remoteAddress: string;
  /** The `Range` header, when there was one. */
  range?: string;
}

/** Options of {@link serveRegistry}. */
export interface ServeRegistryOptions {
  /** The registry directory (as written by `publishArtifact`). */
  dir: string;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 (the default) takes any free port — read it from the result. */
  port?: number;
  /** Called once per finished request (an access log); exceptions it throws are ignored. */
  onRequest?: (entry: RegistryRequestLog) => void;
}

/** A running registry server. */
export interface RegistryServer {
  /** Base URL of the registry, ending in `/`: `http://127.0.0.1:7434/`. */
  url: string;
  port: number;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

/** Seconds that `index.json`, `SHA256SUMS` and its signature may be cached: they change at every publish. */
const MUTABLE_MAX_AGE = 60;
const MUTABLE_CACHE = `public, max-age=${MUTABLE_MAX_AGE}`;
// A published version never changes (publish refuses REGISTRY_VERSION_EXISTS), so neither do its files.
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
const ALLOW = 'GET, HEAD';
const ETAG_CACHE_LIMIT = 4096;

interface ServedFile {
  contentType: string;
  cacheControl: string;
}

const TOP_LEVEL: ReadonlyMap<string, ServedFile> = new Map([
  [INDEX_FILE, { contentType: 'application/json', cacheControl: MUTABLE_CACHE }],
  [SUMS_FILE, { contentType: 'text/plain; charset=utf-8', cacheControl: MUTABLE_CACHE }],
  [SIGNATURE_FILE, { contentType: 'application/json', cacheControl: MUTABLE_CACHE }],
]);

function matchesLayout(build: () => string, path: string): boolean {
  try {
    return build() === path;
  } catch {
    return false;
  }
}

/**
 * `<fileId>-<version>-<platform>.tgz` (an artifact, `kind` `tgz`) or `.cdx.json` (its SBOM):
 * ids and versions may hold `-`, so try every split.
 */
function isArtifactPath(path: string, kind: 'tgz' | 'sbom'): boolean {
  const name = path.slice('artifacts/'.length);
  const layout = kind === 'tgz' ? artifactPath : sbomPath;
  for (const platform of PLATFORMS) {
    const suffix = `-${platform}${kind === 'tgz' ? '.tgz' : '.cdx.json'}`;
    if (!name.endsWith(suffix)) continue;
    const stem = name.slice(0, -suffix.length);
    for (let i = stem.indexOf('-'); i > 0; i = stem.indexOf('-', i + 1)) {
      const id = stem.slice(0, i).replace('~', '/');
      const version = stem.slice(i + 1);
      if (isVersion(version) && matchesLayout(() => layout(id, version, platform), path)) return true;
    }
  }
  return false;
}

/**
 * What is served at a registry path, or `undefined` when the path is not a file of the
 * registry layout (so nothing else in the directory — lock files, temporary files, keys
 * left there by mistake — is ever served).
 */
function layoutFile(path: string): ServedFile | undefined {
  if (!isRegistryPath(path)) return undefined;
  const top = TOP_LEVEL.get(path);
  if (top) return top;
  const parts = path.split('/');
  if (parts.length === 3 && parts[0] === 'plugins' && parts[2]?.endsWith('.json')) {
    const id = (parts[1] ?? '').replace('~', '/');
    const version = (parts[2] ?? '').slice(0, -'.json'.length);
    if (isVersion(version) && matchesLayout(() => versionDocumentPath(id, version), path)) {
      return { contentType: 'application/json', cacheControl: IMMUTABLE_CACHE };
    }
  }
  if (parts.length === 2 && parts[0] === 'artifacts' && isArtifactPath(path, 'tgz')) {
    return { contentType: 'application/gzip', cacheControl: IMMUTABLE_CACHE };
  }
  if (parts.length === 2 && parts[0] === 'artifacts' && isArtifactPath(path, 'sbom')) {
    return { contentType: 'application/vnd.cyclonedx+json', cacheControl: IMMUTABLE_CACHE };
  }
  return undefined;
}

/**
 * The registry path a request target names, or `undefined`. No URL normalisation happens
 * here (it would quietly resolve `..` and `%2e%2e`): the decoded path must already be clean.
 */
function requestPath(target: string): string | undefined {
  const origin = /^https?:\/\/[^/?#]*/i.exec(target);
  const rest = origin ? target.slice(origin[0].length) : target;
  if (!rest.startsWith('/')) return undefined;
  const raw = rest.slice(1).split(/[?#]/, 1)[0] ?? '';
  if (raw.includes('\\')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return isRegistryPath(decoded) ? decoded : undefined;
}

type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined;

/**
 * One `bytes=` range of a file of `size` bytes (inclusive `end`). `undefined` means "answer
 * with the whole file": no header, a syntax this server ignores, or several ranges.
 */
function parseRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

function etagList(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter((t) => t !== '');
}

function secondsOf(ms: number): number {
  return Math.floor(ms / 1000);
}

/** 304 per RFC 9110 §13.2.2: `If-None-Match` (weak comparison) wins over `If-Modified-Since`. */
function notModified(req: IncomingMessage, etag: string, st: Stats): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return etagList(inm).some((t) => t === '*' || t === etag);
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && secondsOf(st.mtimeMs) <= secondsOf(since);
}

/** `If-Range`: a range applies only to the representation the client already has part of. */
function rangeStillValid(req: IncomingMessage, etag: string, st: Stats): boolean {
  const ifRange = req.headers['if-range'];
  if (typeof ifRange !== 'string') return true;
  if (ifRange.startsWith('"')) return ifRange === etag; // strong comparison
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && secondsOf(date) === secondsOf(st.mtimeMs);
}

/** SHA-256 ETags, remembered per file by inode, size and mtime (publish replaces files by rename). */
class EtagCache {
  readonly #entries = new Map<string, Promise<string>>();

  get(file: string, handle: FileHandle, st: Stats): Promise<string> {
    const key = `${file}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    let etag = this.#entries.get(key);
    if (etag === undefined) {
      etag = hashHandle(handle, st.size).then((hex) => `"${hex}"`);
      void etag.catch(() => this.#entries.delete(key));
      // Forget the oldest entry; a registry has far fewer files than this in its working set.
      if (this.#entries.size >= ETAG_CACHE_LIMIT) this.#entries.delete(this.#entries.keys().next().value ?? '');
      this.#entries.set(key, etag);
    }
    return etag;
  }
}

async function hashHandle(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(1 << 16);
  for (let position = 0; position < size;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('hex');
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Serves a registry directory over HTTP, read-only: the static server a registry needs
 * behind a real web server (or alone on a trusted network).
 *
 * - `GET` and `HEAD` only (others: 405 with `Allow`), and only the files of the registry
 *   layout — `index.json`, `SHA256SUMS`, `SHA256SUMS.sig`, `plugins/<id>/<version>.json`,
 *   `artifacts/<id>-<version>-<platform>.tgz` and its SBOM `….cdx.json`; anything else is 404. Paths are decoded once and
 *   must then be clean (`..`, `%2e%2e`, `\`, empty segments are 404), and a file whose real
 *   path (after symlinks) leaves the directory is 404 too.
 * - Strong ETags (the file's SHA-256, so they equal the `SHA256SUMS` entries) and
 *   `Last-Modified`; `If-None-Match` / `If-Modified-Since` give 304.
 * - One `Range` (`bytes=a-b`, `a-`, `-n`) gives 206 with `Content-Range` (honouring
 *   `If-Range`), an unsatisfiable one 416; several ranges get the whole file (200).
 * - `Cache-Control`: a minute for `index.json`, `SHA256SUMS` and its signature (they change
 *   at every publish), a year and `immutable` for version documents and artifacts (published
 *   versions never change). `X-Content-Type-Options: nosniff` on every response.
 *
 * @throws RegistryServerError `REGISTRY_NOT_A_DIRECTORY` or `REGISTRY_LISTEN_FAILED`.
 * @example
 * ```ts
 * const server = await serveRegistry({ dir: '/srv/registry', port: 7434, onRequest: (r) => console.error(r.status, r.url) });
 * console.error(`registry at ${server.url}`); // http://127.0.0.1:7434/
 * await server.close();
 * ```
 */
/**
 * Why a server could not listen, and what to do, for an error of `server.listen` (shared by
 * `travsr registry serve` and `travsr mcp --http`).
 *
 * @example
 * ```ts
 * server.once('error', (e) => reject(new Error(`cannot listen on ${host}:${port}: ${listenFailureReason(e)}`)));
 * ```
 */
export function listenFailureReason(e: NodeJS.ErrnoException): string {
  if (e.code === 'EADDRINUSE') return 'the address is in use; stop the other server or choose another port';
  if (e.code === 'EACCES') return 'permission denied; choose a port above 1023';
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
    return 'this machine has no such address; use 127.0.0.1, 0.0.0.0 or one of its interface addresses';
  return e.message;
}

export async function serveRegistry(options: ServeRegistryOptions): Promise<RegistryServer> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 0;
  let root: string;
  try {
    root = await realpath(options.dir);
    if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new RegistryServerError(
      RegistryServerErrorCode.NotADirectory,
      `cannot serve ${options.dir}: it is not a directory; pass the registry directory that travsr registry publish writes to`,
    );
  }
  const etags = new EtagCache();

  /** Opens a layout file if its real path is inside the registry, else `undefined`. */
  async function openInside(path: string): Promise<{ handle: FileHandle; file: string; st: Stats } | undefined> {
    let file: string;
    try {
      file = await realpath(join(root, ...path.split('/')));
    } catch {
      return undefined;
    }
    if (!file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return undefined;
    let handle: FileHandle;
    try {
      handle = await open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
    } catch {
      return undefined;
    }
    const st = await handle.stat().catch(() => undefined);
    if (!st?.isFile()) {
      await handle.close();
      return undefined;
    }
    return { handle, file, st };
  }

  function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    const body = `${message}\n`;
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      ...headers,
    });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, sent: { bytes: number }): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(res, 405, `${req.method ?? 'this method'} is not allowed: the registry is read-only`, { Allow: ALLOW });
      return;
    }
    const path = requestPath(req.url ?? '');
    const served = path === undefined ? undefined : layoutFile(path);
    const opened = path !== undefined && served ? await openInside(path) : undefined;
    if (!served || !opened) {
      refuse(res, 404, 'not found');
      return;
    }
    const { handle: fh, file, st } = opened;
    let streaming = false;
    try {
      const etag = await etags.get(file, fh, st);
      const headers: Record<string, string> = {
        ETag: etag,
        'Last-Modified': new Date(st.mtimeMs).toUTCString(),
        'Cache-Control': served.cacheControl,
        'Accept-Ranges': 'bytes',
      };
      if (notModified(req, etag, st)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      const range = rangeStillValid(req, etag, st) ? parseRange(req.headers.range, st.size) : undefined;
      if (range === 'unsatisfiable') {
        refuse(res, 416, `range not satisfiable: the file has ${st.size} bytes`, {
          ...headers,
          'Cache-Control': 'no-store',
          'Content-Range': `bytes */${st.size}`,
        });
        return;
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? st.size - 1;
      const length = Math.max(0, end - start + 1);
      res.writeHead(range ? 206 : 200, {
        ...headers,
        'Content-Type': served.contentType,
        'Content-Length': length,
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${st.size}` } : {}),
      });
      if (req.method === 'HEAD' || length === 0) {
        res.end();
        return;
      }
      streaming = true;
      const body = fh.createReadStream({ start, end });
      body.on('data', (chunk: string | Buffer) => (sent.bytes += chunk.length));
      await pipeline(body, res);
    } finally {
      if (!streaming) await fh.close();
    }
  }

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    const sent = { bytes: 0 };
    res.once('close', () => {
      if (!options.onRequest) return;
      try {
        options.onRequest({
          method: req.method ?? '',
          url: req.url ?? '',
          status: res.statusCode,
          bytes: sent.bytes,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          remoteAddress: req.socket.remoteAddress ?? '',
          ...(req.headers.range !== undefined ? { range: req.headers.range } : {}),
        });
      } catch {
        // A failing log hook must not take the server down.
      }
    });
    handle(req, res, sent).catch(() => {
      // A client that goes away mid-download ends the pipeline with an error; nothing to answer then.
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      reject(
        new RegistryServerError(
          RegistryServerErrorCode.ListenFailed,
          `cannot serve the registry on ${host}:${requestedPort}: ${listenFailureReason(e)}`,
        ),
      );
    };
    server.once('error', onError);
    server.listen(requestedPort, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostForUrl(host)}:${port}/`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
