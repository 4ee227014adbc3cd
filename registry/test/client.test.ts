// The registry client against real sockets: a registry built with the core library, served by
// a node:http server written here that can be told to misbehave in the ways real servers do.
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EnvHttpProxyAgent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RegistryClient, type RegistryClientOptions } from '../src/client.js';
import { generateSigningKey, TrustedKeys, trustedKeyOf, type SigningKey } from '../src/keys.js';
import { packPlugin, type PackResult } from '../src/pack.js';
import { publishArtifact, signRegistry } from '../src/publish.js';
import { serializeSignature, signSha256Sums } from '../src/signature.js';
import { treeHash } from '../src/tree-hash.js';
import { sha256File } from '../src/verify.js';
import { tempDir } from './tar-fixtures.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');
const ARTIFACT = '/artifacts/example-lua-0.1.0-any.tgz';
const PROXY_VARS = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;

/** Ways the test server misbehaves; artifact switches apply to `/artifacts/…` only. */
interface Misbehaviour {
  hangBeforeHeaders?: boolean;
  hangMidBody?: boolean;
  truncate?: { bytes: number; times: number };
  fail500?: number;
  sums500Always?: boolean;
  ignoreRange?: boolean;
  tamper?: boolean;
  signature?: string;
  endless?: boolean;
  /** Send this path's first `head` bytes, then the rest one at a time, `everyMs` apart (a server holding the client). */
  drip?: { path: string; everyMs: number; head?: number };
  /** Answer a `Range` request for the artifact with one byte more than the file has. */
  overflowOnResume?: boolean;
  /** Serve another copy of the registry (an older snapshot, replayed). */
  root?: string;
}

interface SeenRequest {
  path: string;
  range: string | undefined;
}

