import { join } from 'node:path';
import type { GraphFileParams } from '@travsr/protocol';
import type { Logger } from '../log/logger.js';
import { PluginError, PluginErrorCode, errorCode } from '../plugins/errors.js';
import type { PluginTimeouts } from '../plugins/timeouts.js';
import type { GraphStore } from '../store/index.js';
import { FileWriteBatch } from './file-write-batch.js';
import { TextIndexQueue } from './text-index-queue.js';
import type { Trace } from '../traces/trace.js';
import { hashFile, LanguageMap, walkRepository } from './walk/index.js';
import type { RegisteredPlugin } from './plugin-catalog.js';
import type { IndexSummary, PluginSummary } from './index-summary.js';
import { PluginSessions, runPhases } from './plugin-sessions.js';

/** What to index: everything, or what a commit changed. */
export type IndexMode = { kind: 'full'; rebuild?: boolean } | { kind: 'incremental'; changed: string[]; deleted: string[] };

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
}

interface Job {
  path: string;
  language: string;
  sha256: string;
  lines: number;
}

/** Errors after which a plugin will not analyze anything in this run. */
const PLUGIN_LEVEL: ReadonlySet<string> = new Set([
  PluginErrorCode.Disabled,
  PluginErrorCode.ConstraintRefused,
  PluginErrorCode.SandboxUnavailable,
  PluginErrorCode.Tampered,
  PluginErrorCode.NotFound,
  PluginErrorCode.LaunchFailed,
  PluginErrorCode.HandshakeFailed,
  PluginErrorCode.Stopped,
]);

