import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { ConfigTypes } from '../config/schema.js';
import type { AccessPolicy } from '../retrieval/access-policy.js';
import { McpServerError } from './errors.js';

/**
 * How the MCP HTTP server accepts OAuth 2.1 access tokens (the `mcp.oauth*` configuration keys):
 * it is a resource server — it never issues tokens, it checks JWTs an identity provider signed.
 */
export interface OAuthOptions {
  /** The issuer (`iss`) tokens must come from, e.g. `https://login.example.com/realms/eng`. */
  issuer: string;
  /**
   * The audience (`aud`) a token must name. Default: the resource URL (a token minted for this
   * server with an RFC 8707 resource indicator carries it).
   */
  audience?: string;
  /**
   * The URL clients reach the MCP endpoint at (RFC 9728 `resource`), e.g. behind a reverse proxy.
   * Default: the server's own `http://<host>:<port>/mcp`.
   */
  resource?: string;
  /** Where the issuer publishes its keys. Default: `jwks_uri` of its discovery document. */
  jwksUri?: string;
  /** Claim holding the caller's ACL groups (an array of strings). Default `groups`. */
  groupsClaim?: string;
  /** A claim that lists corpora (an array of names, or `"*"`), besides the `corpus:<name>` scopes. Default: none. */
  corporaClaim?: string;
  /** How long fetched keys are used before they are fetched again (ms). Default 10 minutes. */
  jwksCacheMs?: number;
}

/** The `mcp.oauth*` configuration values {@link oauthOptionsOf} reads. */
export type OAuthConfigValues = {
  readonly [K in Extract<keyof ConfigTypes, `mcp.oauth${string}`>]: { readonly value: ConfigTypes[K] };
};

/**
 * The OAuth settings of the MCP HTTP server from the configuration (the user's and the
 * environment: a repository never decides who may read over HTTP); undefined when
 * `mcp.oauthIssuer` is empty.
 */
export function oauthOptionsOf(v: OAuthConfigValues): OAuthOptions | undefined {
  const issuer = v['mcp.oauthIssuer'].value.trim();
  if (!issuer) return undefined;
  const opt = (s: string) => s.trim() || undefined;
  const audience = opt(v['mcp.oauthAudience'].value);
  const resource = opt(v['mcp.oauthResource'].value);
  const jwksUri = opt(v['mcp.oauthJwksUri'].value);
  const corporaClaim = opt(v['mcp.oauthCorporaClaim'].value);
  return {
    issuer,
    ...(audience ? { audience } : {}),
    ...(resource ? { resource } : {}),
    ...(jwksUri ? { jwksUri } : {}),
    ...(corporaClaim ? { corporaClaim } : {}),
    groupsClaim: opt(v['mcp.oauthGroupsClaim'].value) ?? 'groups',
    jwksCacheMs: v['mcp.oauthJwksCache'].value * 1000,
  };
}

/** Who an accepted token belongs to and what it may read. */
export interface OAuthCaller {
  /** `oauth:<issuer>#<sub>`: sessions are bound to the subject, so a refreshed token keeps its session. */
  key: string;
  /** For logs: the subject (or client id). */
  name: string;
  policy: AccessPolicy;
}

/** Why a token was refused, as the HTTP answer says it (RFC 6750 §3.1). */
export interface OAuthRefusal {
  status: 401 | 403 | 503;
  /** `invalid_token` (401), `insufficient_scope` (403), or undefined when the server could not check (503). */
  error?: 'invalid_token' | 'insufficient_scope';
  description: string;
}

/** The signature algorithms accepted: asymmetric only (a shared secret or `none` could be forged by anyone who knows it). */
export const OAUTH_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The scope that grants one corpus (`corpus:github.com/acme/api`), or every one (`corpus:*`). */
export const CORPUS_SCOPE_PREFIX = 'corpus:';

const CLOCK_TOLERANCE_S = 30;
const DEFAULT_JWKS_CACHE_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_MS = 10_000;

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/**
 * Checks OAuth access tokens for the MCP HTTP server: a JWT signed by one of the issuer's
 * current keys (fetched from its JWKS and cached; a key the issuer no longer publishes stops
 * working once the cache is renewed), with this server as audience, from the configured issuer,
 * not expired. Its `corpus:<name>` scopes (and the optional corpora claim) say what it may read,
 * its groups claim which ACL groups its holder is in — the same policy a `travsr mcp token` has.
 *
 * @example
 * ```ts
 * const oauth = new OAuthVerifier({ issuer: 'https://idp.example.com' }, () => 'https://mcp.example.com/mcp');
 * const r = await oauth.verify(bearer);
 * if ('status' in r) refuse(r.status, r.error, r.description); else serve(r.policy);
 * ```
 */
