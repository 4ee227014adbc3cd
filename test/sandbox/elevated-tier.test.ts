// The elevated tier, for real: the network stays unshared and the only way out is the
// host's allowlist proxy, bound into the sandbox as a unix socket.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJson, probeManifest, runInSandbox } from './sandbox-harness.js';

interface Exchange {
  error?: string;
  data: string;
}
interface ProxyReport {
  socketPath: string;
  allowed: Exchange;
  plainHttp: Exchange;
  denied: Exchange;
  directDenied: string;
  directAllowed: string;
}

function listen(body: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => res.end(`${body} ${req.url ?? ''}`));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

describe('elevated tier (real bwrap + allowlist proxy)', () => {
  let allowed: { server: Server; port: number };
  let denied: { server: Server; port: number };
  let report: ProxyReport;

  beforeAll(async () => {
    allowed = await listen('allowed-server');
    denied = await listen('denied-server');
    const allow = [`127.0.0.1:${allowed.port}`];
    const run = await runInSandbox(
      probeManifest('proxy-client.mjs', [JSON.stringify({ allowedPort: allowed.port, deniedPort: denied.port })], { network: { allow } }),
      { tier: 'elevated', networkAllow: allow },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    report = lastJson<ProxyReport>(run);
  });

  afterAll(() => {
    allowed.server.close();
    denied.server.close();
  });

  it('reaches an allowlisted host through CONNECT on the proxy socket', () => {
    expect(report.socketPath).toBe('/run/travsr/proxy.sock');
    expect(report.allowed.data).toMatch(/^HTTP\/1\.1 200 /);
    expect(report.allowed.data).toContain('allowed-server /hello');
  });

  it('forwards a plain absolute-URI HTTP request to an allowlisted host', () => {
    expect(report.plainHttp.data).toMatch(/^HTTP\/1\.1 200 /);
    expect(report.plainHttp.data).toContain('allowed-server /plain');
  });

  it('refuses a host that is not on the allowlist with 403 and the reason', () => {
    expect(report.denied.data).toMatch(/^HTTP\/1\.1 403 /);
    expect(report.denied.data).toContain(`127.0.0.1:${denied.port} is not in this plugin's network allowlist`);
    expect(report.denied.data).not.toContain('denied-server');
  });

  it('cannot open a direct TCP connection, not even to the allowlisted port', () => {
    expect(report.directDenied).toMatch(/ECONNREFUSED|ENETUNREACH/);
    expect(report.directAllowed).toMatch(/ECONNREFUSED|ENETUNREACH/);
  });
});
