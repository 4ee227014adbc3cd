// The part of oidc-provider (a test-only dependency, which ships no types) the tests use: its
// DefinitelyTyped package would bring @types/koa into node_modules/@types, which every project
// in the tree then type-checks (and which does not compile against the installed koa).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    scopes?: string[];
    features?: Record<string, unknown>;
    extraTokenClaims?: (ctx: unknown, token: unknown) => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  }
}