interface TestServer {
  url: string;
  mode: Misbehaviour;
  requests: SeenRequest[];
  endlessSent: number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function startRegistryServer(root: string): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const state: TestServer = { url: '', mode: {}, requests: [], endlessSent: 0, close: async () => {} };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname);
    state.requests.push({ path, range: req.headers.range });
    const m = state.mode;
    const isArtifact = path.startsWith('/artifacts/');
    if (m.hangBeforeHeaders) return;
    if (path.startsWith('/moved/')) return void res.writeHead(301, { location: path.slice('/moved'.length) }).end();
    if (path === '/SHA256SUMS' && m.sums500Always) return void res.writeHead(500).end('internal error');
    if (isArtifact && (m.fail500 ?? 0) > 0) {
      m.fail500 = (m.fail500 ?? 0) - 1;
      return void res.writeHead(500).end('internal error');
    }
    if (path === '/SHA256SUMS.sig' && m.signature !== undefined) return void res.end(m.signature);
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(m.root ?? root, path));
    } catch {
      return void res.writeHead(404).end('not found');
    }
    if (isArtifact && m.endless) {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = (): void => {
        while (!res.destroyed && state.endlessSent < 1 << 30) {
          state.endlessSent += chunk.length;
          if (!res.write(chunk)) return;
        }
      };
      res.on('drain', pump);
      return pump();
    }
    if (m.drip?.path === path) {
      res.writeHead(200, { 'content-length': bytes.length });
      let sent = m.drip.head ?? 0;
      if (sent > 0) res.write(bytes.subarray(0, sent));
      const timer = setInterval(() => {
        if (res.destroyed || sent >= bytes.length) return void clearInterval(timer);
        res.write(bytes.subarray(sent, ++sent));
      }, m.drip.everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (isArtifact && m.overflowOnResume && /^bytes=\d+-$/.test(req.headers.range ?? '')) {
      const start = Number(/\d+/.exec(req.headers.range ?? '')?.[0]);
      const longer = Buffer.concat([bytes, Buffer.from('!')]);
      res.writeHead(206, {
        'content-range': `bytes ${start}-${longer.length - 1}/${longer.length}`,
        'content-length': longer.length - start,
      });
      return void res.end(longer.subarray(start));
    }
    if (isArtifact && m.tamper) {
      bytes = Buffer.from(bytes);
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    let start = 0;
    if (range && !(isArtifact && m.ignoreRange)) {
      start = Number(range[1]);
      if (start >= bytes.length) return void res.writeHead(416).end();
      res.writeHead(206, { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`, 'content-length': bytes.length - start });
    } else {
      res.writeHead(200, { 'content-length': bytes.length });
    }
    const body = bytes.subarray(start);
    if (isArtifact && m.hangMidBody) return void res.write(body.subarray(0, body.length >> 1));
    if (isArtifact && m.truncate && m.truncate.times > 0) {
      m.truncate.times--;
      // Close a moment after the bytes left, so that the client has them before it sees the close.
      return void res.write(body.subarray(0, m.truncate.bytes), () => setTimeout(() => req.socket.destroy(), 50));
    }
    res.end(body);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  state.url = await listen(server);
  state.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((ok) => server.close(ok));
  };
  return state;
}

/** A forwarding HTTP proxy for http:// targets (absolute-URI GETs; no CONNECT). */
async function startProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const url = await listen(server);
  return {
    url,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (e) {
    return { code: String((e as { code?: unknown }).code), message: (e as Error).message };
  }
  throw new Error('expected a rejection');
}

describe('RegistryClient', () => {
  let key: SigningKey;
  let trustedKeys: TrustedKeys;
  let registry: string;
  let packed: PackResult;
  let server: TestServer;
  const savedEnv: Partial<Record<(typeof PROXY_VARS)[number], string | undefined>> = {};
  const clients: RegistryClient[] = [];

  function client(options: Partial<RegistryClientOptions> = {}): RegistryClient {
    const c = new RegistryClient({ url: server.url, trustedKeys, retryDelayMs: 10, ...options });
    clients.push(c);
    return c;
  }

  const artifactRequests = (): SeenRequest[] => server.requests.filter((r) => r.path === ARTIFACT);

  beforeAll(async () => {
    for (const name of PROXY_VARS) {
      savedEnv[name] = process.env[name];
      delete process.env[name];
    }
    key = generateSigningKey();
    trustedKeys = new TrustedKeys([trustedKeyOf(key)]);
    registry = join(tempDir(), 'registry');
    packed = await packPlugin(EXAMPLE_LUA, tempDir());
    await publishArtifact(registry, packed.file, key);
    server = await startRegistryServer(registry);
  });

  afterAll(async () => {
    await server.close();
    for (const name of PROXY_VARS) {
      const value = savedEnv[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  beforeEach(() => {
    server.mode = {};
    server.requests.length = 0;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('installs over HTTP: verified snapshot, resolved version, matching tree hash', async () => {
    const c = client();
    const snap = await c.snapshot();
    expect(snap.signedBy).toBe(key.keyId);
    expect(snap.index.plugins['example-lua']?.versions).toEqual(['0.1.0']);
    const root = tempDir();
    const result = await c.install('example-lua', '^0.1', root);
    expect(result).toEqual({
      id: 'example-lua',
      version: '0.1.0',
      dir: join(root, 'example-lua', '0.1.0'),
      sha256: packed.sha256,
      treeHash: packed.treeHash,
      alreadyInstalled: false,
    });
    expect(await treeHash(result.dir)).toBe(packed.treeHash);
    expect(existsSync(join(root, '.downloads', 'example-lua-0.1.0-any-' + packed.sha256.slice(0, 16) + '.tgz'))).toBe(false);

    server.requests.length = 0;
    const again = await c.install('example-lua', '0.1.0', root);
    expect(again.alreadyInstalled).toBe(true);
    expect(artifactRequests()).toHaveLength(0);
  });

  it('installs from a file:// URL and from a plain directory path', async () => {
    for (const url of [pathToFileURL(registry).href, registry]) {
      const root = tempDir();
      const result = await client({ url }).install('example-lua', '*', root);
      expect(result.treeHash).toBe(packed.treeHash);
      expect(await treeHash(join(root, 'example-lua', '0.1.0'))).toBe(packed.treeHash);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('follows redirects', async () => {
    const result = await client({ url: `${server.url}/moved/` }).install('example-lua', '^0.1', tempDir());
    expect(result.treeHash).toBe(packed.treeHash);
    expect(server.requests.map((r) => r.path)).toContain(`/moved${ARTIFACT}`);
    expect(artifactRequests()).toHaveLength(1);
  });

  it('file(): the raw bytes of a registry file, retried on 500, refused above the size limit', async () => {
    const artifact = ARTIFACT.slice(1);
    server.mode = { fail500: 1 };
    const bytes = await client().file(artifact);
    expect(bytes.equals(readFileSync(join(registry, artifact)))).toBe(true);
    expect(artifactRequests().length).toBe(2);
    const e = await codeOf(client().file(artifact, 100));
    expect(e.code).toBe('REGISTRY_DOCUMENT_INVALID');
    expect(e.message).toMatch(/is larger than 100 bytes/);
  });

  it('retries 500 answers and succeeds on the third try', async () => {
    server.mode = { fail500: 2 };
    const result = await client().install('example-lua', '^0.1', tempDir());
    expect(result.treeHash).toBe(packed.treeHash);
    expect(artifactRequests()).toHaveLength(3);
  });

  it('gives up on a registry that always answers 500 with REGISTRY_HTTP_ERROR after 1 + retries tries', async () => {
    server.mode = { sums500Always: true };
    const err = await codeOf(client({ retries: 2 }).snapshot());
    expect(err.code).toBe('REGISTRY_HTTP_ERROR');
    expect(err.message).toContain(`${server.url}/SHA256SUMS answered HTTP 500`);
    expect(err.message).toContain('3 attempts');
    expect(server.requests.filter((r) => r.path === '/SHA256SUMS')).toHaveLength(3);
  });

  it('does not retry a 404 and names the URL', async () => {
    const err = await codeOf(client({ url: `${server.url}/nowhere/` }).snapshot());
    expect(err.code).toBe('REGISTRY_HTTP_ERROR');
    expect(err.message).toContain(`${server.url}/nowhere/SHA256SUMS answered HTTP 404`);
    expect(server.requests.filter((r) => r.path === '/nowhere/SHA256SUMS')).toHaveLength(1);
  });

  it('reports a closed port as REGISTRY_UNREACHABLE', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((ok) => closed.close(ok));
    const err = await codeOf(client({ url, retries: 1 }).snapshot());
    expect(err.code).toBe('REGISTRY_UNREACHABLE');
    expect(err.message).toContain(url);
  });

  it('times out a registry that never answers (REGISTRY_TIMEOUT)', async () => {
    server.mode = { hangBeforeHeaders: true };
    const started = Date.now();
    const err = await codeOf(client({ retries: 1, timeouts: { headersMs: 200 } }).snapshot());
    expect(err.code).toBe('REGISTRY_TIMEOUT');
    expect(err.message).toContain('did not answer within 200 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('times out a registry that hangs mid-body, then resumes the kept part with Range', async () => {
    const c0 = client();
    const { artifact } = await c0.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    server.mode = { hangMidBody: true };
    const started = Date.now();
    const err = await codeOf(client({ retries: 0, timeouts: { bodyIdleMs: 300 } }).download(artifact, dest));
    expect(err.code).toBe('REGISTRY_TIMEOUT');
    expect(err.message).toContain('stopped sending for 300 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    const kept = statSync(`${dest}.part`).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(artifact.size);

    server.mode = {};
    const done = await c0.download(artifact, dest);
    expect(done.resumedFrom).toBe(kept);
    expect(artifactRequests().at(-1)?.range).toBe(`bytes=${kept}-`);
    expect((await sha256File(dest)).sha256).toBe(artifact.sha256);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it('reports a truncated body as REGISTRY_TRUNCATED, then resumes it with Range', async () => {
    const c = client({ retries: 0 });
    const { artifact } = await c.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    server.mode = { truncate: { bytes: 1000, times: 1 } };
    const err = await codeOf(c.download(artifact, dest));
    expect(err.code).toBe('REGISTRY_TRUNCATED');
    expect(err.message).toContain(`${server.url}${ARTIFACT}`);
    expect(statSync(`${dest}.part`).size).toBe(1000);

    const done = await c.download(artifact, dest);
    expect(done.resumedFrom).toBe(1000);
    expect(artifactRequests().map((r) => r.range)).toEqual([undefined, 'bytes=1000-']);
    expect((await sha256File(dest)).sha256).toBe(artifact.sha256);
  });

  it('resumes a truncated download by itself when retries are left', async () => {
    server.mode = { truncate: { bytes: 1000, times: 1 } };
    const result = await client().install('example-lua', '^0.1', tempDir());
    expect(result.treeHash).toBe(packed.treeHash);
    expect(artifactRequests().map((r) => r.range)).toEqual([undefined, 'bytes=1000-']);
  });

  it('starts over when the server ignores Range and answers 200', async () => {
    const c = client();
    const { artifact } = await c.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    writeFileSync(`${dest}.part`, Buffer.alloc(1000, 0x78)); // junk that must not survive
    server.mode = { ignoreRange: true };
    const done = await c.download(artifact, dest);
    expect(artifactRequests()[0]?.range).toBe('bytes=1000-');
    expect(done.resumedFrom).toBe(0);
    expect((await sha256File(dest)).sha256).toBe(artifact.sha256);
  });

  it('downloads again from zero when a resumed part turns out damaged', async () => {
    const c = client();
    const { artifact } = await c.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    writeFileSync(`${dest}.part`, Buffer.alloc(1000, 0x78));
    await c.download(artifact, dest);
    expect(artifactRequests().map((r) => r.range)).toEqual(['bytes=1000-', undefined]);
    expect((await sha256File(dest)).sha256).toBe(artifact.sha256);
  });

  it('stops an endless body at the recorded size and removes the part', async () => {
    const c = client();
    const { artifact } = await c.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    server.mode = { endless: true };
    const err = await codeOf(c.download(artifact, dest));
    expect(err.code).toBe('ARTIFACT_SIZE_MISMATCH');
    expect(existsSync(`${dest}.part`)).toBe(false);
    expect(existsSync(dest)).toBe(false);
    await new Promise((ok) => setTimeout(ok, 50));
    expect(server.endlessSent).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a tampered artifact (ARTIFACT_HASH_MISMATCH) and installs nothing', async () => {
    server.mode = { tamper: true };
    const root = tempDir();
    const err = await codeOf(client().install('example-lua', '^0.1', root));
    expect(err.code).toBe('ARTIFACT_HASH_MISMATCH');
    expect(existsSync(join(root, 'example-lua'))).toBe(false);
    expect(readdirSync(join(root, '.downloads'))).toEqual([]);
  });

  it('refuses SHA256SUMS signed by an unknown key (KEY_UNKNOWN)', async () => {
    const sums = readFileSync(join(registry, 'SHA256SUMS'), 'utf8');
    server.mode = { signature: serializeSignature(signSha256Sums(sums, generateSigningKey())) };
    const err = await codeOf(client().snapshot());
    expect(err.code).toBe('KEY_UNKNOWN');
  });

  it('refuses to go back from a locked version (VERSION_ROLLBACK) or to other locked hashes', async () => {
    const root = tempDir();
    const rollback = await codeOf(client().install('example-lua', '*', root, { lockedVersion: '0.2.0' }));
    expect(rollback.code).toBe('VERSION_ROLLBACK');
    const lock = await codeOf(
      client().install('example-lua', '0.1.0', root, { lockedVersion: '0.1.0', lockedHashes: { sha256: '0'.repeat(64) } }),
    );
    expect(lock.code).toBe('LOCK_HASH_MISMATCH');
    expect(lock.message).toContain('lock file pins');
    expect(artifactRequests()).toHaveLength(0);
    expect(existsSync(join(root, 'example-lua'))).toBe(false);
    const ok = await client().install('example-lua', '0.1.0', root, {
      lockedVersion: '0.1.0',
      lockedHashes: { sha256: packed.sha256, treeHash: packed.treeHash },
    });
    expect(ok.alreadyInstalled).toBe(false);
  });

  it.skipIf(!existsSync('/dev/full'))('reports a full disk as DISK_FULL and removes the part', async () => {
    const c = client();
    const { artifact } = await c.resolve('example-lua', '0.1.0');
    const dir = tempDir();
    const dest = join(dir, 'a.tgz');
    symlinkSync('/dev/full', `${dest}.part`); // every write fails with ENOSPC
    const err = await codeOf(c.download(artifact, dest));
    expect(err.code).toBe('DISK_FULL');
    expect(err.message).toContain('free at least');
    expect(() => lstatSync(`${dest}.part`)).toThrow();
  });

  it('goes through HTTP_PROXY, with an EnvHttpProxyAgent and with the default dispatcher', async () => {
    const proxy = await startProxy();
    process.env.HTTP_PROXY = proxy.url;
    try {
      const agent = new EnvHttpProxyAgent({ proxyTunnel: false });
      const viaAgent = await client({ dispatcher: agent }).install('example-lua', '^0.1', tempDir());
      expect(viaAgent.treeHash).toBe(packed.treeHash);
      expect(proxy.seen).toContain(`${server.url}/SHA256SUMS`);
      expect(proxy.seen).toContain(`${server.url}${ARTIFACT}`);
      await agent.close();

      proxy.seen.length = 0;
      await client().install('example-lua', '^0.1', tempDir());
      expect(proxy.seen).toContain(`${server.url}${ARTIFACT}`);
    } finally {
      delete process.env.HTTP_PROXY;
      await proxy.close();
    }
  });

  it('stops a registry that drips SHA256SUMS a byte at a time at the overall deadline (REGISTRY_DEADLINE_EXCEEDED), without retrying', async () => {
    server.mode = { drip: { path: '/SHA256SUMS', everyMs: 50 } };
    const err = await codeOf(client({ retries: 3, timeouts: { deadlineMs: 500 } }).snapshot());
    expect(err.code).toBe('REGISTRY_DEADLINE_EXCEEDED');
    expect(err.message).toContain(`${server.url}/SHA256SUMS took longer than the 500 ms allowed`);
    expect(server.requests.filter((r) => r.path === '/SHA256SUMS')).toHaveLength(1);
  });

  it('stops a dripping download at its deadline and keeps the part, which a later download resumes', async () => {
    const c0 = client();
    const { artifact } = await c0.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    server.mode = { drip: { path: ARTIFACT, everyMs: 50, head: 1000 } };
    const err = await codeOf(client({ timeouts: { deadlineMs: 1000, minBytesPerSecond: 1e9 } }).download(artifact, dest));
    expect(err.code).toBe('REGISTRY_DEADLINE_EXCEEDED');
    expect(err.message).toContain(`${server.url}${ARTIFACT}`);
    const kept = statSync(`${dest}.part`).size;
    expect(kept).toBeGreaterThanOrEqual(1000);
    expect(kept).toBeLessThan(artifact.size);

    server.mode = {};
    const done = await c0.download(artifact, dest);
    expect(done.resumedFrom).toBe(kept);
    expect((await sha256File(dest)).sha256).toBe(artifact.sha256);
  });

  it('refuses a resumed download that sends one byte too many (ARTIFACT_SIZE_MISMATCH), removes the part, and does not crash', async () => {
    const c = client({ retries: 0 });
    const { artifact } = await c.resolve('example-lua', '0.1.0');
    const dest = join(tempDir(), 'a.tgz');
    // A download cut off near its end: the short rest, and the byte too many, arrive with the
    // headers, so the body is complete when the client refuses it (undici then has no listener).
    const have = artifact.size - 10;
    writeFileSync(`${dest}.part`, readFileSync(join(registry, ARTIFACT)).subarray(0, have));
    server.mode = { overflowOnResume: true };
    const err = await codeOf(c.download(artifact, dest));
    expect(err.code).toBe('ARTIFACT_SIZE_MISMATCH');
    expect(existsSync(`${dest}.part`)).toBe(false);
    // Let an 'error' event the abort may still emit reach the process: it must find a listener.
    await new Promise((ok) => setTimeout(ok, 100));

    server.mode = {};
    await c.download(artifact, dest);
    expect(artifactRequests().map((r) => r.range)).toEqual([`bytes=${have}-`, undefined]);
    expect((await sha256File(dest)).sha256).toBe(artifact.sha256);
  });

  it('refuses a replayed older snapshot once a newer one was seen (SNAPSHOT_ROLLBACK), naming both dates', async () => {
    const old = join(tempDir(), 'old');
    cpSync(registry, old, { recursive: true });
    const newer = join(tempDir(), 'newer');
    cpSync(registry, newer, { recursive: true });
    const { created: newCreated } = await signRegistry(newer, key, { now: new Date(Date.now() + 86_400_000) });
    const oldCreated = (JSON.parse(readFileSync(join(old, 'SHA256SUMS.sig'), 'utf8')) as { created: string }).created;
    const history = join(tempDir(), 'registry-snapshots.json');

    server.mode = { root: newer };
    expect((await client({ snapshotHistory: history }).snapshot()).created).toBe(newCreated);
    server.mode = { root: old };
    // Without the history the replay goes unnoticed: its signature is valid.
    expect((await client().snapshot()).created).toBe(oldCreated);
    server.requests.length = 0;
    const err = await codeOf(client({ snapshotHistory: history }).install('example-lua', '*', tempDir()));
    expect(err.code).toBe('SNAPSHOT_ROLLBACK');
    expect(err.message).toContain(oldCreated);
    expect(err.message).toContain(newCreated);
    expect(err.message).toContain(history);
    expect(artifactRequests()).toHaveLength(0);
    const remembered = JSON.parse(readFileSync(history, 'utf8')) as { registries: Record<string, { created: string }> };
    expect(remembered.registries[`${server.url}/`]?.created).toBe(newCreated);

    server.mode = { root: newer };
    await expect(client({ snapshotHistory: history }).snapshot()).resolves.toMatchObject({ created: newCreated });
  });
});
