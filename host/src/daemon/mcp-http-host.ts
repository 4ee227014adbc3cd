import type { Logger } from '../log/logger.js';
import { startMcpHttpServer, type McpHttpServer } from '../mcp/http-server.js';
import { mcpServerFactory } from '../mcp/server.js';
import type { OAuthOptions } from '../mcp/oauth.js';
import { TokenStore } from '../mcp/token-store.js';
import type { DaemonCore } from './daemon-core.js';
import { DaemonError, DaemonErrorCode } from './errors.js';
import { daemonToolExecutor } from './mcp-host.js';

/** Where and how the daemon serves MCP over HTTP (`travsr serve --mcp-http`). */
export interface HostedMcpHttpOptions {
  /** Where to listen ({@link parseAddress} of `--mcp-http`); port 0 picks a free one. */
  host: string;
  port: number;
  /** No bearer tokens, full access: refused by the HTTP server unless the host is a loopback address. */
  noAuth: boolean;
  /** Also accept OAuth access tokens of an issuer (from the user's `mcp.oauth*` settings). */
  oauth?: OAuthOptions;
}

/**
 * Serves `travsr mcp --http`'s server from the daemon: the same Streamable HTTP and SSE
 * endpoints, tokens (`travsr mcp token add`, read again when the file changes), origin checks
 * and session limits, with every tool call answered by the daemon's warm graphs and query
 * cache over all the repositories it manages, as far as the caller's token allows.
 *
 * @throws the HTTP server's own error when it cannot listen (the port is taken, the address is
 *   not local).
 */
export async function startHostedMcpHttp(core: DaemonCore, opts: HostedMcpHttpOptions, logger: Logger): Promise<McpHttpServer> {
  const server = await startMcpHttpServer({
    factory: mcpServerFactory(daemonToolExecutor(core, () => [])),
    host: opts.host,
    port: opts.port,
    tokens: opts.noAuth ? undefined : TokenStore.load(),
    ...(opts.oauth && !opts.noAuth ? { oauth: opts.oauth } : {}),
    logger,
  });
  logger.log(
    'info',
    `daemon: serving MCP at ${server.url} (Streamable HTTP) and ${server.sseUrl} (SSE); ${opts.noAuth ? 'no authentication' : opts.oauth ? `bearer tokens or OAuth access tokens of ${opts.oauth.issuer} required` : 'bearer tokens required'}`,
  );
  return server;
}

/** `host:port` or `[v6]:port` → its parts. */
export function parseAddress(address: string): { host: string; port: number } {
  const m = /^(?:\[([^\]\s]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(address);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535)
    throw new DaemonError(
      DaemonErrorCode.InvalidOption,
      `--mcp-http ${JSON.stringify(address)} is not host:port; give e.g. 127.0.0.1:7433, [::1]:7433, or 127.0.0.1:0 for any free port`,
    );
  return { host: m[1] ?? m[2]!, port };
}
