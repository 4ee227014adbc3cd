import type { Logger } from '../log/logger.js';
import type { PluginTimeouts } from '../plugins/timeouts.js';
import type { GraphStore } from '../store/index.js';
import { TextIndexQueue } from './text-index-queue.js';
import type { Trace } from '../traces/trace.js';
import { LanguageMap } from './walk/index.js';
import type { RegisteredPlugin } from '../catalog/registered-plugins.js';
import { emptySummary, type IndexSummary } from './index-summary.js';
import type { BroughtIndexerSettings } from './brought-indexers.js';
import { BRIEF_RUN_FILES, PluginSessions } from './plugin-sessions.js';
import type { SpareSessions } from './spare-sessions.js';
import { claimTree, type ClaimOptions } from './tree-claims.js';
import { forEachLimit, planChanges, rereadsStoredGraph, type Job } from './change-plan.js';
import { analyzeWithPlugin, type PluginRunContext } from './plugin-run.js';
import { RunFailures } from './run-failures.js';

/** What to index: everything, or what a commit changed. */
export type IndexMode =
  | { kind: 'full'; rebuild?: boolean }
  | {
      kind: 'incremental';
      changed: string[];
      deleted: string[];
      /**
       * Files analyzed again whatever their hash: those whose later phase an earlier run put off
       * ({@link IndexRequest.deferLaterPhases}). Each is also in `changed`.
       */
      reanalyze?: string[];
    };

/** Settings of one index run (already resolved from configuration). */
export interface IndexSettings {
  corpus: string;
  workers: number;
  maxFileBytes: number;
  exclude: string[];
  followSymlinks: boolean;
  /** Run plugins' Phase B; false: Phase A only. */
  semantic: boolean;
  prefer: Record<string, string>;
  /** `plugins.options`: `"<plugin id>.<option>"` → value, passed to each plugin in `initialize.options`. */
  pluginOptions?: Record<string, string>;
  /** `plugins.cacheMax`: size past which a plugin's cache directory is emptied after its session. */
  pluginCacheMaxMiB?: number;
  /** `lang.scip*`: the SCIP indexers users bring, by language. */
  broughtIndexers?: BroughtIndexerSettings;
  /** `plugins.network`: plugin id → the hosts it may reach instead of its manifest's. */
  pluginNetwork?: Record<string, string>;
}

/** Progress of an index run, for a progress bar. */
export interface IndexProgress {
  stage: 'walk' | 'hash' | 'analyze' | 'resolve';
  done: number;
  total: number;
  plugin?: string;
}

/** Everything {@link runIndex} needs. */
export interface IndexRequest {
  repoRoot: string;
  store: GraphStore;
  plugins: RegisteredPlugin[];
  settings: IndexSettings;
  mode: IndexMode;
  logger: Logger;
  onProgress?: (p: IndexProgress) => void;
  onTrace?: (t: Trace) => void;
  signal?: AbortSignal;
  /** Files per analyze request (smaller: finer crash isolation; larger: less overhead). */
  batchSize?: number;
  timeouts?: Partial<PluginTimeouts>;
  commit?: string;
  /** A full run's walk, made moments before by the caller (see `ClaimOptions.listing`): `travsr init` walks once. */
  listing?: ClaimOptions['listing'];
  /**
   * Called when a plugin's first phase is stored for all its files and a later phase follows,
   * after the names those files define or use are matched (as step 5 does at the end): the
   * graph answers at Phase A quality from then on, while Phase B runs. The daemon listens;
   * without a listener the run does not stop between phases.
   */
  onFirstPhase?: (pluginId: string, paths: readonly string[]) => void;
  /**
   * Called when a later phase (Phase B) of the files whose text changed is stored, before their
   * dependents' (the changed files then go in a request of their own): an edit's resolved
   * calls answer while the files that depend on it are analyzed again. The daemon listens.
   */
  onChangedResolved?: (pluginId: string, paths: readonly string[]) => void;
  /**
   * When this aborts, the run asks for no more later-phase (Phase B) requests: the files whose
   * later phase was not stored keep their first phase's graph, the run completes as usual, and
   * `summary.deferred` lists them for the caller to run again (`reanalyze`). The daemon aborts
   * it when newer edits arrive, so they wait for no Phase B that they make stale.
   */
  deferLaterPhases?: AbortSignal;
  /** Plugin sessions started ahead (the daemon's): a brief run takes them and leaves fresh ones. */
  spares?: SpareSessions;
}

/**
 * Indexes a repository into the graph store: walks the tree (ignore files honoured,
 * binaries/generated/huge files skipped with a reason), hashes files, sends the changed
 * ones, grouped by language, to their plugins (one sandboxed sidecar per plugin, several
 * plugins at once up to `workers`), Phase A then Phase B, and replaces each file's part of
 * the graph atomically as it streams in. Files that disappeared are tombstoned; name-matched
 * references are resolved last. One failing file or plugin never stops the run: it is
 * recorded and reported in the summary.
 */
