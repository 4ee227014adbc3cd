// The allowlist proxy on the host side, with real sockets: a unix socket for the proxy,
// real HTTP servers on 127.0.0.1 as targets.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AllowlistProxy, type ProxyDecision } from '../../src/sandbox/index.js';

let dir = '';
let target: Server;
let port = 0;
let proxy: AllowlistProxy | undefined;

/** Sends `first` to the proxy, then `then` once a 200 came back; resolves with all it read. */
function exchange(socketPath: string, first: string, then?: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(socketPath);
    let buf = '';
    s.on('connect', () => s.write(first));
    s.on('data', (d) => {
      buf += d.toString('latin1');
      if (then && buf.startsWith('HTTP/1.1 200') && buf.includes('\r\n\r\n')) {
        s.write(then);
        then = undefined;
      }
    });
    s.on('error', () => resolve(buf));
    s.on('close', () => resolve(buf));
  });
}

const GET = 'GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'travsr-proxy-test-'));
  target = createServer((req, res) => res.end(`target ${req.url ?? ''}`));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as { port: number }).port;
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

afterAll(() => {
  target.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('AllowlistProxy', () => {
  it('tunnels CONNECT to an allowed host:port and counts bytes', async () => {
    const decisions: ProxyDecision[] = [];
    proxy = await AllowlistProxy.start({
      socketPath: join(dir, 'a.sock'),
      allow: [`127.0.0.1:${port}`],
      onDecision: (d) => decisions.push(d),
    });
    expect(statSync(proxy.socketPath).mode & 0o777).toBe(0o600);
    const out = await exchange(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`, GET);
    expect(out).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(out).toContain('target /x');
    expect(decisions).toEqual([{ target: `127.0.0.1:${port}`, method: 'CONNECT', allowed: true, reason: `allowed by 127.0.0.1:${port}` }]);
    expect(proxy.stats).toMatchObject({ connections: 1, allowed: 1, denied: 0 });
    expect(proxy.stats.bytesFromTargets).toBeGreaterThan(0);
  });

  it('forwards absolute-URI http requests, rewritten to origin form', async () => {
    proxy = await AllowlistProxy.start({ socketPath: join(dir, 'b.sock'), allow: [`127.0.0.1:${port}`] });
    const out = await exchange(proxy.socketPath, `GET http://127.0.0.1:${port}/plain?q=1 HTTP/1.1\r\nProxy-Connection: keep-alive\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(out).toContain('target /plain?q=1');
  });

  it('answers 403 with the reason for a target not on the allowlist, and never connects', async () => {
    proxy = await AllowlistProxy.start({ socketPath: join(dir, 'c.sock'), allow: ['example.com'] });
    const out = await exchange(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`, GET);
    expect(out).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(out).toContain(`127.0.0.1:${port} is not in this plugin's network allowlist (example.com)`);
    expect(out).not.toContain('target');
    expect(proxy.stats).toMatchObject({ denied: 1, allowed: 0 });
  });

  it('refuses a host name that resolves to loopback unless the entry names the address (DNS rebinding)', async () => {
    proxy = await AllowlistProxy.start({
      socketPath: join(dir, 'd.sock'),
      allow: [`rebind.example:${port}`],
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const out = await exchange(proxy.socketPath, `CONNECT rebind.example:${port} HTTP/1.1\r\n\r\n`, GET);
    expect(out).toMatch(/^HTTP\/1\.1 403/);
    expect(out).toContain('resolves only to loopback');
  });

  it('answers 400 to garbage, 431 to an oversized head, 502 when the target is down', async () => {
    proxy = await AllowlistProxy.start({ socketPath: join(dir, 'e.sock'), allow: ['127.0.0.1:1'], maxHeadBytes: 1024 });
    expect(await exchange(proxy.socketPath, 'hello\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await exchange(proxy.socketPath, 'CONNECT nohost HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await exchange(proxy.socketPath, `CONNECT 127.0.0.1:1 HTTP/1.1\r\nX: ${'a'.repeat(2048)}`)).toMatch(/^HTTP\/1\.1 431/);
    expect(await exchange(proxy.socketPath, 'CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 502/);
  });

  it('bounds concurrent connections (503) and the time to send a head (408)', async () => {
    const p = await AllowlistProxy.start({ socketPath: join(dir, 'f.sock'), allow: [], maxConnections: 1, headTimeoutMs: 300 });
    proxy = p;
    const idle = connect(p.socketPath);
    while (p.stats.active < 1) await new Promise((r) => setTimeout(r, 5));
    expect(await exchange(p.socketPath, 'CONNECT a.example:443 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 503/);
    const timedOut = await new Promise<string>((resolve) => {
      let buf = '';
      idle.on('data', (d) => (buf += d.toString()));
      idle.on('close', () => resolve(buf));
    });
    expect(timedOut).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses a malformed allowlist at start, and close() removes the socket (idempotent)', async () => {
    await expect(AllowlistProxy.start({ socketPath: join(dir, 'g.sock'), allow: ['not a host'] })).rejects.toThrow(
      /network allowlist entry/,
    );
    proxy = await AllowlistProxy.start({ socketPath: join(dir, 'h.sock'), allow: [] });
    await proxy.close();
    await proxy.close();
    expect(existsSync(join(dir, 'h.sock'))).toBe(false);
  });
});
