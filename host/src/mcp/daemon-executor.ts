import { resolve } from 'node:path';
import { connectDaemon } from '../daemon/daemon-client.js';
import { initializedGitRoot } from '../workspace/initialized-root.js';
import type { ToolResult } from '../tools/tool-runner.js';
import type { ToolExecutor } from './server.js';

/** Tool calls of an MCP server answered by the running daemon. */
export interface DaemonExecutor {
  execute: ToolExecutor;
  close(): void;
}

/**
 * The executor of `travsr mcp --stdio` when a daemon runs and manages every repository asked
 * for: each tool call goes to the daemon (warm graphs, query cache), limited to those
 * repositories and to what the caller's policy allows. Undefined when there is no such daemon
 * (no daemon, another build, a repository it does not manage, a socket that is not private):
 * the server then answers in-process as before, and `say` tells why when it is worth knowing.
 */
export async function mcpThroughDaemon(repos: readonly string[], say: (message: string) => void): Promise<DaemonExecutor | undefined> {
  if (process.env.TRAVSR_DAEMON === '0') return undefined;
  let client: Awaited<ReturnType<typeof connectDaemon>>;
  try {
    client = await connectDaemon();
  } catch (e) {
    say(`not using the daemon: ${(e as Error).message}`);
    return undefined;
  }
  if (!client) return undefined;
  const roots = repos.map((r) => initializedGitRoot(resolve(r)) ?? resolve(r));
  const unmanaged = roots.filter((r) => !client.hello.repos.includes(r));
  if (unmanaged.length > 0) {
    say(`answering without the daemon: it does not manage ${unmanaged.join(', ')} (\`travsr daemon add\`)`);
    client.close();
    return undefined;
  }
  const c = client;
  return {
    execute: async (name, args, policy, signal): Promise<ToolResult> => {
      const r = await c.callTool(
        {
          tool: name,
          argumentsJson: JSON.stringify(args ?? {}),
          repos: roots,
          fullAccess: policy.corpora === '*',
          corpora: policy.corpora === '*' ? [] : [...policy.corpora],
          groups: [...policy.groups],
        },
        signal,
      );
      return { text: r.text, structured: JSON.parse(r.structuredJson) as Record<string, unknown>, traceId: r.traceId, isError: r.isError };
    },
    close: () => c.close(),
  };
}