const MAX_FAILURES_LISTED = 50;

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
    logger: req.logger,
    onTrace: req.onTrace,
    timeouts: req.timeouts,
    workers: settings.workers,
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
  const mode: IndexMode = req.mode.kind === 'incremental' && wasInterrupted ? { kind: 'full' } : req.mode;
  const languageMap = LanguageMap.fromPlugins(
    req.plugins.map((p) => ({ id: p.plugin.manifest.id, manifest: p.plugin.manifest })),
    { prefer: settings.prefer },
  );
  const summary: IndexSummary = {
    mode: mode.kind,
    repoRoot,
    filesSeen: 0,
    analyzed: 0,
    unchanged: 0,
    failed: 0,
    removed: 0,
    skipped: {},
    unclaimed: {},
    dependents: 0,
    nodes: 0,
    edges: 0,
    refs: { edges: 0, ambiguous: 0, unresolved: 0 },
    plugins: [],
    choices: [],
    failures: [],
    durationMs: 0,
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
  // Text indexes overlap analysis; files left without one by an older schema or a killed run go first.
  const texts = new TextIndexQueue(store, repoRoot, logger);
  texts.add(store.filesWithoutText());

  // 1. Walk: what is in the tree, and which plugin claims each file.
  const claimed = new Map<string, { language: string; plugin: string }>();
  const skipped = new Map<string, { reason: string; detail: string }>();
  // An incremental run opens only the files the commit changed: the others were inspected
  // (size, binary, generated) when they were last indexed. The plugins that claim a changed
  // file start now, while the tree is walked (one that turns out to have nothing to do, the
  // file being ignored or unchanged, is stopped at the end).
  const changedSet = mode.kind === 'incremental' ? new Set(mode.changed) : undefined;
  for (const path of changedSet ?? []) {
    const m = languageMap.match(path);
    if (m) sessions.warm(m.plugin);
  }
  for await (const entry of walkRepository(repoRoot, {
    maxFileBytes: settings.maxFileBytes,
    exclude: settings.exclude,
    followSymlinks: settings.followSymlinks,
    languageMap,
    reportUnclaimed: true,
    ...(changedSet ? { inspect: (path: string) => changedSet.has(path) } : {}),
  })) {
    if (entry.kind === 'file') {
      const m = entry.match ?? languageMap.match(entry.path);
      if (m) {
        claimed.set(entry.path, { language: m.language, plugin: m.plugin });
        if (m.candidates.length > 1 && !summary.choices.some((c) => c.language === m.language && c.plugin === m.plugin)) {
          summary.choices.push({ language: m.language, plugin: m.plugin, candidates: [...m.candidates], rule: m.rule });
        }
      }
    } else if (entry.reason === 'no-plugin') {
      const ext = extensionOf(entry.path);
      summary.unclaimed[ext] = (summary.unclaimed[ext] ?? 0) + 1;
    } else if (languageMap.match(entry.path)) {
      skipped.set(entry.path, { reason: entry.reason, detail: entry.detail });
      summary.skipped[entry.reason] = (summary.skipped[entry.reason] ?? 0) + 1;
    }
  }
  summary.filesSeen = claimed.size;
  req.onProgress?.({ stage: 'walk', done: claimed.size, total: claimed.size });

  // 2. What changed: candidates to hash, and files to remove from the graph.
  const stored = new Map(store.listFiles().map((f) => [f.path, f]));
  let candidates: string[];
  const toRemove = new Set<string>();
  if (mode.kind === 'full') {
    candidates = [...claimed.keys()];
    for (const path of stored.keys()) if (!claimed.has(path)) toRemove.add(path);
  } else {
    candidates = mode.changed.filter((p) => claimed.has(p));
    for (const p of [...mode.deleted, ...mode.changed]) if (!claimed.has(p) && stored.has(p)) toRemove.add(p);
  }
  const rebuild = mode.kind === 'full' && mode.rebuild === true;
  const jobs = new Map<string, Job>();
  let hashed = 0;
  await forEachLimit(candidates, 8, async (path) => {
    const c = claimed.get(path)!;
    try {
      const h = await hashFile(join(repoRoot, path));
      const prev = stored.get(path);
      if (!rebuild && prev && prev.sha256 === h.sha256 && prev.status === 'ok' && !pendingBefore.has(path)) summary.unchanged++;
      else {
        jobs.set(path, { path, language: c.language, sha256: h.sha256, lines: h.lines });
        sessions.warm(c.plugin);
      }
    } catch (e) {
      skipped.set(path, { reason: 'unreadable', detail: (e as Error).message });
      summary.skipped.unreadable = (summary.skipped.unreadable ?? 0) + 1;
    }
    req.onProgress?.({ stage: 'hash', done: ++hashed, total: candidates.length });
  });
  // markSkipped also tombstones whatever the file had in the graph.
  for (const [path, s] of skipped) store.markSkipped(path, '', `${s.reason}: ${s.detail}`);

  // 3. Dependents: files whose edges point into what changes must be analyzed again (a full
  // run finds changed files by hash, and their dependents are just as stale).
  // A dependent's text is what is indexed already (only its edges are stale): its text index stays.
  const textUnchanged = new Set<string>();
  if (!rebuild) {
    const changing = [...jobs.keys(), ...toRemove, ...[...skipped.keys()].filter((p) => stored.get(p)?.status === 'ok')];
    for (const dep of store.dependentsOf(changing)) {
      if (jobs.has(dep) || !claimed.has(dep) || toRemove.has(dep) || skipped.has(dep)) continue;
      const prev = stored.get(dep);
      if (!prev) continue;
      jobs.set(dep, { path: dep, language: claimed.get(dep)!.language, sha256: prev.sha256, lines: prev.lines ?? 0 });
      summary.dependents++;
      if (prev.status === 'ok') textUnchanged.add(dep);
    }
  }

  const touched = [...jobs.keys(), ...toRemove];
  const namesBefore = new Set(store.definedNames(touched));
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
    const id = claimed.get(job.path)!.plugin;
    byPlugin.set(id, [...(byPlugin.get(id) ?? []), job]);
  }
  let analyzedCount = 0;
  const totalJobs = jobs.size;
  const recordFailure = (path: string, plugin: string, reason: string, job?: Job) => {
    summary.failed++;
    if (summary.failures.length < MAX_FAILURES_LISTED) summary.failures.push({ path, plugin, reason });
    if (job) {
      store.replaceFile({
        path,
        sha256: job.sha256,
        language: job.language,
        phase: 'A',
        plugin,
        status: 'failed',
        nodes: [],
        edges: [],
        refs: [],
        diagnostics: [{ severity: 'error', code: 'ANALYSIS_FAILED', message: reason }],
      });
    }
  };
  const runPlugin = async (reg: RegisteredPlugin): Promise<void> => {
    const m = reg.plugin.manifest;
    const files = byPlugin.get(m.id) ?? [];
    const phases = runPhases(m, settings.semantic);
    const ps: PluginSummary = {
      id: m.id,
      version: m.version,
      languages: m.languages,
      tier: reg.tier,
      files: files.length,
      analyzed: 0,
      failed: 0,
      phases,
      status: 'idle',
    };
    summary.plugins.push(ps);
    if (files.length === 0) return;
    const { supervisor: sup, capabilities } = sessions.start(m.id)!;
    const failedHere = new Set<string>();
    try {
      // The plugin's session may run fewer phases than its manifest lists (a tool it needs is
      // missing): ask it. A plugin that cannot start fails its first batch below, as before.
      let run = phases;
      try {
        const caps = await capabilities;
        run = phases.filter((p) => caps.phases.includes(p));
        if (run.length === 0) run = phases.slice(0, 1);
        const skipped = caps.unavailable.filter((u) => phases.includes(u.phase));
        if (skipped.length > 0) {
          ps.unavailable = skipped.map((u) => ({ phase: u.phase, reason: u.reason }));
          for (const u of skipped) logger.log('info', `[${reg.plugin.label}] phase ${u.phase} not run: ${u.reason}`);
        }
        ps.phases = run;
      } catch (e) {
        if (errorCode(e) === PluginErrorCode.Cancelled) throw e;
      }
      // A dependent whose text and plugin are those of its stored graph has the same Phase A
      // output as before: only the later phases, which read other files, can change (with no
      // later phase, name matching alone brings its references up to date).
      const phasesOf = (path: string): readonly ('A' | 'B')[] =>
        textUnchanged.has(path) && stored.get(path)?.plugin === reg.plugin.label ? run.slice(1) : run;
      const firstPhase = (path: string) => phasesOf(path)[0];
      for (const phase of run) {
        const queue = files.filter((f) => !failedHere.has(f.path) && phasesOf(f.path).includes(phase));
        let stop: PluginError | undefined;
        while (queue.length > 0 && !stop) {
          if (req.signal?.aborted) throw new PluginError(PluginErrorCode.Cancelled, 'indexing was cancelled');
          const batch = queue.splice(0, req.batchSize ?? 256);
          const delivered = new Set<string>();
          const byPath = new Map(batch.map((j) => [j.path, j]));
          const jobOf = (path: string) => byPath.get(path);
          const writes = new FileWriteBatch(
            store,
            (input, error) => {
              if (phase === firstPhase(input.path) && input.status === 'ok') ps.analyzed--;
              failedHere.add(input.path);
              recordFailure(input.path, reg.plugin.label, error.message, jobOf(input.path));
            },
            undefined,
            (stored) => {
              texts.add(
                stored.filter((i) => i.status === 'ok' && phase === firstPhase(i.path) && !textUnchanged.has(i.path)).map((i) => i.path),
              );
            },
          );
          const onFile = (f: GraphFileParams) => {
            const job = jobOf(f.path)!;
            delivered.add(f.path);
            writes.add({
              path: f.path,
              sha256: job.sha256,
              lines: job.lines,
              language: job.language,
              phase,
              plugin: reg.plugin.label,
              status: f.status,
              nodes: f.nodes,
              edges: f.edges,
              refs: f.refs ?? [],
              diagnostics: f.diagnostics,
              // The file's last phase in this run: it is done (name matching is redone in full
              // after an interrupted run, text by filesWithoutText).
              done: phase === run[run.length - 1],
            });
            if (f.status === 'failed') {
              failedHere.add(f.path);
              recordFailure(f.path, reg.plugin.label, f.diagnostics[0]?.message ?? 'the plugin reported a failure');
            } else if (phase === firstPhase(f.path)) {
              ps.analyzed++;
              req.onProgress?.({ stage: 'analyze', done: ++analyzedCount, total: totalJobs, plugin: m.id });
            }
          };
          // A structural pass streams files as fast as the host stores them: text indexing waits.
          const release = phase === 'A' ? texts.hold() : undefined;
          try {
            const out = await sup.analyze(
              { phase, files: batch.map((j) => ({ path: j.path, language: j.language })) },
              { onFile },
              req.signal ? { signal: req.signal } : {},
            );
            release?.();
            writes.flush();
            for (const path of out.missing) {
              failedHere.add(path);
              recordFailure(path, reg.plugin.label, 'the plugin answered without sending this file', jobOf(path));
            }
          } catch (e) {
            release?.();
            writes.flush();
            const code = errorCode(e) ?? '';
            const rest = batch.filter((j) => !delivered.has(j.path));
            if (code === PluginErrorCode.Cancelled) throw e;
            if (PLUGIN_LEVEL.has(code) || rest.length === 0) {
              stop = e as PluginError;
              for (const j of [...rest, ...queue.splice(0)]) {
                failedHere.add(j.path);
                recordFailure(j.path, reg.plugin.label, `not analyzed: ${(e as Error).message}`, j);
              }
            } else {
              // The plugin died on a file: the first one it had not sent is the suspect. It is
              // recorded failed; the others go back to the queue for the restarted plugin.
              const suspect = rest[0]!;
              failedHere.add(suspect.path);
              recordFailure(
                suspect.path,
                reg.plugin.label,
                `${code}: the plugin failed while analyzing this file (${(e as Error).message})`,
                suspect,
              );
              queue.unshift(...rest.slice(1));
            }
          }
        }
        if (stop) {
          ps.error = stop.message;
          break;
        }
      }
    } finally {
      sessions.release(m.id);
    }
    ps.failed = failedHere.size;
    ps.status = ps.failed === 0 ? 'ok' : ps.analyzed > 0 ? 'partial' : 'failed';
  };
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
    const namesAfter = store.definedNames([...jobs.keys()]);
    summary.refs = store.resolveRefs({ paths: [...jobs.keys()], names: [...new Set([...namesBefore, ...namesAfter])] });
  }
  const size = store.graphSize();
  summary.nodes = size.nodes;
  summary.edges = size.edges;
  // The run's last step: name matching is stored, every file counts as done.
  store.completeIndexRun(indexRun.id, req.commit ? { commit: req.commit } : {});
  summary.durationMs = Math.round(performance.now() - t0);
  return summary;
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : name;
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
