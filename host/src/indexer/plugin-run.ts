import type { GraphFileParams } from '@travsr/protocol';
import type { Logger } from '../log/logger.js';
import { PluginError, PluginErrorCode, errorCode } from '../plugins/errors.js';
import type { GraphStore } from '../store/index.js';
import type { ChangePlan, Job } from './change-plan.js';
import { FileWriteBatch } from './file-write-batch.js';
import type { IndexSummary, PluginSummary } from './index-summary.js';
import type { RegisteredPlugin } from '../catalog/registered-plugins.js';
import { runPhases, type PluginSessions } from './plugin-sessions.js';
import type { RunFailures } from './run-failures.js';
import type { TextIndexQueue } from './text-index-queue.js';

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

/** One analyze request of a plugin's part of a run: a phase and the files of one batch. */
interface BatchRequest {
  phase: 'A' | 'B';
  batch: Job[];
}

/** A request sent and not yet answered, with what storing its files needs. */
interface InFlight extends BatchRequest {
  delivered: Set<string>;
  jobOf: (path: string) => Job | undefined;
  writes: FileWriteBatch;
  /** Records a file of the run as failed, through this request's writes. */
  fail: (job: Job, reason: string) => void;
  outcome: Promise<{ missing: string[] }>;
  release: (() => void) | undefined;
}

/**
 * The requests of one plugin's part of a run, phase by phase and batch by batch. A phase's
 * files are chosen when its first batch is asked for — after every answer of the phase before
 * arrived — so that a file that failed there is not asked for again.
 */
export class RequestQueue {
  private phaseAt = -1;
  private queue: Job[] = [];

  constructor(
    private readonly phases: readonly ('A' | 'B')[],
    private readonly files: readonly Job[],
    private readonly phasesOf: (path: string) => readonly ('A' | 'B')[],
    private readonly failed: ReadonlySet<string>,
    private readonly batchSize: number,
  ) {}

  /** The next request, or undefined when every phase is done. */
  next(): BatchRequest | undefined {
    while (this.queue.length === 0) {
      if (this.phaseAt + 1 >= this.phases.length) return undefined;
      const phase = this.phases[++this.phaseAt]!;
      this.queue = this.files.filter((f) => !this.failed.has(f.path) && this.phasesOf(f.path).includes(phase));
    }
    return { phase: this.phases[this.phaseAt]!, batch: this.queue.splice(0, Math.max(1, this.batchSize)) };
  }

  /** Puts files back at the head of the current phase (for a restarted plugin). */
  requeue(jobs: readonly Job[]): void {
    this.queue.unshift(...jobs);
  }

  /** Ends the run of this plugin: the files left in the current phase (later phases are never asked for). */
  abandonPhase(): Job[] {
    this.phaseAt = this.phases.length;
    return this.queue.splice(0);
  }
}

/** What one plugin's part of an index run shares with the rest of the run. */
export interface PluginRunContext {
  store: GraphStore;
  sessions: PluginSessions;
  summary: IndexSummary;
  texts: TextIndexQueue;
  failures: RunFailures;
  plan: Pick<ChangePlan, 'stored' | 'textUnchanged'>;
  /** Run Phase B; false: Phase A only. */
  semantic: boolean;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Files per analyze request. */
  batchSize: number;
  /** A file was analyzed (its first phase stored), for the progress line. */
  onAnalyzed: (pluginId: string) => void;
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
  const { stored, textUnchanged } = ctx.plan;
  const m = reg.plugin.manifest;
  const phases = runPhases(m, ctx.semantic);
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
  ctx.summary.plugins.push(ps);
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
        for (const u of skipped) ctx.logger.log('info', `[${reg.plugin.label}] phase ${u.phase} not run: ${u.reason}`);
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
    const requests = new RequestQueue(run, files, phasesOf, failedHere, ctx.batchSize);
    /** Sends one batch; its files are stored as they stream in (in transactions of a few). */
    const send = ({ phase, batch }: BatchRequest): InFlight => {
      const delivered = new Set<string>();
      const byPath = new Map(batch.map((j) => [j.path, j]));
      const jobOf = (path: string) => byPath.get(path);
      // Counted once stored: a file the store refuses is a failure, never an analyzed file.
      const writes = new FileWriteBatch(store, {
        onStored: (written) => {
          const analyzed = written.filter((i) => i.status === 'ok' && phase === firstPhase(i.path));
          ps.analyzed += analyzed.length;
          analyzed.forEach(() => ctx.onAnalyzed(m.id));
          texts.add(analyzed.filter((i) => !textUnchanged.has(i.path)).map((i) => i.path));
        },
        onRefused: (input, error) => {
          failedHere.add(input.path);
          failures.record(input.path, reg.plugin.label, error.message);
        },
      });
      /** Records a file of this batch as failed: in the store (through the batch) and in the summary. */
      const fail = (job: Job, reason: string) => {
        failedHere.add(job.path);
        failures.record(job.path, reg.plugin.label, reason);
        writes.fail({ path: job.path, sha256: job.sha256, language: job.language, plugin: reg.plugin.label, phase, reason });
      };
      const onFile = (f: GraphFileParams) => {
        const job = jobOf(f.path)!;
        delivered.add(f.path);
        // A file whose earlier phase the store refused (found while this request was out) stays failed.
        if (failedHere.has(f.path)) return;
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
          failures.record(f.path, reg.plugin.label, f.diagnostics[0]?.message ?? 'the plugin reported a failure');
        }
      };
      // A structural pass streams files as fast as the host stores them: text indexing waits.
      const release = phase === 'A' ? texts.hold() : undefined;
      const outcome = sup.analyze(
        { phase, files: batch.map((j) => ({ path: j.path, language: j.language })) },
        { onFile },
        ctx.signal ? { signal: ctx.signal } : {},
      );
      // Awaited below; until then a failure must not count as unhandled.
      outcome.catch(() => undefined);
      return { phase, batch, delivered, jobOf, writes, fail, outcome, release };
    };
    const cancelled = () => new PluginError(PluginErrorCode.Cancelled, 'indexing was cancelled');
    let next = requests.next();
    if (next && ctx.signal?.aborted) throw cancelled();
    let inFlight = next ? send(next) : undefined;
    while (inFlight) {
      const { batch, delivered, jobOf, writes, fail, outcome, release } = inFlight;
      try {
        const out = await outcome;
        release?.();
        for (const path of out.missing) fail(jobOf(path)!, 'the plugin answered without sending this file');
        // The next request goes out before this one's files are stored, so that the plugin
        // works while the host writes (after one turn of the event loop the request is on its
        // way: its files then arrive after these are stored).
        next = requests.next();
        if (next && ctx.signal?.aborted) {
          writes.flush();
          throw cancelled();
        }
        const following = next ? send(next) : undefined;
        if (following) await new Promise((resolve) => setImmediate(resolve));
        writes.flush();
        inFlight = following;
      } catch (e) {
        release?.();
        const code = errorCode(e) ?? '';
        const rest = batch.filter((j) => !delivered.has(j.path));
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
        next = requests.next();
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
