import { join } from 'node:path';
import { TravsrError } from '@travsr/protocol';
import { headCommit } from '../git/index.js';
import { runIndex, type IndexMode, type IndexRequest } from '../indexer/indexer.js';
import type { IndexSummary } from '../indexer/index-summary.js';
import { registeredPlugins } from '../catalog/registered-plugins.js';
import { storeCoreShells } from '../retrieval/kcore-cache.js';
import { TraceRecorder } from '../traces/trace.js';
import { persistentTraceSink } from '../traces/trace-sink.js';
import { travsrHome } from '../paths/travsr-home.js';
import { acquireIndexLock } from './index-lock.js';
import { pluginDeadlines } from '../plugins/timeouts.js';
import { progressReporter } from './progress.js';
import type { Workspace } from './workspace.js';

/** Refusal to index with no plugin at all over a non-empty graph. */
export class NoPluginsError extends TravsrError {
  override readonly name = 'NoPluginsError';
  readonly code = 'NO_PLUGINS';
}

/**
 * Runs one index of a workspace under its lock, with the registered plugins, a progress
 * line on a terminal, and an `index-run` trace next to the plugin sessions' traces.
 */
export async function indexWorkspace(
  ws: Workspace,
  mode: IndexMode,
  opts: {
    progress?: boolean;
    lockWaitMs?: number;
    signal?: AbortSignal;
    extra?: Partial<IndexRequest>;
    /** The commit being indexed when the caller knows it already (default: HEAD, asked of git). */
    commit?: string;
    /** The registered plugins when the caller started reading them already (default: read here). */
    catalog?: ReturnType<typeof registeredPlugins>;
  } = {},
): Promise<IndexSummary> {
  const release = await acquireIndexLock(join(ws.root, '.travsr'), opts.lockWaitMs);
  const recorder = new TraceRecorder('index-run', ws.root);
  const save = persistentTraceSink(ws.root, ws.logger);
  // A progress line only when asked for (not --json) and stderr is a terminal.
  const progress = progressReporter(opts.progress !== false && process.stderr.isTTY === true && !process.env.CI);
  try {
    recorder.transition('loading_plugins');
    const { plugins, problems } = await (opts.catalog ?? registeredPlugins(ws.config.values['plugins.dirs'].value, { repoRoot: ws.root }));
    if (plugins.length === 0 && ws.store.counts().files > 0) {
      // Most likely a different ~/.travsr (another user, a GUI git client with another HOME):
      // indexing now would drop every file from the graph.
      throw new NoPluginsError(
        problems.length > 0
          ? `no language plugin can run (${problems.join('; ')}), so indexing would remove every file from the graph; nothing was changed`
          : `no language plugin is registered (lang.toml in ${travsrHome()} is empty), so indexing would remove every file from the graph; run \`travsr init ${ws.root}\` as the user who owns the index`,
      );
    }
    // Reported once: in the error above when nothing can run, else as warnings.
    for (const p of problems) ws.logger.log('warn', p);
    const commit = opts.commit ?? (ws.git ? await headCommit(ws.root) : undefined);
    recorder.transition('indexing', mode.kind);
    const summary = await runIndex({
      repoRoot: ws.root,
      store: ws.store,
      plugins,
      settings: ws.settings,
      mode,
      logger: ws.logger,
      onProgress: progress.update,
      ...(commit ? { commit } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      timeouts: pluginDeadlines(ws.config.values),
      ...opts.extra,
    });
    progress.done();
    // Full runs (summary.mode: an incremental run that completes an interrupted one runs in
    // full) cache the k-core shells for retrieval; after an incremental run the cache is
    // stale and queries compute shells in memory (O(edges)) until the next full run.
    if (summary.mode === 'full') recorder.count('maxCoreShell', storeCoreShells(ws.store).maxShell);
    for (const [k, v] of Object.entries({
      analyzed: summary.analyzed,
      unchanged: summary.unchanged,
      failed: summary.failed,
      removed: summary.removed,
      nodes: summary.nodes,
      edges: summary.edges,
    })) {
      recorder.count(k, v);
    }
    recorder.trace.details.plugins = summary.plugins;
    if (summary.choices.length) recorder.trace.details.pluginChoices = summary.choices;
    if (problems.length) recorder.trace.details.problems = problems;
    if (summary.failures.length) recorder.trace.details.failures = summary.failures;
    save(recorder.finish());
    return summary;
  } catch (e) {
    progress.done();
    save(recorder.finish({ code: (e as { code?: string }).code ?? 'INDEX_FAILED', message: (e as Error).message }));
    throw e;
  } finally {
    release();
  }
}