export async function runIndex(req: IndexRequest): Promise<IndexSummary> {
  const { settings } = req;
  const sessions = new PluginSessions({
    repoRoot: req.repoRoot,
    corpus: settings.corpus,
    plugins: req.plugins,
    semantic: settings.semantic,
    pluginOptions: settings.pluginOptions,
    pluginCacheMaxMiB: settings.pluginCacheMaxMiB,
    broughtIndexers: settings.broughtIndexers,
    pluginNetwork: settings.pluginNetwork,
    logger: req.logger,
    onTrace: req.onTrace,
    timeouts: req.timeouts,
    workers: settings.workers,
    spares: req.spares,
  });
  try {
    return await indexWith(req, sessions);
  } finally {
    await sessions.stopAll();
  }
}

/** {@link runIndex} with the run's plugin sessions. */
async function indexWith(req: IndexRequest, sessions: PluginSessions): Promise<IndexSummary> {
  const t0 = performance.now();
  const { repoRoot, store, settings, logger } = req;
  // Crash consistency: the run is recorded before anything changes, and a run an earlier
  // process left unfinished is completed by this one: its pending files are analyzed again and
  // every name match is redone. A commit's change list says nothing about what the killed run
  // did not reach, so an incremental run after one runs in full.
  const indexRun = store.beginIndexRun(req.mode.kind === 'full' && req.mode.rebuild === true ? 'rebuild' : req.mode.kind);
  const pendingBefore = new Set(indexRun.pendingFiles);
  const wasInterrupted = indexRun.interrupted.length > 0 || pendingBefore.size > 0;
  // Files whose Phase B the last run put off are analyzed again, whatever their hash.
  const reanalyze = [...new Set([...(req.mode.kind === 'incremental' ? (req.mode.reanalyze ?? []) : []), ...store.deferredFiles()])];
  const mode: IndexMode =
    req.mode.kind === 'incremental' && wasInterrupted
      ? { kind: 'full' }
      : req.mode.kind === 'incremental'
        ? { ...req.mode, changed: [...new Set([...req.mode.changed, ...reanalyze])], reanalyze }
        : req.mode;
  sessions.brief = mode.kind === 'incremental' && mode.changed.length <= BRIEF_RUN_FILES;
  if (mode.kind === 'incremental') sessions.changedPaths = [...mode.changed, ...mode.deleted];
  const languageMap = LanguageMap.fromPlugins(
    req.plugins.map((p) => ({ id: p.plugin.manifest.id, manifest: p.plugin.manifest })),
    { prefer: settings.prefer },
  );
  const summary: IndexSummary = {
    ...emptySummary(mode.kind, repoRoot),
    ...(req.commit ? { commit: req.commit } : {}),
    ...(wasInterrupted
      ? {
          resumed: {
            runs: indexRun.interrupted.map((r) => ({ mode: r.mode, startedAt: new Date(r.startedAt).toISOString() })),
            pendingFiles: pendingBefore.size,
          },
        }
      : {}),
  };

  // 1. Walk: what is in the tree, and which plugin claims each file. An incremental run opens
  // only the files the commit changed: the others were inspected (size, binary, generated) when
  // they were last indexed. The plugins that claim a changed file start now, while the tree is
  // walked (one that turns out to have nothing to do is stopped at the end): the walk waits
  // until their processes run, which takes the host a few milliseconds when nothing else does.
  // Outside a brief run, a plugin starts ahead only once it has more than BRIEF_RUN_FILES files
  // (PluginSessions.warm); one with fewer starts at step 4, as a brief session.
  const changedSet = mode.kind === 'incremental' ? new Set(mode.changed) : undefined;
  for (const path of changedSet ?? []) {
    const m = languageMap.match(path);
    if (m) sessions.warm(m.plugin, path);
  }
  await sessions.launched();
  // Text indexes overlap analysis; files left without one by an older schema or a killed run go
  // first. Looked up once the plugins' processes run (a query over every file: ~10 ms on a cold
  // 400-file store), so that it overlaps their start instead of delaying it.
  const texts = new TextIndexQueue(store, repoRoot, logger);
  texts.add(store.filesWithoutText());
  const stored = new Map(store.listFiles().map((f) => [f.path, f]));
  const claims = await claimTree(
    repoRoot,
    languageMap,
    {
      maxFileBytes: settings.maxFileBytes,
      exclude: settings.exclude,
      followSymlinks: settings.followSymlinks,
      changed: changedSet,
      known: mode.kind === 'incremental' ? { deleted: new Set(mode.deleted), stored } : undefined,
      listing: mode.kind === 'full' ? req.listing : undefined,
      // A full run starts a plugin at its first new file (one the store has never seen, or any
      // file in a rebuild): that file is analyzed whatever its hash, so the start overlaps the walk.
      onClaimed:
        mode.kind === 'full'
          ? (path, plugin) => {
              if (mode.rebuild === true || !stored.has(path)) sessions.warm(plugin, path);
            }
          : undefined,
    },
    summary,
  );
  req.onProgress?.({ stage: 'walk', done: claims.claimed.size, total: claims.claimed.size });

  // 2. What changed, and 3. the dependents of what changes.
  const labels = new Map(req.plugins.map((p) => [p.plugin.manifest.id, p.plugin.label]));
  const plan = await planChanges({
    store,
    repoRoot,
    mode,
    claims,
    stored,
    pendingBefore: reanalyze.length > 0 ? new Set([...pendingBefore, ...reanalyze]) : pendingBefore,
    summary,
    onWork: (pluginId, path) => sessions.warm(pluginId, path),
    onHashed: (done, total) => req.onProgress?.({ stage: 'hash', done, total }),
    pluginLabels: labels,
  });
  const { jobs, toRemove } = plan;

  // The names whose candidates this run can change (step 5): those defined in the files it
  // changes or removes. A dependent read again from the same text by the same plugin defines
  // what it defined: in a one-file commit's run, most of the files sent.
  const redefined = [...jobs.keys()].filter((path) => !rereadsStoredGraph(plan, path, labels.get(claims.claimed.get(path)?.plugin ?? '')));
  const namesBefore = new Set(store.definedNames([...redefined, ...toRemove]));
  // Before the first change: whatever this run is going to analyze is pending until its last
  // phase is stored (or the run completes), so a kill leaves it to the next run.
  store.markFilesPending(indexRun.id, [...jobs.keys()]);
  for (const path of [...toRemove].sort()) {
    store.removeFile(path);
    summary.removed++;
  }

  // 4. Analyze, per plugin, in parallel up to `workers`.
  const byPlugin = new Map<string, Job[]>();
  for (const job of [...jobs.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const id = claims.claimed.get(job.path)!.plugin;
    byPlugin.set(id, [...(byPlugin.get(id) ?? []), job]);
  }
  sessions.planned(new Map([...byPlugin].map(([id, files]) => [id, files.length])));
  let analyzedCount = 0;
  const context: PluginRunContext = {
    store,
    sessions,
    summary,
    texts,
    failures: new RunFailures(summary),
    plan,
    semantic: settings.semantic,
    logger,
    signal: req.signal,
    deferLaterPhases: req.deferLaterPhases,
    batchSize: req.batchSize ?? 256,
    onAnalyzed: (plugin) => req.onProgress?.({ stage: 'analyze', done: ++analyzedCount, total: jobs.size, plugin }),
    onAheadStored: req.onChangedResolved
      ? (pluginId, phase, paths) => {
          if (phase !== 'B') return;
          // Their name matches, which the resolved graph replaces, go now (step 5 again at the end).
          store.resolveRefs({ paths: [...paths], names: [] });
          req.onChangedResolved?.(pluginId, paths);
        }
      : undefined,
    onPhaseStored: req.onFirstPhase
      ? (pluginId, phase) => {
          // The files read again (changed, or a dependent another plugin version reads): a
          // dependent re-read from the same text has the refs it had.
          const paths = (byPlugin.get(pluginId) ?? []).map((j) => j.path).filter((p) => !plan.textUnchanged.has(p));
          if (phase !== 'A' || paths.length === 0) return Promise.resolve();
          // Step 5 for this plugin's files now (the run's end does it again for everything).
          const mine = new Set(paths);
          const names = new Set([...namesBefore, ...store.definedNames(redefined.filter((p) => mine.has(p)))]);
          store.resolveRefs({ paths, names: [...names] });
          req.onFirstPhase?.(pluginId, paths);
          return Promise.resolve();
        }
      : undefined,
  };
  const runPlugin = (reg: RegisteredPlugin) => analyzeWithPlugin(context, reg, byPlugin.get(reg.plugin.manifest.id) ?? []);
  const active = req.plugins.filter((p) => byPlugin.has(p.plugin.manifest.id));
  for (const p of req.plugins) if (!byPlugin.has(p.plugin.manifest.id)) await runPlugin(p);
  await forEachLimit(active, Math.max(1, settings.workers), runPlugin);
  summary.analyzed = summary.plugins.reduce((n, p) => n + p.analyzed, 0);

  await texts.idle();
  // 5. Name-matched references: all of them after a full run (or a run after an interrupted
  // one), else only those that the change can affect.
  req.onProgress?.({ stage: 'resolve', done: 0, total: 1 });
  if (mode.kind === 'full' || wasInterrupted) {
    summary.refs = store.resolveRefs();
  } else {
    const namesAfter = store.definedNames(redefined);
    summary.refs = store.resolveRefs({ paths: [...jobs.keys()], names: [...new Set([...namesBefore, ...namesAfter])] });
  }
  const size = store.graphSize();
  summary.nodes = size.nodes;
  summary.edges = size.edges;
  // The run's last step: name matching is stored, every file counts as done.
  store.completeIndexRun(indexRun.id, {
    ...(req.commit ? { commit: req.commit } : {}),
    ...(summary.deferred ? { deferred: summary.deferred } : {}),
  });
  summary.durationMs = Math.round(performance.now() - t0);
  return summary;
}