export class OAuthVerifier {
  readonly issuer: string;
  private readonly groupsClaim: string;
  private readonly corporaClaim: string | undefined;
  private readonly cacheMs: number;
  private keys: Promise<KeySet> | undefined;

  /** `defaultResource`: the server's own `/mcp` URL, asked for when needed (it is known once the server listens). */
  constructor(
    private readonly opts: OAuthOptions,
    private readonly defaultResource: () => string,
  ) {
    this.issuer = checkUrl(opts.issuer, 'mcp.oauthIssuer');
    if (opts.resource) checkUrl(opts.resource, 'mcp.oauthResource');
    if (opts.jwksUri) checkUrl(opts.jwksUri, 'mcp.oauthJwksUri');
    this.groupsClaim = opts.groupsClaim || 'groups';
    this.corporaClaim = opts.corporaClaim || undefined;
    this.cacheMs = opts.jwksCacheMs ?? DEFAULT_JWKS_CACHE_MS;
  }

  /** The URL clients reach the MCP endpoint at: `resource`, else the server's own. */
  get resource(): string {
    return this.opts.resource || this.defaultResource();
  }

  /** The audience a token must name: `audience`, else the resource URL. */
  get audience(): string {
    return this.opts.audience || this.resource;
  }

  /**
   * The protected-resource metadata (RFC 9728) served at `/.well-known/oauth-protected-resource`:
   * what a client needs to find the authorization server and ask it for a token for this server.
   */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'Travsr MCP server',
    };
  }

  /** The URL of {@link metadata}, for the `resource_metadata` parameter of `WWW-Authenticate`. */
  metadataUrl(): string {
    const u = new URL(this.resource);
    return `${u.origin}/.well-known/oauth-protected-resource${u.pathname === '/' ? '' : u.pathname}`;
  }

  /** Checks one bearer token; the caller it names, or why it is refused. Never throws. */
  async verify(token: string): Promise<OAuthCaller | OAuthRefusal> {
    let keys: KeySet;
    try {
      keys = await this.keySet();
    } catch (e) {
      return { status: 503, description: `cannot check OAuth tokens now: ${(e as Error).message}` };
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: OAUTH_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch (e) {
      return refusalOf(e);
    }
    const policy = this.policyOf(payload);
    const clientId = payload['client_id'];
    const name = typeof payload.sub === 'string' ? payload.sub : typeof clientId === 'string' ? clientId : 'unknown';
    if (policy.corpora !== '*' && policy.corpora.length === 0)
      return {
        status: 403,
        error: 'insufficient_scope',
        description: `the token of ${name} grants no corpus: ask the authorization server for a ${CORPUS_SCOPE_PREFIX}<corpus> scope (or ${CORPUS_SCOPE_PREFIX}*)`,
      };
    return { key: `oauth:${this.issuer}#${name}`, name, policy };
  }

  /** The corpora (`corpus:` scopes, the corpora claim) and groups (the groups claim) a verified token grants. */
  private policyOf(payload: JWTPayload): AccessPolicy {
    const scopes =
      typeof payload['scope'] === 'string'
        ? payload['scope'].split(' ')
        : Array.isArray(payload['scp'])
          ? payload['scp'].filter((s): s is string => typeof s === 'string')
          : [];
    const corpora = new Set<string>();
    let all = false;
    for (const s of scopes) {
      if (!s.startsWith(CORPUS_SCOPE_PREFIX)) continue;
      const c = s.slice(CORPUS_SCOPE_PREFIX.length);
      if (c === '*') all = true;
      else if (c) corpora.add(c);
    }
    const claimed = this.corporaClaim ? payload[this.corporaClaim] : undefined;
    if (claimed === '*') all = true;
    else if (Array.isArray(claimed)) for (const c of claimed) if (typeof c === 'string' && c) corpora.add(c);
    const rawGroups = payload[this.groupsClaim];
    const groups = Array.isArray(rawGroups) ? rawGroups.filter((g): g is string => typeof g === 'string') : [];
    return { corpora: all ? '*' : [...corpora], groups };
  }

  /** The issuer's key set, found through its discovery document unless configured; a failed look-up is tried again next time. */
  private keySet(): Promise<KeySet> {
    this.keys ??= (async () => {
      const jwksUri = this.opts.jwksUri || (await discoverJwksUri(this.issuer));
      return createRemoteJWKSet(new URL(jwksUri), {
        cacheMaxAge: this.cacheMs,
        cooldownDuration: Math.min(30_000, this.cacheMs),
        timeoutDuration: DISCOVERY_TIMEOUT_MS,
      });
    })();
    this.keys.catch(() => (this.keys = undefined));
    return this.keys;
  }
}

