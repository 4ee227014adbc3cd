import { resolve } from 'node:path';
import { errorCode } from '@travsr/protocol';
import type { Logger } from '../../log/logger.js';
import { connectRunningDaemon } from '../../daemon/daemon-connect.js';
import { FULL_ACCESS } from '../../retrieval/access-policy.js';
import type { ToolName } from '../../tools/tool-definitions.js';
import type { ToolCallExtras, ToolResult } from '../../tools/tool-runner.js';
import { semanticRun, servedRepos } from '../../models/semantic-repos.js';

/** A tool's answer and where it was computed. */
export interface AnsweredTool extends ToolResult {
  /** `daemon`: by the running daemon (warm graph, query cache); `local`: in this process. */
  via: 'daemon' | 'local';
  cached: boolean;
}

/**
 * Runs a tool for the CLI (`ask`, `graph …`) with full access: through the running daemon
 * when there is one that manages the repository (its graph is loaded, answers are cached),
 * otherwise in this process, as without a daemon. A daemon of another build, or one whose
 * socket is not private, is not used (said on stderr); `TRAVSR_DAEMON=0` never uses one.
 *
 * `reads`: the part of the answer the command prints. The daemon sends only that one (an
 * answer's text and its structured content each hold the code it quotes): the other is empty
 * (`''`, `{}`) in an answer from the daemon. An error's text always comes.
 */
export async function runToolLocalOrDaemon(
  repo: string,
  tool: ToolName,
  args: Record<string, unknown>,
  logger: Logger,
  reads: 'text' | 'structured',
): Promise<AnsweredTool> {
  const viaDaemon = process.env.TRAVSR_DAEMON === '0' ? undefined : await tryDaemon(repo, tool, args, logger, reads);
  if (viaDaemon) return viaDaemon;
  // Loaded here, not at start-up: retrieval and the tokenizer are for query commands only.
  const [{ openServedGraphs }, { runTool }, { SemanticLayer }] = await Promise.all([
    import('../../tools/served-graphs.js'),
    import('../../tools/tool-runner.js'),
    import('../../models/semantic-layer.js'),
  ]);
  const served = await openServedGraphs([repo]);
  // The semantic layer (an embedding model's vector channel, a reranker), when models are registered.
  const semantic = new SemanticLayer(logger);
  const run = (extras: ToolCallExtras) => runTool(served.host, tool, args, FULL_ACCESS, extras);
  try {
    const answer = (extras: ToolCallExtras) => Promise.resolve(run(extras));
    const result = await semantic.call(tool, args, servedRepos(served.host.graphs), semanticRun(answer, answer));
    return { ...result, via: 'local', cached: false };
  } finally {
    await semantic.close();
    served.close();
  }
}

async function tryDaemon(
  repo: string,
  tool: ToolName,
  args: Record<string, unknown>,
  logger: Logger,
  reads: 'text' | 'structured',
): Promise<AnsweredTool | undefined> {
  let client: Awaited<ReturnType<typeof connectRunningDaemon>>;
  try {
    client = await connectRunningDaemon();
  } catch (e) {
    logger.log('warn', `not using the daemon: ${(e as Error).message}`);
    return undefined;
  }
  if (!client) return undefined;
  try {
    const r = await client.callTool({
      tool,
      argumentsJson: JSON.stringify(args),
      repos: [resolve(repo)],
      fullAccess: true,
      parts: reads === 'text' ? 'ANSWER_PARTS_TEXT' : 'ANSWER_PARTS_STRUCTURED',
    });
    return {
      text: r.text,
      structured: r.structuredJson === '' ? {} : (JSON.parse(r.structuredJson) as Record<string, unknown>),
      traceId: r.traceId,
      isError: r.isError,
      via: 'daemon',
      cached: r.cached,
    };
  } catch (e) {
    // Not one of the daemon's repositories (or the daemon went away): answered here instead.
    if (errorCode(e) !== 'DAEMON_CALL_FAILED' && errorCode(e) !== 'DAEMON_NOT_RUNNING') throw e;
    logger.log('debug', `answered without the daemon: ${(e as Error).message}`);
    return undefined;
  } finally {
    client.close();
  }
}
