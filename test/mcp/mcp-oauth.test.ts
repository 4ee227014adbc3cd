// `travsr mcp --http` as an OAuth 2.1 resource server, end to end: a real OpenID Connect provider
// (oidc-provider) on 127.0.0.1 issues JWT access tokens with corpus scopes; the real CLI serves two
// indexed repositories (corpora `alpha` and `beta`) and checks each token against the provider's
// published keys. Tokens the provider would never issue (expired, for another audience or issuer,
// unsigned) are signed here with its own key, so only the claim under test is wrong.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { initCorpora, startMcpHttp } from '../helpers/mcp-http.js';
import { OidcIssuer } from '../helpers/oidc-issuer.js';
import { travsr, type CliProcess } from '../helpers/run-cli.js';

const AUDIENCE = 'https://mcp.example.test/travsr';

let alpha: GitRepo;
let beta: GitRepo;
let idp: OidcIssuer;
let server: CliProcess;
let base: string;

beforeAll(async () => {
  alpha = new GitRepo('travsr-oauth-alpha-');
  alpha.write({ 'billing.py': 'def compute_invoice_total(items):\n    return sum(items)\n' }).commit('alpha');
  beta = new GitRepo('travsr-oauth-beta-');
  beta.write({ 'payroll.py': 'def secret_payroll_formula(salary):\n    return salary * 3\n' }).commit('beta');
  await initCorpora([
    [alpha, 'alpha'],
    [beta, 'beta'],
  ]);
  idp = await OidcIssuer.start(AUDIENCE);
  ({ server, base } = await startMcpHttp([alpha.root, beta.root], {
    env: {
      TRAVSR_MCP_OAUTH_ISSUER: idp.issuer,
      TRAVSR_MCP_OAUTH_AUDIENCE: AUDIENCE,
      // Keys are fetched again after a second, so the rotation case needs no long wait.
      TRAVSR_MCP_OAUTH_JWKS_CACHE: '1',
    },
  }));
}, 180_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await server;
  await idp?.close();
  alpha?.dispose();
  beta?.dispose();
});

type ToolCall = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
const textOf = (r: ToolCall) => r.content.map((c) => c.text ?? '').join('\n');

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'travsr-oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** The raw answer to an initialize request made with `token` (none: no Authorization header). */
async function initialize(token?: string): Promise<{ status: number; challenge: string | null; message: string }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  const text = await res.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // an event stream: a success
  }
  await fetch(`${base}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': res.headers.get('mcp-session-id') ?? '' } }).catch(
    () => undefined,
  );
  return { status: res.status, challenge: res.headers.get('www-authenticate'), message };
}

/** A token signed with the issuer's current key, with the claims a good token has, changed by `over`. */
async function forged(over: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const key = await importJWK(idp.key.jwk, 'ES256');
  return new SignJWT({ scope: 'corpus:alpha', client_id: 'mcp-test-client', ...over })
    .setProtectedHeader({ alg: 'ES256', kid: idp.key.kid, typ: 'at+jwt', ...header })
    .setSubject('mcp-test-client')
    .setIssuer(typeof over.iss === 'string' ? over.iss : idp.issuer)
    .setAudience(over.aud ?? AUDIENCE)
    .setIssuedAt(now - 60)
    .setExpirationTime(typeof over.exp === 'number' ? over.exp : now + 600)
    .sign(key);
}

describe('mcp --http with an OAuth issuer', () => {
  it('publishes its protected-resource metadata and points clients at it', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        resource: `${base}/mcp`,
        authorization_servers: [idp.issuer],
        bearer_methods_supported: ['header'],
      });
    }
    const bare = await initialize();
    expect(bare.status).toBe(401);
    expect(bare.challenge).toBe(`Bearer realm="travsr", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('a token for corpus alpha reads alpha and never beta; corpus:* reads both', async () => {
    const client = await connect(await idp.token('corpus:alpha'));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_context');
    const status = (await client.callTool({ name: 'get_index_status', arguments: {} })) as ToolCall;
    expect(textOf(status)).toMatch(/^alpha: /m);
    expect(textOf(status)).not.toMatch(/beta/);
    expect(textOf((await client.callTool({ name: 'search_symbols', arguments: { query: 'compute_invoice_total' } })) as ToolCall)).toMatch(
      /billing\.compute_invoice_total/,
    );
    expect(textOf((await client.callTool({ name: 'search_symbols', arguments: { query: 'secret_payroll_formula' } })) as ToolCall)).toMatch(
      /^No symbol matches/,
    );
    await client.close();

    const all = await connect(await idp.token('corpus:*'));
    const both = textOf((await all.callTool({ name: 'get_index_status', arguments: {} })) as ToolCall);
    expect(both).toMatch(/^alpha: /m);
    expect(both).toMatch(/^beta: /m);
    await all.close();
  });

  it('refuses a token that grants no corpus with 403 insufficient_scope', async () => {
    const r = await initialize(await idp.token('profile'));
    expect(r.status).toBe(403);
    expect(r.challenge).toMatch(/error="insufficient_scope"/);
    expect(r.message).toMatch(/grants no corpus: ask the authorization server for a corpus:<corpus> scope/);
  });

  it('refuses expired, wrong-audience, wrong-issuer, badly signed and unsigned tokens with 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await idp.token('corpus:alpha');
    expect((await initialize(good)).status).toBe(200);
    const [head, body] = good.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
    const cases: [string, string, RegExp][] = [
      ['expired', await forged({ exp: now - 3600 }), /has expired/],
      ['wrong audience', await forged({ aud: 'https://other.example.test/mcp' }), /not for this server/],
      ['wrong issuer', await forged({ iss: 'http://127.0.0.1:1/other' }), /another issuer/],
      ['bad signature', `${head}.${body}.${Buffer.alloc(64, 7).toString('base64url')}`, /signature does not verify/],
      ['alg none', unsigned, /algorithm are not accepted|not a valid JWT/],
    ];
    for (const [what, token, reason] of cases) {
      const r = await initialize(token);
      expect(r.status, what).toBe(401);
      expect(r.challenge, what).toMatch(/^Bearer realm="travsr", resource_metadata=".*", error="invalid_token", error_description=/);
      expect(r.message, what).toMatch(reason);
    }
  });

  it('refuses a token signed with a key the issuer rotated out, once the keys are fetched again', async () => {
    const before = await idp.token('corpus:alpha');
    expect((await initialize(before)).status).toBe(200);
    await idp.rotate();
    // The server fetches the keys again after its cache time (1 s here).
    await new Promise((r) => setTimeout(r, 1_500));
    const r = await initialize(before);
    expect(r.status).toBe(401);
    expect(r.message).toMatch(/no current key of the issuer signed the token/);
    expect((await initialize(await idp.token('corpus:alpha'))).status).toBe(200);
  });

  it('still takes the bearer tokens of `travsr mcp token`', async () => {
    const add = await travsr(['mcp', 'token', 'add', 'beta-reader', '--corpus', 'beta', '--json']);
    expect(add.code, add.stderr).toBe(0);
    const client = await connect((JSON.parse(add.stdout) as { token: string }).token);
    const status = textOf((await client.callTool({ name: 'get_index_status', arguments: {} })) as ToolCall);
    expect(status).toMatch(/^beta: /m);
    expect(status).not.toMatch(/alpha/);
    await client.close();
  });
});
