import type { Logger } from '../log/logger.js';
import { PluginError, PluginErrorCode, errorCode } from '../plugins/errors.js';
import type { GraphStore } from '../store/index.js';
import { rereadsStoredGraph, type ChangePlan, type Job } from './change-plan.js';
import type { IndexSummary, PluginSummary } from './index-summary.js';
import type { RegisteredPlugin } from '../catalog/registered-plugins.js';
import type { PluginSessions, StartedPlugin } from './plugin-sessions.js';
import { RequestQueue, type BatchRequest } from './request-queue.js';
import { sendBatch, type InFlight, type PluginBatchRun } from './batch-request.js';
import type { RunFailures } from './run-failures.js';
import type { TextIndexQueue } from './text-index-queue.js';
import { DependentScope } from './dependent-scope.js';

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

/** What one plugin's part of an index run shares with the rest of the run. */
export interface PluginRunContext {
  store: GraphStore;
  sessions: PluginSessions;
  summary: IndexSummary;
  texts: TextIndexQueue;
  failures: RunFailures;
  plan: Pick<ChangePlan, 'stored' | 'textUnchanged' | 'causes' | 'interfacesBefore'>;
  /** Run Phase B; false: Phase A only. */
  semantic: boolean;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Aborted: no more later-phase requests; their files go to `summary.deferred` (`IndexRequest.deferLaterPhases`). */
  deferLaterPhases?: AbortSignal | undefined;
  /** Files per analyze request. */
  batchSize: number;
  /** A file was analyzed (its first phase stored), for the progress line. */
  onAnalyzed: (pluginId: string) => void;
  /**
   * Every file of the plugin's `phase` is stored and a later phase follows: awaited before the
   * later phase is asked for. Only when the run's caller listens (`IndexRequest.onFirstPhase`).
   */
  onPhaseStored?: ((pluginId: string, phase: 'A' | 'B') => Promise<void>) | undefined;
  /**
   * The later phase of the files whose text changed is stored, ahead of their dependents'
   * (they go in a request of their own when this is set). Only when the run's caller listens
   * (`IndexRequest.onChangedResolved`).
   */
  onAheadStored?: ((pluginId: string, phase: 'A' | 'B', paths: readonly string[]) => void) | undefined;
}

/**
 * Step 4 of an index run, for one plugin: its files through each phase its session runs, in
 * batches, each file stored as it streams in. A file the plugin fails, the store refuses or the
 * plugin never sends is recorded as failed; a plugin that dies on a file is restarted (by its
 * supervisor) for the files after it, and one that cannot run at all fails the rest. Adds the
 * plugin's {@link PluginSummary} to the run's summary.
 */
