import type { FileGraphInput, GraphStore, StoreError } from '../store/index.js';

/** Files buffered before one commit. Large enough to amortize the commit, small enough that
 * a crash loses little work and the plugin's stream is not held up for long. */
export const DEFAULT_FILES_PER_COMMIT = 64;
/** A slow plugin's files are committed at least this often, so a killed run loses little. */
export const MAX_COMMIT_DELAY_MS = 250;

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
 */
export class FileWriteBatch {
  private pending: FileGraphInput[] = [];
  private firstPendingAt = 0;

  constructor(
    private readonly store: GraphStore,
    private readonly events: FileWriteEvents = {},
    private readonly size = DEFAULT_FILES_PER_COMMIT,
  ) {}

  /** Queues one file; flushes when the batch is full. */
  add(input: FileGraphInput): void {
    if (this.pending.length === 0) this.firstPendingAt = performance.now();
    this.pending.push(input);
    if (this.pending.length >= this.size || performance.now() - this.firstPendingAt >= MAX_COMMIT_DELAY_MS) this.flush();
  }

  /** Queues a file's failure (see {@link failedFileInput}). */
  fail(f: FailedFile): void {
    this.add(failedFileInput(f));
  }

  /** Stores everything queued. Call before reading the store. */
  flush(): void {
    if (this.pending.length === 0) return;
    const inputs = this.pending;
    this.pending = [];
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
