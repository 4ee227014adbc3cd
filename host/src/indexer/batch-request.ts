import type { GraphFileParams } from '@travsr/protocol';
import type { PluginSupervisor } from '../plugins/supervisor.js';
import type { GraphStore } from '../store/index.js';
import type { Job } from './change-plan.js';
import { FileWriteBatch } from './file-write-batch.js';
import type { PluginSummary } from './index-summary.js';
import type { BatchRequest } from './request-queue.js';
import type { RunFailures } from './run-failures.js';
import type { TextIndexQueue } from './text-index-queue.js';

/** What every request of one plugin's part of a run shares. */
export interface PluginBatchRun {
  store: GraphStore;
  supervisor: PluginSupervisor;
  /** The plugin, `id@version`. */
  label: string;
  summary: PluginSummary;
  texts: TextIndexQueue;
  failures: RunFailures;
  /** Files of this plugin that failed in this run (any phase). */
  failed: Set<string>;
  /** Dependents whose text is unchanged: their text index stays. */
  textUnchanged: ReadonlySet<string>;
  /** The first phase a file runs in this run (where it counts as analyzed). */
  firstPhase: (path: string) => 'A' | 'B' | undefined;
  /** The last phase of the run: a file stored in it is done. */
  lastPhase: 'A' | 'B';
  /** A file was analyzed (its first phase stored). */
  onAnalyzed: () => void;
  /** A file's first phase of this run arrived analyzed, with the interface the plugin sent (protocol SPEC §9.11). */
  onFirstPhase?: (path: string, iface: GraphFileParams['interface']) => void;
  signal?: AbortSignal | undefined;
  /** The signal of later-phase (Phase B) requests: the run's, and the caller's putting them off (`deferLaterPhases`). */
  laterPhaseSignal?: AbortSignal | undefined;
}

/** A request sent and not yet answered, with what storing its files needs. */
export interface InFlight extends BatchRequest {
  /** The files the plugin sent so far. */
  delivered: Set<string>;
  jobOf: (path: string) => Job | undefined;
  writes: FileWriteBatch;
  /** Records a file of the run as failed, through this request's writes (stored at the next flush). */
  fail: (job: Job, reason: string) => void;
  outcome: Promise<{ missing: string[] }>;
  /** Lets text indexing run again (held during a Phase A request). */
  release: (() => void) | undefined;
}

/**
 * Sends one batch to the plugin. Its files are stored as they stream in, in transactions of a
 * few, through one {@link FileWriteBatch} — analyses and failures alike — and counted as
 * analyzed once stored. The caller awaits `outcome`, then flushes `writes`.
 */
export function sendBatch(run: PluginBatchRun, request: BatchRequest): InFlight {
  const { phase, batch } = request;
  const { failed, failures, label } = run;
  const delivered = new Set<string>();
  const byPath = new Map(batch.map((j) => [j.path, j]));
  const jobOf = (path: string) => byPath.get(path);
  // Counted once stored: a file the store refuses is a failure, never an analyzed file.
  const writes = new FileWriteBatch(run.store, {
    onStored: (written) => {
      const analyzed = written.filter((i) => i.status === 'ok' && phase === run.firstPhase(i.path));
      run.summary.analyzed += analyzed.length;
      analyzed.forEach(() => run.onAnalyzed());
      run.texts.add(analyzed.filter((i) => !run.textUnchanged.has(i.path)).map((i) => i.path));
    },
    onRefused: (input, error) => {
      failed.add(input.path);
      failures.record(input.path, label, error.message);
    },
  });
  const fail = (job: Job, reason: string) => {
    failed.add(job.path);
    failures.record(job.path, label, reason);
    writes.fail({ path: job.path, sha256: job.sha256, language: job.language, plugin: label, phase, reason });
  };
  const onFile = (f: GraphFileParams) => {
    if (phase === 'A') run.texts.traffic();
    const job = jobOf(f.path)!;
    delivered.add(f.path);
    // A file whose earlier phase the store refused (found while this request was out) stays failed.
    if (failed.has(f.path)) return;
    writes.add({
      path: f.path,
      sha256: job.sha256,
      lines: job.lines,
      language: job.language,
      phase,
      plugin: label,
      status: f.status,
      nodes: f.nodes,
      edges: f.edges,
      refs: f.refs ?? [],
      diagnostics: f.diagnostics,
      ...(f.interface ? { interface: f.interface } : {}),
      // The file's last phase in this run: it is done (name matching is redone in full
      // after an interrupted run, text by filesWithoutText).
      done: phase === run.lastPhase,
    });
    if (f.status === 'ok' && phase === run.firstPhase(f.path)) run.onFirstPhase?.(f.path, f.interface);
    if (f.status === 'failed') {
      failed.add(f.path);
      failures.record(f.path, label, f.diagnostics[0]?.message ?? 'the plugin reported a failure');
    }
  };
  // A structural pass streams files as fast as the host stores them: text indexing waits for its pauses.
  const release = phase === 'A' ? run.texts.hold() : undefined;
  const outcome = run.supervisor.analyze(
    { phase, files: batch.map((j) => ({ path: j.path, language: j.language })) },
    { onFile },
    signalOf(run, phase),
  );
  // Awaited by the caller; until then a failure must not count as unhandled.
  outcome.catch(() => undefined);
  return { ...request, delivered, jobOf, writes, fail, outcome, release };
}

/** The signal of a `phase` request: a later phase's is also aborted when the caller puts later phases off. */
function signalOf(run: PluginBatchRun, phase: 'A' | 'B'): { signal?: AbortSignal } {
  const signal = phase === 'B' && run.laterPhaseSignal ? run.laterPhaseSignal : run.signal;
  return signal ? { signal } : {};
}
