import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** The client the tests get tokens as (client credentials grant). */
export const TEST_CLIENT = { id: 'mcp-test-client', secret: 'mcp-test-secret' };

/** One signing key of the issuer: its private JWK (to sign tokens the issuer never would) and its kid. */
export interface IssuerKey {
  jwk: JWK;
  kid: string;
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, issuing JWT access tokens for
 * `audience` with the client credentials grant; `corpus:*` scopes and a `groups` claim, as an
 * identity provider configured for Travsr would. `rotate()` replaces its signing key (the old
 * one is no longer published), keeping the issuer URL.
 */
export class OidcIssuer {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    readonly audience: string,
    private provider: Provider,
    public key: IssuerKey,
  ) {}

  static async start(audience: string, groups: readonly string[] = ['eng']): Promise<OidcIssuer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const key = await newKey('key-1');
    const made = new OidcIssuer(server, issuer, audience, makeProvider(issuer, audience, key, groups), key);
    made.groups = groups;
    // The provider of the moment answers (rotate() replaces it); the issuer URL stays.
    server.on('request', (req, res) => void made.provider.callback()(req, res));
    return made;
  }

  private groups: readonly string[] = [];

  /** A new signing key: tokens signed with the old one no longer verify against the published keys. */
  async rotate(): Promise<void> {
    this.key = await newKey(`key-${Date.now()}`);
    this.provider = makeProvider(this.issuer, this.audience, this.key, this.groups);
  }

  /** An access token for `scope` (space-separated), from the token endpoint. */
  async token(scope: string): Promise<string> {
    const res = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource: this.audience }),
    });
    const body = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
    if (!res.ok || !body.access_token) throw new Error(`token endpoint: ${res.status} ${body.error ?? ''} ${body.error_description ?? ''}`);
    return body.access_token;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

async function newKey(kid: string): Promise<IssuerKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  return { jwk, kid };
}

function makeProvider(issuer: string, audience: string, key: IssuerKey, groups: readonly string[]): Provider {
  const scope = 'corpus:alpha corpus:beta corpus:* profile';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope,
        // Its only key is an ES256 one (the default would be RS256).
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [key.jwk] },
    cookies: { keys: ['travsr-test-cookie-key'] },
    ttl: { ClientCredentials: 600 },
    scopes: scope.split(' '),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope, audience, accessTokenTTL: 600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
      },
    },
    extraTokenClaims: () => ({ groups: [...groups] }),
  });
  return provider;
}