export async function analyzeWithPlugin(ctx: PluginRunContext, reg: RegisteredPlugin, files: readonly Job[]): Promise<void> {
  const { store, sessions, texts, failures } = ctx;
  const { textUnchanged } = ctx.plan;
  const m = reg.plugin.manifest;
  const phases = sessions.phasesFor(reg);
  const ps: PluginSummary = {
    id: m.id,
    version: m.version,
    languages: m.languages,
    tier: sessions.tierFor(reg),
    files: files.length,
    analyzed: 0,
    failed: 0,
    phases,
    status: 'idle',
  };
  ctx.summary.plugins.push(ps);
  if (files.length === 0) return;
  const { supervisor: sup, capabilities } = sessions.start(m.id)!;
  sessions.noteFile(m.id, files[0]!);
  const failedHere = new Set<string>();
  try {
    const run = await phasesToRun(ctx, reg, phases, capabilities, ps);
    // A dependent whose text and plugin are those of its stored graph has the same Phase A
    // output as before: only the later phases, which read other files, can change (with no
    // later phase, name matching alone brings its references up to date).
    const phasesOf = (path: string): readonly ('A' | 'B')[] => (rereadsStoredGraph(ctx.plan, path, reg.plugin.label) ? run.slice(1) : run);
    const firstPhase = (path: string) => phasesOf(path)[0];
    // Those dependents go to their first phase only if what their causes changed reaches them.
    const scope = new DependentScope(store, ctx.plan, reg.plugin.label);
    const reached = (phase: 'A' | 'B', jobs: Job[]): Job[] =>
      run.length < 2 || phase !== run[1]
        ? jobs
        : jobs.filter((j) => {
            if (!textUnchanged.has(j.path) || firstPhase(j.path) !== phase || scope.affected(j.path)) return true;
            ctx.summary.dependents--;
            ctx.summary.dependentsUnaffected++;
            ps.files--;
            return false;
          });
    const requests = new RequestQueue(
      run,
      files,
      phasesOf,
      failedHere,
      ctx.batchSize,
      reached,
      ctx.onAheadStored ? (path) => !textUnchanged.has(path) : undefined,
    );
    const batchRun: PluginBatchRun = {
      store,
      supervisor: sup,
      label: reg.plugin.label,
      summary: ps,
      texts,
      failures,
      failed: failedHere,
      textUnchanged,
      firstPhase,
      lastPhase: run[run.length - 1]!,
      onAnalyzed: () => ctx.onAnalyzed(m.id),
      onFirstPhase: (path, iface) => scope.record(path, iface),
      signal: ctx.signal,
      laterPhaseSignal:
        run.length > 1 && ctx.deferLaterPhases
          ? ctx.signal
            ? AbortSignal.any([ctx.signal, ctx.deferLaterPhases])
            : ctx.deferLaterPhases
          : ctx.signal,
    };
    const send = (request: BatchRequest): InFlight => sendBatch(batchRun, request);
    const cancelled = () => new PluginError(PluginErrorCode.Cancelled, 'indexing was cancelled');
    // A later-phase request is not sent once the caller put the later phases off: its files,
    // and the rest of the phase, keep their first phase's graph and are listed as deferred.
    const defer = (jobs: readonly Job[]): void => {
      const deferred = [...jobs, ...requests.abandonPhase()].map((j) => j.path);
      (ctx.summary.deferred ??= []).push(...deferred);
      ps.deferred = (ps.deferred ?? 0) + deferred.length;
    };
    const unlessDeferred = (request: BatchRequest | undefined): BatchRequest | undefined => {
      if (!request || run.length < 2 || request.phase === run[0] || !ctx.deferLaterPhases?.aborted) return request;
      defer(request.batch);
      return undefined;
    };
    let next = unlessDeferred(requests.next());
    if (next && ctx.signal?.aborted) throw cancelled();
    let inFlight = next ? send(next) : undefined;
    while (inFlight) {
      const { phase, batch, ahead, delivered, jobOf, writes, fail, outcome, release } = inFlight;
      try {
        const out = await outcome;
        release?.();
        // A commit that failed while the files streamed in fails the run here, before another request goes out.
        writes.throwIfFailed();
        for (const path of out.missing) fail(jobOf(path)!, 'the plugin answered without sending this file');
        // The next request goes out before this one's files are stored, so that the plugin
        // works while the host writes (after one turn of the event loop the request is on its
        // way: its files then arrive after these are stored).
        next = unlessDeferred(requests.next());
        if (next && ctx.signal?.aborted) {
          writes.flush();
          throw cancelled();
        }
        if (ahead && ctx.onAheadStored) {
          // Someone waits for the changed files' resolved graph: stored and said before their dependents'.
          writes.flush();
          ctx.onAheadStored(
            m.id,
            phase,
            batch.map((j) => j.path),
          );
        }
        if (next && next.phase !== phase && ctx.onPhaseStored) {
          // Someone waits for this phase (the daemon answers at Phase A quality before Phase B
          // is done): it is stored, and said, before the next phase is asked for.
          writes.flush();
          await ctx.onPhaseStored(m.id, phase);
          // What the listener heard may be the edit that puts the later phase off.
          const later = unlessDeferred(next);
          inFlight = later ? send(later) : undefined;
          continue;
        }
        const following = next ? send(next) : undefined;
        if (following) await new Promise((resolve) => setImmediate(resolve));
        writes.flush();
        inFlight = following;
      } catch (e) {
        release?.();
        const code = errorCode(e) ?? '';
        const rest = batch.filter((j) => !delivered.has(j.path));
        if (code === PluginErrorCode.Cancelled && phase !== run[0] && ctx.deferLaterPhases?.aborted && !ctx.signal?.aborted) {
          // A later-phase request the caller put off: what the plugin sent is stored, the rest waits for the next run.
          defer(rest);
          writes.flush();
          break;
        }
        if (code === PluginErrorCode.Cancelled) {
          writes.flush();
          throw e;
        }
        if (PLUGIN_LEVEL.has(code) || rest.length === 0) {
          // Nothing more of this plugin runs: what is left of the phase fails, later phases are not asked for.
          for (const j of [...rest, ...requests.abandonPhase()]) fail(j, `not analyzed: ${(e as Error).message}`);
          writes.flush();
          ps.error = (e as Error).message;
          break;
        }
        // The plugin died on a file: the first one it had not sent is the suspect. It is
        // recorded failed; the others go back to the queue for the restarted plugin.
        fail(rest[0]!, `${code}: the plugin failed while analyzing this file (${(e as Error).message})`);
        writes.flush();
        requests.requeue(rest.slice(1));
        next = unlessDeferred(requests.next());
        if (next && ctx.signal?.aborted) throw cancelled();
        inFlight = next ? send(next) : undefined;
      }
    }
  } finally {
    sessions.release(m.id);
  }
  ps.failed = failedHere.size;
  ps.status = ps.failed === 0 ? 'ok' : ps.analyzed > 0 ? 'partial' : 'failed';
}

/**
 * The phases the plugin's session runs: its manifest's, less those it says it cannot run here
 * (a tool it needs is missing: logged and put in the summary). A plugin that cannot start keeps
 * its manifest's phases; its first batch then fails with the reason.
 */
async function phasesToRun(
  ctx: PluginRunContext,
  reg: RegisteredPlugin,
  phases: ('A' | 'B')[],
  capabilities: StartedPlugin['capabilities'],
  ps: PluginSummary,
): Promise<('A' | 'B')[]> {
  try {
    const caps = await capabilities;
    let run = phases.filter((p) => caps.phases.includes(p));
    if (run.length === 0) run = phases.slice(0, 1);
    const skipped = caps.unavailable.filter((u) => phases.includes(u.phase));
    if (skipped.length > 0) {
      ps.unavailable = skipped.map((u) => ({ phase: u.phase, reason: u.reason }));
      for (const u of skipped) ctx.logger.log('info', `[${reg.plugin.label}] phase ${u.phase} not run: ${u.reason}`);
    }
    ps.phases = run;
    return run;
  } catch (e) {
    if (errorCode(e) === PluginErrorCode.Cancelled) throw e;
    return phases;
  }
}
