import type { FileGraphInput, GraphStore, StoreError } from '../store/index.js';

/** Files buffered before one commit. Large enough to amortize the commit, small enough that
 * a crash loses little work and the plugin's stream is not held up for long. */
export const DEFAULT_FILES_PER_COMMIT = 64;
/** A slow plugin's files are committed at least this often, so a killed run loses little. */
export const MAX_COMMIT_DELAY_MS = 250;

/**
 * Buffers analyzed files and stores them with {@link GraphStore.replaceFiles}, one
 * transaction per `size` files or per {@link MAX_COMMIT_DELAY_MS}, whichever comes first. Writing a file per transaction made the store, not the
 * plugins, the bottleneck of a full index; per-file atomicity is kept by savepoints.
 * `onRejected` hears of each file the store refused (bad input), `onStored` of the files it
 * stored, after each flush.
 */
export class FileWriteBatch {
  private pending: FileGraphInput[] = [];
  private firstPendingAt = 0;

  constructor(
    private readonly store: GraphStore,
    private readonly onRejected: (input: FileGraphInput, error: StoreError) => void,
    private readonly size = DEFAULT_FILES_PER_COMMIT,
    private readonly onStored?: (inputs: FileGraphInput[]) => void,
  ) {}

  /** Queues one file; flushes when the batch is full. */
  add(input: FileGraphInput): void {
    if (this.pending.length === 0) this.firstPendingAt = performance.now();
    this.pending.push(input);
    if (this.pending.length >= this.size || performance.now() - this.firstPendingAt >= MAX_COMMIT_DELAY_MS) this.flush();
  }

  /** Stores everything queued. Call before reading the store or recording failures. */
  flush(): void {
    if (this.pending.length === 0) return;
    const inputs = this.pending;
    this.pending = [];
    const results = this.store.replaceFiles(inputs);
    const stored: FileGraphInput[] = [];
    results.forEach((r, i) => {
      if ('code' in r) this.onRejected(inputs[i]!, r);
      else stored.push(inputs[i]!);
    });
    this.onStored?.(stored);
  }
}
