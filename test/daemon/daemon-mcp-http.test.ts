// The daemon serving MCP over HTTP (`travsr daemon start --mcp-http`): the same server as
// `travsr mcp --http` (tokens, Streamable HTTP), every tool call answered by the daemon's warm
// graph and query cache, and a clear refusal of a bad address before anything starts; with an OAuth
// issuer configured, its access tokens too (a real OpenID Connect provider on 127.0.0.1).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonClient, initedPythonRepo, stopTestDaemon } from '../helpers/daemon.js';
import { OidcIssuer } from '../helpers/oidc-issuer.js';
import type { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
let token: string;
let url: string;

beforeAll(async () => {
  repo = await initedPythonRepo('travsr-daemon-http-', ['--no-hook']);
  const added = await travsr(['mcp', 'token', 'add', 'agent', '--all-corpora', '--json']);
  expect(added.code, added.stderr).toBe(0);
  token = (JSON.parse(added.stdout) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  await stopTestDaemon();
  repo.dispose();
});

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'travsr-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  return client;
}

describe('the daemon serving MCP over HTTP', () => {
  it('refuses an address that is not host:port, saying what to give, and starts nothing', async () => {
    const r = await travsr(['serve', '--mcp-http', 'localhost']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[DAEMON_INVALID_OPTION\]: --mcp-http "localhost" is not host:port; give e\.g\. 127\.0\.0\.1:7433/);
    expect((await travsr(['daemon', 'status'])).stdout).toMatch(/no daemon is running/);
  }, 60_000);

  it('answers tool calls with a token from its warm graph, the second time from its cache; no token is refused', async () => {
    const start = await travsr(['daemon', 'start', '--mcp-http', '127.0.0.1:0', '--json']);
    expect(start.code, start.stderr).toBe(0);
    url = (JSON.parse(start.stdout) as { mcpHttpUrl: string }).mcpHttpUrl;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect((await travsr(['daemon', 'status'])).stdout).toContain(`MCP over HTTP at ${url}`);

    const c = await daemonClient();
    const before = (await c.status()).cache;
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_callers');
    for (let i = 0; i < 2; i++) {
      const r = (await client.callTool({ name: 'get_callers', arguments: { symbol: 'pkg.util.helper' } })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      expect(r.isError ?? false).toBe(false);
      expect(r.content[0]!.text).toMatch(/pkg\.app\.main/);
    }
    await client.close();
    const after = (await c.status()).cache;
    c.close();
    expect(after.misses).toBe(before.misses + 1);
    expect(after.hits).toBe(before.hits + 1);

    await expect(connect('travsr_not-a-real-token')).rejects.toThrow(/401|Unauthorized|token/i);
  }, 120_000);

  it('stops serving HTTP when the daemon stops', async () => {
    const r = await travsr(['daemon', 'stop']);
    expect(r.stdout).toMatch(/^daemon stopped \(pid \d+\)$/m);
    await expect(fetch(url.replace(/\/mcp$/, '/healthz'))).rejects.toThrow();
  }, 60_000);

  it('is an OAuth resource server when mcp.oauthIssuer is set: tokens of the issuer read, others get 401, bearer tokens keep working', async () => {
    const audience = 'https://mcp.example.test/daemon';
    const idp = await OidcIssuer.start(audience);
    try {
      const start = await travsr(['daemon', 'start', '--mcp-http', '127.0.0.1:0', '--json'], {
        env: { TRAVSR_MCP_OAUTH_ISSUER: idp.issuer, TRAVSR_MCP_OAUTH_AUDIENCE: audience },
      });
      expect(start.code, start.stderr).toBe(0);
      url = (JSON.parse(start.stdout) as { mcpHttpUrl: string }).mcpHttpUrl;

      const client = await connect(await idp.token('corpus:*'));
      const r = (await client.callTool({ name: 'get_callers', arguments: { symbol: 'pkg.util.helper' } })) as {
        content: { text: string }[];
      };
      expect(r.content[0]!.text).toMatch(/pkg\.app\.main/);
      await client.close();
      await (await connect(token)).close();

      const other = await OidcIssuer.start('https://elsewhere.example.test/');
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${await other.token('corpus:*')}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
          }),
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      } finally {
        await other.close();
      }
      const metadata = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))).json()) as {
        authorization_servers: string[];
      };
      expect(metadata.authorization_servers).toEqual([idp.issuer]);
    } finally {
      await travsr(['daemon', 'stop']);
      await idp.close();
    }
  }, 120_000);
});
