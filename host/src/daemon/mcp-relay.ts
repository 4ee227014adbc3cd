import { resolve } from 'node:path';
import { initializedGitRoot } from '../workspace/initialized-root.js';
import { connectDaemon } from './daemon-client.js';

/**
 * `travsr mcp --stdio` through the running daemon: the MCP session is hosted by the daemon
 * (`McpSession`, see protocol/DAEMON.md) and this process only relays stdin lines to it and its
 * messages to stdout, so the agent's client gets answers from warm graphs without this process
 * loading the graph, retrieval or the MCP server. Resolves false, with nothing read from stdin,
 * when no daemon can answer for `repos` (none runs, another build, a repository it does not
 * manage, a socket that is not private: `say` tells why when worth knowing); the caller then
 * serves in-process.
 */
export async function relayMcpStdio(repos: readonly string[], say: (message: string) => void): Promise<boolean> {
  if (process.env.TRAVSR_DAEMON === '0') return false;
  let client: Awaited<ReturnType<typeof connectDaemon>>;
  try {
    client = await connectDaemon();
  } catch (e) {
    say(`not using the daemon: ${(e as Error).message}`);
    return false;
  }
  if (!client) return false;
  const roots = repos.map((r) => initializedGitRoot(resolve(r)) ?? resolve(r));
  const unmanaged = roots.filter((r) => !client.hello.repos.includes(r));
  if (unmanaged.length > 0) {
    say(`answering without the daemon: it does not manage ${unmanaged.join(', ')} (\`travsr daemon add\`)`);
    client.close();
    return false;
  }
  const stream = client.mcpSession(roots);
  await new Promise<void>((done) => {
    let pending = '';
    const forward = (line: string) => {
      if (line.trim() !== '') stream.write({ json: line.replace(/\r$/, '') });
    };
    process.stdin.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        forward(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    process.stdin.on('end', () => {
      forward(pending);
      stream.end();
    });
    stream.on('data', (m: { json: string }) => process.stdout.write(`${m.json}\n`));
    stream.on('error', (e: Error) => {
      if (!/CANCELLED/.test(e.message)) say(`the daemon ended the session: ${e.message}`);
      done();
    });
    stream.on('end', () => done());
  });
  client.close();
  return true;
}
