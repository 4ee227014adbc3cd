import type { GitRepo } from './git-repo.js';
import { startCli, travsr, type CliProcess } from './run-cli.js';

/** The real `travsr mcp --http` of a test and the base URL it serves (`<base>/mcp`, `<base>/sse`). */
export interface McpHttpProcess {
  server: CliProcess;
  base: string;
}

/**
 * Starts the real `travsr mcp --http --port 0` over `repos` (`args` added), with the test's
 * TRAVSR_HOME and `env`; resolves once it says where it listens, rejects if it exits first.
 * Stop it with `server.kill('SIGTERM')` and await `server`.
 */
export async function startMcpHttp(
  repos: readonly string[],
  opts: { args?: string[]; env?: Record<string, string> } = {},
): Promise<McpHttpProcess> {
  const server = startCli(['mcp', '--http', '--port', '0', ...repos.flatMap((r) => ['--repo', r]), ...(opts.args ?? [])], opts.env);
  const base = await new Promise<string>((resolve, reject) => {
    let err = '';
    server.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /(http:\/\/[^\s]+)\/mcp/.exec(err);
      if (m) resolve(m[1]!);
    });
    void server.then(() => reject(new Error(`the server exited: ${err}`)));
  });
  return { server, base };
}

/** Gives each repository its corpus name (its own config) and indexes it with `travsr init --no-hook`. */
export async function initCorpora(repos: readonly (readonly [GitRepo, string])[]): Promise<void> {
  for (const [repo, corpus] of repos) {
    const set = await travsr(['config', 'set', 'corpus', corpus, '--repo', repo.root]);
    if (set.code !== 0) throw new Error(`travsr config set corpus ${corpus} exited with ${set.code}: ${set.stderr}`);
    const init = await travsr(['init', repo.root, '--no-hook']);
    if (init.code !== 0) throw new Error(`travsr init ${repo.root} exited with ${init.code}: ${init.stderr}`);
  }
}
