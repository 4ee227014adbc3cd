// OAuthVerifier against a real HTTP issuer on 127.0.0.1 (a discovery document and a JWKS served
// here, the keys made with jose): configuration checks, discovery, and how claims become a policy.
// The end-to-end case with a real OpenID Connect provider is test/mcp/mcp-oauth.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { OAuthVerifier, oauthOptionsOf } from '../../src/mcp/oauth.js';

const AUDIENCE = 'https://mcp.example.test/mcp';
let server: Server;
let issuer: string;
let privateKey: CryptoKey;
let publicJwk: JWK;
/** What the fake issuer answers for its discovery document (undefined: 404). */
let discovery: ((issuer: string) => Record<string, unknown>) | undefined;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration' && discovery) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(discovery(issuer)));
    } else if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function verifier(over: Partial<ConstructorParameters<typeof OAuthVerifier>[0]> = {}): OAuthVerifier {
  return new OAuthVerifier({ issuer, audience: AUDIENCE, jwksUri: `${issuer}/jwks`, ...over }, () => 'http://127.0.0.1:7433/mcp');
}

async function token(claims: JWTPayload, opts: { exp?: boolean } = {}): Promise<string> {
  const jwt = new SignJWT({ scope: 'corpus:alpha', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject('alice');
  if (opts.exp !== false) jwt.setExpirationTime('10m');
  return jwt.sign(privateKey);
}

describe('OAuthVerifier', () => {
  it('refuses settings that are not usable URLs, and http:// beyond loopback', () => {
    expect(() => new OAuthVerifier({ issuer: 'login.example.com' }, () => '')).toThrow(/mcp.oauthIssuer must be an absolute URL/);
    expect(() => new OAuthVerifier({ issuer: 'http://login.example.com' }, () => '')).toThrow(
      expect.objectContaining({
        code: 'MCP_OAUTH_CONFIG',
        message: expect.stringMatching(/https:\/\/ URL \(http:\/\/ only on a loopback address\)/),
      }),
    );
    expect(() => new OAuthVerifier({ issuer: 'https://login.example.com', jwksUri: 'ftp://x/keys' }, () => '')).toThrow(/mcp.oauthJwksUri/);
    expect(() => new OAuthVerifier({ issuer: 'http://127.0.0.1:8080/realms/eng' }, () => '')).not.toThrow();
  });

  it('maps corpus scopes, a corpora claim and a groups claim onto the policy', async () => {
    const v = verifier({ groupsClaim: 'roles', corporaClaim: 'travsr_corpora' });
    expect(await v.verify(await token({ scope: 'openid corpus:alpha corpus:beta', roles: ['eng', 42, 'ops'] }))).toEqual({
      key: `oauth:${issuer}#alice`,
      name: 'alice',
      policy: { corpora: ['alpha', 'beta'], groups: ['eng', 'ops'] },
    });
    // `scp` as an array (Azure AD, Okta), and corpora from the claim.
    expect(await v.verify(await token({ scope: undefined, scp: ['corpus:alpha'], travsr_corpora: ['gamma'] }))).toMatchObject({
      policy: { corpora: ['alpha', 'gamma'], groups: [] },
    });
    expect(await v.verify(await token({ scope: 'corpus:*' }))).toMatchObject({ policy: { corpora: '*' } });
    expect(await v.verify(await token({ scope: 'openid', travsr_corpora: '*' }))).toMatchObject({ policy: { corpora: '*' } });
    expect(await v.verify(await token({ scope: 'openid profile' }))).toMatchObject({ status: 403, error: 'insufficient_scope' });
  });

  it('refuses a token without an expiry, one signed with a shared secret, and a garbled one', async () => {
    const v = verifier();
    expect(await v.verify(await token({}, { exp: false }))).toMatchObject({
      status: 401,
      error: 'invalid_token',
      description: expect.stringMatching(/exp/),
    });
    const hs = await new SignJWT({ scope: 'corpus:alpha' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    expect(await v.verify(hs)).toMatchObject({ status: 401, description: expect.stringMatching(/algorithm are not accepted/) });
    expect(await v.verify('not.a.jwt')).toMatchObject({ status: 401, error: 'invalid_token' });
  });

  it('finds the keys through the discovery document, checks it names the issuer, and tries again after a failure', async () => {
    const v = verifier({ jwksUri: '' });
    discovery = undefined;
    const missing = await v.verify(await token({}));
    expect(missing).toMatchObject({ status: 503, description: expect.stringMatching(/cannot read the discovery document of .*HTTP 404/) });
    discovery = () => ({ issuer: 'https://someone-else.example.com', jwks_uri: `${issuer}/jwks` });
    expect(await v.verify(await token({}))).toMatchObject({
      status: 503,
      description: expect.stringMatching(/names the issuer .*someone-else/),
    });
    discovery = (iss) => ({ issuer: iss, jwks_uri: `${iss}/jwks` });
    expect(await v.verify(await token({}))).toMatchObject({ name: 'alice', policy: { corpora: ['alpha'] } });
  });

  it('gives the resource, the audience and the metadata URL', () => {
    const own = verifier({ audience: '' });
    expect(own.resource).toBe('http://127.0.0.1:7433/mcp');
    expect(own.audience).toBe('http://127.0.0.1:7433/mcp');
    expect(own.metadataUrl()).toBe('http://127.0.0.1:7433/.well-known/oauth-protected-resource/mcp');
    const proxied = verifier({ resource: 'https://mcp.example.com/', audience: 'travsr' });
    expect(proxied.metadataUrl()).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
    expect(proxied.audience).toBe('travsr');
    expect(proxied.metadata()).toEqual({
      resource: 'https://mcp.example.com/',
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'Travsr MCP server',
    });
  });
});

describe('oauthOptionsOf', () => {
  // The real layered configuration, from environment variables (the test's TRAVSR_HOME holds no config file).
  const values = (env: Record<string, string>) => loadConfig({ env: { TRAVSR_HOME: process.env.TRAVSR_HOME!, ...env } }).values;

  it('is off without an issuer, and takes every setting given', () => {
    expect(oauthOptionsOf(values({}))).toBeUndefined();
    expect(oauthOptionsOf(values({ TRAVSR_MCP_OAUTH_ISSUER: ' https://idp.example.com ' }))).toEqual({
      issuer: 'https://idp.example.com',
      groupsClaim: 'groups',
      jwksCacheMs: 600_000,
    });
    expect(
      oauthOptionsOf(
        values({
          TRAVSR_MCP_OAUTH_ISSUER: 'https://idp.example.com',
          TRAVSR_MCP_OAUTH_AUDIENCE: 'travsr',
          TRAVSR_MCP_OAUTH_RESOURCE: 'https://mcp.example.com/mcp',
          TRAVSR_MCP_OAUTH_JWKS_URI: 'https://idp.example.com/keys',
          TRAVSR_MCP_OAUTH_GROUPS_CLAIM: 'roles',
          TRAVSR_MCP_OAUTH_CORPORA_CLAIM: 'corpora',
          TRAVSR_MCP_OAUTH_JWKS_CACHE: '5',
        }),
      ),
    ).toEqual({
      issuer: 'https://idp.example.com',
      audience: 'travsr',
      resource: 'https://mcp.example.com/mcp',
      jwksUri: 'https://idp.example.com/keys',
      groupsClaim: 'roles',
      corporaClaim: 'corpora',
      jwksCacheMs: 5000,
    });
  });
});
