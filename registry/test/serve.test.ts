// A real registry (example-lua packed and published) served on 127.0.0.1 and read over real
// sockets. Requests go through node:http so that paths reach the server exactly as written:
// fetch and undici resolve `..` and `%2e%2e` before sending, which would hide traversal bugs.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey, type SigningKey } from '../src/keys.js';
import { packPlugin } from '../src/pack.js';
import { publishArtifact, signRegistry } from '../src/publish.js';
import { serveRegistry, type RegistryRequestLog, type RegistryServer } from '../src/serve.js';
import { parseSha256Sums } from '../src/sha256-sums.js';
import { tempDir } from './tar-fixtures.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');
const ARTIFACT = 'artifacts/example-lua-0.1.0-any.tgz';
const VERSION_DOC = 'plugins/example-lua/0.1.0.json';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let work: string;
let registry: string;
let key: SigningKey;
let server: RegistryServer;
const log: RegistryRequestLog[] = [];

/** One request with the path sent byte for byte as given. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

function file(path: string): Buffer {
  return readFileSync(join(registry, path));
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

beforeAll(async () => {
  work = tempDir('travsr-serve-');
  registry = join(work, 'registry');
  key = generateSigningKey();
  const packed = await packPlugin(EXAMPLE_LUA, join(work, 'out'));
  await publishArtifact(registry, packed.file, key, { now: new Date('2026-01-01T00:00:00Z') });
  // Files that are in the directory but not in the registry layout.
  writeFileSync(join(registry, 'registry.key'), key.privateKeyPem);
  writeFileSync(join(registry, '.travsr-tmp-index.json-0a1b2c'), '{}');
  writeFileSync(join(registry, 'index.json.bak'), '{}');
  writeFileSync(join(work, 'secret'), 'outside the registry\n');
  server = await serveRegistry({ dir: registry, onRequest: (r) => log.push(r) });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('serveRegistry', () => {
  it('listens on a free port of 127.0.0.1 and reports its URL', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it('serves every file of the layout with its type, length, caching and an ETag equal to its signed SHA-256', async () => {
    const sums = parseSha256Sums(file('SHA256SUMS').toString('utf8'));
    const expected = [
      ['index.json', 'application/json', 'public, max-age=60'],
      ['SHA256SUMS', 'text/plain; charset=utf-8', 'public, max-age=60'],
      ['SHA256SUMS.sig', 'application/json', 'public, max-age=60'],
      [VERSION_DOC, 'application/json', 'public, max-age=31536000, immutable'],
      [ARTIFACT, 'application/gzip', 'public, max-age=31536000, immutable'],
    ] as const;
    for (const [path, type, cache] of expected) {
      const r = await undiciRequest(new URL(path, server.url));
      const body = Buffer.from(await r.body.arrayBuffer());
      expect(r.statusCode, path).toBe(200);
      expect(body.equals(file(path)), path).toBe(true);
      expect(r.headers['content-type'], path).toBe(type);
      expect(r.headers['content-length'], path).toBe(String(body.length));
      expect(r.headers['cache-control'], path).toBe(cache);
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      expect(r.headers['accept-ranges'], path).toBe('bytes');
      expect(r.headers['etag'], path).toBe(`"${sha256(body)}"`);
      expect(Date.parse(String(r.headers['last-modified'])), path).not.toBeNaN();
      if (sums.has(path)) expect(r.headers['etag'], path).toBe(`"${sums.get(path)}"`);
    }
  });

  it('answers 304 to a matching If-None-Match or an If-Modified-Since not before the file changed', async () => {
    const first = await get('/index.json');
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);

    const same = await get('/index.json', { 'If-None-Match': etag });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    expect(same.headers.etag).toBe(etag);
    expect(same.headers['cache-control']).toBe('public, max-age=60');
    expect((await get('/index.json', { 'If-None-Match': `"0000", W/${etag}` })).status).toBe(304);
    expect((await get('/index.json', { 'If-None-Match': '*' })).status).toBe(304);
    expect((await get('/index.json', { 'If-None-Match': '"stale"' })).status).toBe(200);

    expect((await get('/index.json', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get('/index.json', { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status).toBe(200);
    // If-None-Match decides when both are present.
    expect((await get('/index.json', { 'If-None-Match': '"stale"', 'If-Modified-Since': lastModified })).status).toBe(200);
  });

  it('answers byte ranges with 206 and Content-Range, so an interrupted download resumes', async () => {
    const whole = file(ARTIFACT);
    const size = whole.length;
    const cases = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=10-${size * 4}`, 10, size - 1],
      [`bytes=-${size * 2}`, 0, size - 1],
    ] as const;
    for (const [range, start, end] of cases) {
      const r = await get(`/${ARTIFACT}`, { Range: range });
      expect(r.status, range).toBe(206);
      expect(r.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(r.headers['content-length'], range).toBe(String(end - start + 1));
      expect(r.headers['content-type'], range).toBe('application/gzip');
      expect(r.body.equals(whole.subarray(start, end + 1)), range).toBe(true);
    }

    // Resume: the first 1000 bytes, then the rest, guarded by If-Range.
    const head = await fetch(new URL(ARTIFACT, server.url), { headers: { Range: 'bytes=0-999' } });
    const etag = head.headers.get('etag') ?? '';
    const tail = await fetch(new URL(ARTIFACT, server.url), { headers: { Range: 'bytes=1000-', 'If-Range': etag } });
    expect(tail.status).toBe(206);
    const joined = Buffer.concat([Buffer.from(await head.arrayBuffer()), Buffer.from(await tail.arrayBuffer())]);
    expect(sha256(joined)).toBe(sha256(whole));
  });

  it('answers an unsatisfiable range with 416 and the size, and several ranges or a stale If-Range with the whole file', async () => {
    const size = file(ARTIFACT).length;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const r = await get(`/${ARTIFACT}`, { Range: range });
      expect(r.status, range).toBe(416);
      expect(r.headers['content-range'], range).toBe(`bytes */${size}`);
    }
    const several = await get(`/${ARTIFACT}`, { Range: 'bytes=0-9,20-29' });
    expect(several.status).toBe(200);
    expect(several.body.length).toBe(size);
    const stale = await get(`/${ARTIFACT}`, { Range: 'bytes=0-9', 'If-Range': '"not-this-file"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(size);
    const garbage = await get(`/${ARTIFACT}`, { Range: 'lines=1-2' });
    expect(garbage.status).toBe(200);
  });

  it('serves the SBOM published beside an artifact as CycloneDX JSON, cached as immutable', async () => {
    const path = ARTIFACT.replace(/\.tgz$/, '.cdx.json');
    const r = await get(`/${path}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.cyclonedx+json');
    expect(r.headers['cache-control']).toContain('immutable');
    expect(r.body.equals(file(path))).toBe(true);
    expect((await get(`/${path.replace('-any.', '-linux-x64.')}`)).status).toBe(404);
    expect((await get('/artifacts/example-lua-0.1.0-any.cdx')).status).toBe(404);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const size = file(ARTIFACT).length;
    const r = await get(`/${ARTIFACT}`, {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
    expect(r.headers['content-length']).toBe(String(size));
    expect(r.headers.etag).toBe(`"${sha256(file(ARTIFACT))}"`);
    const ranged = await get(`/${ARTIFACT}`, { Range: 'bytes=0-9' }, 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-length']).toBe('10');
    expect(ranged.body.length).toBe(0);
    expect((await get('/missing.json', {}, 'HEAD')).status).toBe(404);
  });

  it('refuses every method but GET and HEAD with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await get('/index.json', {}, method);
      expect(r.status, method).toBe(405);
      expect(r.headers.allow, method).toBe('GET, HEAD');
      expect(r.headers['x-content-type-options'], method).toBe('nosniff');
    }
  });

  it('answers 404 for anything outside the registry layout, even files in the directory', async () => {
    for (const path of [
      '/',
      '/registry.key',
      '/.travsr-tmp-index.json-0a1b2c',
      '/index.json.bak',
      '/artifacts',
      '/artifacts/',
      '/plugins/example-lua',
      '/plugins/example-lua/0.2.0.json',
      '/artifacts/example-lua-0.1.0-linux-x64.tgz',
      '/artifacts/example-lua-0.1.0-plan9.tgz',
      '/index.json/',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.headers['cache-control'], path).toBe('no-store');
      expect(r.body.toString(), path).not.toContain('PRIVATE KEY');
    }
  });

  it('refuses traversal: .., encoded dots and slashes, backslashes, empty segments, NUL', async () => {
    for (const path of [
      '/../secret',
      '/plugins/../index.json',
      '/./index.json',
      '/%2e%2e/secret',
      '/%2E%2E/%2e%2e/etc/passwd',
      '/..%2fsecret',
      '/plugins%2f..%2f..%2fsecret',
      '/%252e%252e/secret',
      '/plugins\\..\\index.json',
      '/..\\secret',
      '//index.json',
      '/index.json%00',
      '/index.json%00.tgz',
      '/%',
      'http://127.0.0.1/../secret',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.toString(), path).not.toContain('outside the registry');
    }
    // Decoding once is fine when the result is a clean layout path.
    expect((await get('/index%2Ejson')).status).toBe(200);
  });

  it('does not follow symlinks that leave the directory', async () => {
    const dir = tempDir('travsr-serve-links-');
    const reg = join(dir, 'registry');
    mkdirSync(join(reg, 'plugins'), { recursive: true });
    mkdirSync(join(reg, 'artifacts'));
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', '1.0.0.json'), '{"outside": true}');
    writeFileSync(join(dir, 'secret'), 'outside the registry\n');
    writeFileSync(join(reg, 'real-index.json'), '{"inside": true}');
    symlinkSync(join(dir, 'secret'), join(reg, 'SHA256SUMS'));
    symlinkSync('../../secret', join(reg, 'artifacts', 'evil-1.0.0-any.tgz'));
    symlinkSync(join(dir, 'elsewhere'), join(reg, 'plugins', 'evil'));
    symlinkSync('real-index.json', join(reg, 'index.json'));
    const s = await serveRegistry({ dir: reg });
    try {
      const port = s.port;
      const at = async (path: string) => {
        const r = await fetch(`http://127.0.0.1:${port}${path}`);
        return { status: r.status, text: await r.text() };
      };
      for (const path of ['/SHA256SUMS', '/artifacts/evil-1.0.0-any.tgz', '/plugins/evil/1.0.0.json']) {
        const r = await at(path);
        expect(r.status, path).toBe(404);
        expect(r.text, path).not.toContain('outside');
      }
      // A link that stays inside the registry is served.
      expect(await at('/index.json')).toEqual({ status: 200, text: '{"inside": true}' });
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a new ETag once a file is replaced (re-signing rewrites SHA256SUMS.sig)', async () => {
    const before = await get('/SHA256SUMS.sig');
    await signRegistry(registry, key, { now: new Date('2026-02-01T00:00:00Z') });
    const after = await get('/SHA256SUMS.sig');
    expect(after.body.equals(file('SHA256SUMS.sig'))).toBe(true);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers.etag).toBe(`"${sha256(after.body)}"`);
    expect((await get('/SHA256SUMS.sig', { 'If-None-Match': String(before.headers.etag) })).status).toBe(200);
  });

  it('reports every request to the log hook', async () => {
    log.length = 0;
    await get('/index.json');
    await get(`/${ARTIFACT}`, { Range: 'bytes=0-9' });
    await get('/nope');
    await get('/index.json', {}, 'HEAD');
    await new Promise((r) => setTimeout(r, 50));
    expect(log.map(({ method, url, status, bytes }) => ({ method, url, status, bytes }))).toEqual([
      { method: 'GET', url: '/index.json', status: 200, bytes: file('index.json').length },
      { method: 'GET', url: `/${ARTIFACT}`, status: 206, bytes: 10 },
      { method: 'GET', url: '/nope', status: 404, bytes: 0 },
      { method: 'HEAD', url: '/index.json', status: 200, bytes: 0 },
    ]);
    expect(log[1]?.range).toBe('bytes=0-9');
    expect(log[0]?.remoteAddress).toBe('127.0.0.1');
    expect(log[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('refuses a directory that does not exist, and a port in use, with coded errors', async () => {
    await expect(serveRegistry({ dir: join(work, 'no-such-registry') })).rejects.toMatchObject({
      code: 'REGISTRY_NOT_A_DIRECTORY',
      message: expect.stringMatching(/is not a directory; pass the registry directory/),
    });
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(serveRegistry({ dir: registry, port })).rejects.toMatchObject({
        code: 'REGISTRY_LISTEN_FAILED',
        message: expect.stringMatching(/address is in use; stop the other server or choose another port/),
      });
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});
