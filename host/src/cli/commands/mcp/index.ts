import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { DEFAULT_SESSION_LIMITS } from '../../../mcp/session-quota.js';
import { TokenStore } from '../../../mcp/token-store.js';
import { stderrLogger } from '../../../log/logger.js';
import type { ToolCallExtras } from '../../../tools/tool-runner.js';

export default class Mcp extends TravsrCommand {
  static override summary = 'Serve the graph over the Model Context Protocol (stdio by default, or HTTP)';
  static override description = `stdio (the default) is for one local client that starts the server itself (Claude Desktop,
Claude Code, Cursor: see \`travsr connect\`); it answers with full access. --http serves Streamable HTTP at /mcp and
the older HTTP+SSE transport at /sse: every request needs a bearer token (\`travsr mcp token add\`) that names the
corpora it may read — unless --no-auth on a loopback address. With mcp.oauthIssuer set (\`travsr config set
mcp.oauthIssuer https://idp.example.com --global\`), OAuth access tokens of that issuer are accepted too: JWTs whose
corpus:<name> scopes name the corpora they read; the protected-resource metadata is at
/.well-known/oauth-protected-resource. Several --repo serve several corpora (federated).
With a daemon running, stdio is answered by the daemon; for HTTP answered by it, start it with --mcp-http instead.`;
  static override examples = [
    '<%= config.bin %> mcp --stdio --repo .',
    '<%= config.bin %> mcp --http --port 7433 --repo ~/src/api --repo ~/src/web',
  ];
  static override flags = {
    stdio: Flags.boolean({ default: false, description: 'serve on stdin/stdout (the default)', exclusive: ['http'] }),
    http: Flags.boolean({ default: false, description: 'serve over HTTP (Streamable HTTP + SSE)' }),
    port: Flags.integer({ default: 7433, min: 0, max: 65535, description: 'HTTP port (0: any free port)' }),
    host: Flags.string({ default: '127.0.0.1', description: 'HTTP address to listen on' }),
    'no-auth': Flags.boolean({ default: false, description: 'HTTP on a loopback address without tokens (full access)' }),
    repo: Flags.directory({
      multiple: true,
      exists: true,
      description: 'repository to serve (repeatable; default: the current directory)',
    }),
    'allowed-origin': Flags.string({ multiple: true, description: 'browser origin allowed to call the HTTP server (repeatable)' }),
    'tool-timeout': Flags.integer({ default: 30_000, min: 100, description: 'ms a tool call may run before it is stopped' }),
    workers: Flags.integer({ default: 2, min: 1, max: 64, description: 'tool calls that run at once (worker threads)' }),
    'session-idle': Flags.integer({
      default: 600,
      min: 1,
      description: 'HTTP: seconds after which a session whose client went away is closed',
    }),
    'max-sessions-per-token': Flags.integer({
      default: DEFAULT_SESSION_LIMITS.perToken,
      min: 1,
      description: 'HTTP: open sessions one token may hold; a further initialize is refused with 429',
    }),
    'max-sessions': Flags.integer({
      default: DEFAULT_SESSION_LIMITS.total,
      min: 1,
      description: 'HTTP: open sessions of the whole server; a further initialize is refused with 503',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    // The MCP SDK, retrieval and the tool pool load here, so that other commands start fast.
    const [{ openServedGraphs }, { ToolPool }, { mcpServerFactory }] = await Promise.all([
      import('../../../tools/served-graphs.js'),
      import('../../../tools/tool-pool.js'),
      import('../../../mcp/server.js'),
    ]);
    const repos = flags.repo && flags.repo.length > 0 ? flags.repo : ['.'];
    if (!flags.http) {
      // A running daemon that manages these repositories answers with its warm graphs and cache.
      const { relayMcpStdio } = await import('../../../daemon/mcp-relay.js');
      if (await relayMcpStdio(repos, (m) => this.logToStderr(`travsr mcp: ${m}`))) return;
    }
    const served = await openServedGraphs(repos);
    const pool = new ToolPool({
      graphs: served.host.graphs.map((g) => ({ root: g.repoRoot, corpus: g.corpus })),
      size: flags.workers,
      timeoutMs: flags['tool-timeout'],
      saveTrace: (t) => served.host.saveTrace(t),
    });
    // The semantic layer (a vector channel, a reranker) when models are registered: their sessions are kept warm here.
    const [{ SemanticLayer }, { semanticRun, servedRepos }] = await Promise.all([
      import('../../../models/semantic-layer.js'),
      import('../../../models/semantic-repos.js'),
    ]);
    const semantic = new SemanticLayer(served.host.logger ?? stderrLogger('warn'));
    const semanticRepos = servedRepos(served.host.graphs);
    const factory = mcpServerFactory((name, args, policy, signal) => {
      const answer = (extras: ToolCallExtras) => pool.run(name, args, policy, signal, extras);
      return semantic.call(name, args, semanticRepos, semanticRun(answer, answer));
    });
    if (!flags.http) {
      const { serveStdioSession } = await import('../../../mcp/stdio-session.js');
      await serveStdioSession(factory, (message) => this.logToStderr(`travsr mcp: ${message}`));
      await pool.close();
      await semantic.close();
      served.close();
      return;
    }
    const [{ startMcpHttpServer }, { oauthOptionsOf }, { loadConfig }] = await Promise.all([
      import('../../../mcp/http-server.js'),
      import('../../../mcp/oauth.js'),
      import('../../../config/index.js'),
    ]);
    // The user's settings (and the environment), never a repository's: who may read over HTTP.
    const oauth = flags['no-auth'] ? undefined : oauthOptionsOf(loadConfig().values);
    const http = await startMcpHttpServer({
      factory,
      host: flags.host,
      port: flags.port,
      tokens: flags['no-auth'] ? undefined : TokenStore.load(),
      ...(oauth ? { oauth } : {}),
      ...(served.host.logger ? { logger: served.host.logger } : {}),
      ...(flags['allowed-origin'] ? { allowedOrigins: flags['allowed-origin'] } : {}),
      sessionIdleMs: flags['session-idle'] * 1000,
      sessionLimits: { perToken: flags['max-sessions-per-token'], total: flags['max-sessions'] },
    });
    this.logToStderr(
      `travsr MCP server: ${http.url} (Streamable HTTP), ${http.sseUrl} (SSE); corpora ${served.host.graphs.map((g) => g.corpus).join(', ')}; ${flags['no-auth'] ? 'no authentication' : oauth ? `bearer tokens or OAuth access tokens of ${oauth.issuer} required` : 'bearer tokens required'}`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await http.close();
    await pool.close();
    await semantic.close();
    served.close();
  }
}
