import type { FileGraphInput, GraphStore, StoreError } from '../store/index.js';

/**
 * Files stored per commit (one turn of the event loop). Enough to amortize the commit (cheap in
 * WAL mode); few enough that reading the plugin's stream waits little for one: with 64, the
 * answer ending clap's Phase A waited ~100 ms behind commits; with 16, `travsr init` of clap
 * took ~3 % less (tokio and Django: unchanged or faster).
 */
export const DEFAULT_FILES_PER_COMMIT = 16;
/** A slow plugin's files are committed at least this often, so a killed run loses little. */
export const MAX_COMMIT_DELAY_MS = 250;
/** Files waiting to be stored past which `add` stores them at once (a plugin faster than the store). */
export const MAX_PENDING_FILES = 1024;

/** What a {@link FileWriteBatch} tells its owner after each flush. */
export interface FileWriteEvents {
  /** The files stored as given (analyses and failures alike), in order. */
  onStored?(inputs: FileGraphInput[]): void;
  /** A file whose analysis the store refused (bad input): it was stored as failed instead, with the store's reason. */
  onRefused?(input: FileGraphInput, error: StoreError): void;
}

/** What a file that failed needs to be recorded: the job's identity and the reason. */
export interface FailedFile {
  path: string;
  sha256: string;
  language: string;
  plugin: string;
  phase: 'A' | 'B';
  reason: string;
  /** The diagnostic code (default ANALYSIS_FAILED). */
  code?: string;
}

/** The store input that records a file as failed (its older graph stays; the next run retries it). */
export function failedFileInput(f: FailedFile): FileGraphInput {
  return {
    path: f.path,
    sha256: f.sha256,
    language: f.language,
    phase: f.phase,
    plugin: f.plugin,
    status: 'failed',
    nodes: [],
    edges: [],
    refs: [],
    diagnostics: [{ severity: 'error', code: f.code ?? 'ANALYSIS_FAILED', message: f.reason }],
  };
}

/**
 * The one way an index run writes a file's outcome to the store: its analysis, or its failure
 * (sent by the plugin, never sent, or refused by the store). Files are buffered and stored
 * with {@link GraphStore.replaceFiles}, one transaction per `size` files or per
 * {@link MAX_COMMIT_DELAY_MS}, whichever comes first. Writing a file per transaction made the
 * store, not the plugins, the bottleneck of a full index; per-file atomicity is kept by savepoints.
 *
 * Those commits run on a later turn of the event loop, `size` files per turn, so that the host
 * reads what the plugin sends ahead of storing it: the answer that ends a request is seen, and
 * the next request sent, without waiting for every file before it to be stored (the plugin
 * waited ~100 ms for that between Phase A and Phase B of clap). Past
 * {@link MAX_PENDING_FILES} waiting, `add` stores at once: the plugin's stream waits, not memory.
 * {@link flush} stores everything waiting.
 */
export class FileWriteBatch {
  private pending: FileGraphInput[] = [];
  private firstPendingAt = 0;
  /** The turn of the event loop that commits the next `size` files, when one is due. */
  private scheduled: NodeJS.Immediate | undefined;
  /** What a scheduled commit threw: thrown by the next {@link flush}. */
  private deferredError: Error | undefined;

  constructor(
    private readonly store: GraphStore,
    private readonly events: FileWriteEvents = {},
    private readonly size = DEFAULT_FILES_PER_COMMIT,
  ) {}

  /** Queues one file; flushes when the batch is full. */
  add(input: FileGraphInput): void {
    if (this.pending.length === 0) this.firstPendingAt = performance.now();
    this.pending.push(input);
    if (this.pending.length >= MAX_PENDING_FILES) this.flush();
    else if (this.due()) this.schedule();
  }

  /** Queues a file's failure (see {@link failedFileInput}). */
  fail(f: FailedFile): void {
    this.add(failedFileInput(f));
  }

  /** Stores every file waiting: call before reading the store. Throws what a scheduled commit threw. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.throwIfFailed();
    this.commit(this.pending.length);
  }

  /** Throws (once) what a commit on a later turn of the event loop threw: the store failed, the run must not go on as if it had not. */
  throwIfFailed(): void {
    if (this.deferredError === undefined) return;
    const e = this.deferredError;
    this.deferredError = undefined;
    throw e;
  }

  /** A commit is due: `size` files wait, or the first has waited {@link MAX_COMMIT_DELAY_MS}. */
  private due(): boolean {
    return this.pending.length >= this.size || (this.pending.length > 0 && performance.now() - this.firstPendingAt >= MAX_COMMIT_DELAY_MS);
  }

  private schedule(): void {
    if (this.scheduled || this.deferredError !== undefined) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      try {
        this.commit(Math.min(this.size, this.pending.length));
      } catch (e) {
        this.deferredError = e instanceof Error ? e : new Error(String(e));
        return;
      }
      if (this.due()) this.schedule();
    });
    // Nothing waits for it but the run, which flushes before it ends.
    this.scheduled.unref();
  }

  /** Stores the first `count` files waiting, in one transaction. */
  private commit(count: number): void {
    if (count === 0) return;
    // The files left keep the first one's time: none waits past MAX_COMMIT_DELAY_MS for it.
    const inputs = this.pending.splice(0, count);
    const results = this.store.replaceFiles(inputs);
    const stored: FileGraphInput[] = [];
    const refused: [FileGraphInput, StoreError][] = [];
    results.forEach((r, i) => {
      if ('code' in r) refused.push([inputs[i]!, r]);
      else stored.push(inputs[i]!);
    });
    // Recorded failed instead (the phase the store may have refused is not repeated: a
    // failure has none). A path the store refuses even then has nowhere to be recorded.
    if (refused.length > 0)
      this.store.replaceFiles(
        refused.map(([input, error]) =>
          failedFileInput({
            path: input.path,
            sha256: input.sha256,
            language: input.language,
            plugin: input.plugin,
            phase: 'A',
            reason: error.message,
            code: error.code,
          }),
        ),
      );
    this.events.onStored?.(stored);
    for (const [input, error] of refused) this.events.onRefused?.(input, error);
  }
}