/**
 * The issuer's `jwks_uri`, from its OpenID Connect discovery document, else its RFC 8414
 * authorization-server metadata. The document must name the same issuer (RFC 8414 §3.3).
 */
async function discoverJwksUri(issuer: string): Promise<string> {
  const base = issuer.replace(/\/+$/, '');
  const u = new URL(issuer);
  const candidates = [
    `${base}/.well-known/openid-configuration`,
    `${u.origin}/.well-known/oauth-authorization-server${u.pathname === '/' ? '' : u.pathname.replace(/\/+$/, '')}`,
  ];
  const failures: string[] = [];
  for (const url of candidates) {
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!res.ok) {
        failures.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      doc = (await res.json()) as typeof doc;
    } catch (e) {
      failures.push(`${url}: ${(e as Error).message}`);
      continue;
    }
    if (doc.issuer !== issuer)
      throw new McpServerError(
        'MCP_OAUTH_DISCOVERY',
        `${url} names the issuer ${JSON.stringify(doc.issuer)}, not ${JSON.stringify(issuer)} (mcp.oauthIssuer): set mcp.oauthIssuer to the issuer exactly as the provider writes it`,
      );
    if (typeof doc.jwks_uri !== 'string')
      throw new McpServerError(
        'MCP_OAUTH_DISCOVERY',
        `${url} has no jwks_uri: set mcp.oauthJwksUri to where the issuer publishes its keys`,
      );
    return doc.jwks_uri;
  }
  throw new McpServerError(
    'MCP_OAUTH_DISCOVERY',
    `cannot read the discovery document of ${issuer} (${failures.join('; ')}): check mcp.oauthIssuer, or set mcp.oauthJwksUri`,
  );
}

/** A token jose refused, as the answer says it: every case is `invalid_token` (401), except keys that cannot be fetched (503). */
function refusalOf(e: unknown): OAuthRefusal {
  const invalid = (description: string): OAuthRefusal => ({ status: 401, error: 'invalid_token', description });
  if (e instanceof joseErrors.JWTExpired) return invalid('the token has expired');
  if (e instanceof joseErrors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return invalid('the token is not for this server (audience)');
    if (e.claim === 'iss') return invalid('the token comes from another issuer');
    if (e.claim === 'nbf') return invalid('the token is not valid yet');
    return invalid(`the token's ${e.claim} claim is not valid (${e.reason})`);
  }
  if (e instanceof joseErrors.JOSEAlgNotAllowed)
    return invalid(`tokens signed with that algorithm are not accepted (only ${OAUTH_ALGORITHMS.join(', ')})`);
  if (e instanceof joseErrors.JWKSNoMatchingKey)
    return invalid('no current key of the issuer signed the token (it may have been rotated out)');
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return invalid('the signature does not verify');
  if (e instanceof joseErrors.JWKSTimeout || e instanceof joseErrors.JWKSInvalid)
    return { status: 503, description: `cannot fetch the issuer's keys now: ${(e as Error).message}` };
  if (e instanceof joseErrors.JOSEError) return invalid(`the token is not a valid JWT (${e.code})`);
  return { status: 503, description: `cannot check the token now: ${(e as Error).message}` };
}

function checkUrl(value: string, key: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new McpServerError('MCP_OAUTH_CONFIG', `${key} must be an absolute URL, not ${JSON.stringify(value)}`);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackName(u.hostname)))
    throw new McpServerError(
      'MCP_OAUTH_CONFIG',
      `${key} must be an https:// URL (http:// only on a loopback address), not ${JSON.stringify(value)}: keys and metadata fetched in clear could be replaced on the way`,
    );
  return value;
}

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
