import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jvmProxyOptions, startProxyBridge } from '../../src/scip/index.js';

const dir = mkdtempSync(join(tmpdir(), 'proxy-bridge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startProxyBridge', () => {
  it('is undefined without a proxy (standard and native-ipc tiers)', async () => {
    expect(await startProxyBridge({})).toBeUndefined();
  });

  it('takes a loopback proxy address as it is (Windows)', async () => {
    const p = await startProxyBridge({ TRAVSR_PROXY_ADDRESS: '127.0.0.1:3128' });
    expect(p).toMatchObject({ host: '127.0.0.1', port: 3128, url: 'http://127.0.0.1:3128' });
  });

  it('relays a loopback TCP connection to the host proxy’s unix socket, both ways', async () => {
    const socketPath = join(dir, 'proxy.sock');
    // The host's proxy, reduced to an echo of what the tool sends.
    const upstream = createServer((s) => s.on('data', (d) => s.write(`proxy saw: ${d.toString()}`)));
    await new Promise<void>((resolve) => upstream.listen(socketPath, resolve));
    const bridge = (await startProxyBridge({ TRAVSR_PROXY_SOCKET: socketPath }))!;
    try {
      expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const answer = await new Promise<string>((resolve, reject) => {
        const c = connect(bridge.port, '127.0.0.1', () => c.write('CONNECT repo1.maven.org:443 HTTP/1.1\r\n\r\n'));
        c.on('data', (d) => {
          resolve(d.toString());
          c.destroy();
        });
        c.on('error', reject);
      });
      expect(answer).toBe('proxy saw: CONNECT repo1.maven.org:443 HTTP/1.1\r\n\r\n');
    } finally {
      await bridge.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });
});

describe('jvmProxyOptions', () => {
  it('sends HTTP and HTTPS through the proxy, loopback included', () => {
    expect(jvmProxyOptions({ host: '127.0.0.1', port: 40123 }, ['-Xmx2g'])).toBe(
      '-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=40123 -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=40123 -Dhttp.nonProxyHosts= -Xmx2g',
    );
    expect(jvmProxyOptions(undefined)).toBe('');
  });
});
