import { resolve } from 'node:path';
import { connectRunningDaemon } from '../daemon/daemon-connect.js';
import { formatSummary } from '../indexer/index-summary.js';
import { reindexCommits } from '../workspace/commit-reindex.js';

/** What `travsr hook-run` was asked to do. */
export interface HookRunRequest {
  /** The repository (default: the current directory). */
  path: string;
  /** Called by the git hook: problems are printed, never thrown. */
  fromHook: boolean;
  json: boolean;
}

/** Where `hook-run` writes: the CLI's output boundary (every line passes `terminalText`). */
export interface HookRunOutput {
  log(line: string): void;
  logToStderr(line: string): void;
}

/**
 * The body of `travsr hook-run`, shared by the oclif command and the lean entry the post-commit
 * hook starts (`lean-entry.ts`): reindexes what the commits since the last indexed one
 * changed and prints the summary. Throws what went wrong, unless `fromHook`.
 *
 * @example
 * ```ts
 * await hookRun({ path: '.', fromHook: true, json: false }, { log: console.log, logToStderr: console.error });
 * ```
 */
export async function hookRun(req: HookRunRequest, out: HookRunOutput): Promise<void> {
  try {
    if (await notifiedDaemon(req, out)) return;
    const r = await reindexCommits(req.path);
    if (r.kind === 'no-commits') out.log('nothing to reindex: the repository has no commits');
    else if (r.kind === 'up-to-date') out.log(`already indexed at ${r.head.slice(0, 12)}`);
    else out.log(req.json ? JSON.stringify(r.summary, null, 2) : formatSummary(r.summary));
  } catch (e) {
    if (!req.fromHook) throw e;
    const code = (e as { code?: unknown }).code;
    out.logToStderr(`travsr hook-run: ${typeof code === 'string' ? `[${code}] ` : ''}${(e as Error).message}`);
  }
}

/**
 * When the daemon runs and manages the repository, the commit is its business: it is told
 * (the hook returns at once; run by hand, `hook-run` waits until the graph is at the commit)
 * and true is returned. Without a daemon (no socket: nothing is loaded), or one that cannot be
 * used (another build, a socket that is not private: said on stderr), false: the caller
 * reindexes in this process, as always.
 */
async function notifiedDaemon(req: HookRunRequest, out: HookRunOutput): Promise<boolean> {
  if (process.env.TRAVSR_DAEMON === '0') return false;
  let client: Awaited<ReturnType<typeof connectRunningDaemon>>;
  try {
    client = await connectRunningDaemon({ timeoutMs: 1_000 });
  } catch (e) {
    out.logToStderr(`travsr hook-run: not using the daemon: ${(e as Error).message}`);
    return false;
  }
  if (!client) return false;
  try {
    const r = await client.notify(resolve(req.path), !req.fromHook);
    if (!r.accepted) return false;
    out.log(
      req.fromHook
        ? `the daemon (pid ${client.hello.pid}) updates the graph`
        : `the daemon (pid ${client.hello.pid}) brought the graph to HEAD`,
    );
    return true;
  } catch (e) {
    out.logToStderr(`travsr hook-run: the daemon did not take the commit (${(e as Error).message}); reindexing here`);
    return false;
  } finally {
    client.close();
  }
}
