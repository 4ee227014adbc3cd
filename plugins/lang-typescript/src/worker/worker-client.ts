import { Worker } from 'node:worker_threads';
import type { AnalyzeFile } from '@travsr/sdk';
import type { FileResult, LogFunction } from '@travsr/sdk';
import type { AnalysisWorkerData, FromWorker, PhaseAFile, ToWorker } from './worker-protocol.js';

interface Stream {
  queue: FileResult[];
  done: boolean;
  error: Error | undefined;
  wake: (() => void) | undefined;
}

/**
 * The main thread's handle on the analysis worker: starts it (once per session), sends it
 * requests, and turns its messages back into the async iterable of results the SDK's
 * `analyze` hook returns. A worker that dies fails the requests in flight with its error;
 * the next request starts a new one.
 */
export class WorkerClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly streams = new Map<number, Stream>();

  constructor(
    private readonly entry: URL,
    private readonly data: Omit<AnalysisWorkerData, 'role'>,
    private readonly log: LogFunction,
  ) {}

  /** Starts the worker now. */
  start(): void {
    if (this.worker) return;
    const worker = new Worker(this.entry, { workerData: { role: 'analysis', ...this.data } satisfies AnalysisWorkerData });
    worker.on('message', (m: FromWorker) => this.receive(m));
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const s of this.streams.values()) {
        s.error = error;
        s.wake?.();
      }
    };
    worker.on('error', (e) => fail(new Error(`the analysis worker failed: ${e.message}`)));
    worker.on('exit', (code) => fail(new Error(`the analysis worker exited (code ${code})`)));
    // The process may end while the worker waits for work.
    worker.unref();
    this.worker = worker;
  }

  private post(m: ToWorker): void {
    this.worker?.postMessage(m);
  }

  private receive(m: FromWorker): void {
    if (m.t === 'log') {
      this.log(m.level, m.message);
      return;
    }
    const s = this.streams.get(m.id);
    if (!s) return;
    if (m.t === 'result') s.queue.push(m.result);
    else if (m.t === 'done') s.done = true;
    else s.error = new Error(m.message);
    s.wake?.();
  }

  /** Tells a running worker which paths changed since the previous request (a new one reads everything anyway). */
  noteChanged(paths: readonly string[]): void {
    if (paths.length > 0) this.post({ t: 'changed', paths: [...paths] });
  }

  /** Phase A on the worker of files this thread read: it parses them once, for both phases. */
  phaseA(files: readonly PhaseAFile[], signal: AbortSignal): AsyncIterable<FileResult> {
    return this.request((id) => ({ t: 'phase-a', id, files: [...files] }), signal);
  }

  /** Phase B on the worker: one result per file, as the worker checks them (prefetched ones first). */
  phaseB(files: readonly AnalyzeFile[], signal: AbortSignal): AsyncIterable<FileResult> {
    return this.request((id) => ({ t: 'phase-b', id, files: files.map((f) => ({ path: f.path, language: f.language })) }), signal);
  }

  private async *request(message: (id: number) => ToWorker, signal: AbortSignal): AsyncIterable<FileResult> {
    this.start();
    const id = this.nextId++;
    const s: Stream = { queue: [], done: false, error: undefined, wake: undefined };
    this.streams.set(id, s);
    const onAbort = () => {
      this.post({ t: 'cancel', id });
      s.wake?.();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.post(message(id));
    try {
      for (;;) {
        while (s.queue.length > 0) yield s.queue.shift()!;
        if (s.error) throw s.error;
        if (s.done || signal.aborted) return;
        await new Promise<void>((resolve) => (s.wake = resolve));
        s.wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.streams.delete(id);
    }
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }
}
