import type { FileResult, LogFunction } from '@travsr/sdk';
import type { PhaseAFile } from './worker/worker-protocol.js';

/** What runs Phase A of files already read: the analysis worker, or this thread. */
export type PhaseARunner = (files: readonly PhaseAFile[]) => AsyncIterable<FileResult> | Iterable<FileResult>;

/**
 * Phase A of a request's files on the worker, when there is one, else on this thread. Phase A
 * does not need the worker: if it dies (or fails the request) midway, the files it has not
 * reported run on this thread, and the next request starts a new worker.
 */
export async function* phaseAOfRequest(
  files: readonly PhaseAFile[],
  onWorker: PhaseARunner | undefined,
  onThisThread: PhaseARunner,
  ctx: { signal: AbortSignal; log: LogFunction },
): AsyncIterable<FileResult> {
  if (!onWorker) {
    yield* onThisThread(files);
    return;
  }
  const reported = new Set<string>();
  try {
    for await (const result of onWorker(files)) {
      reported.add(result.path);
      yield result;
    }
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    ctx.log('warn', `${(e as Error).message}; Phase A of the remaining files runs on the main thread`);
    yield* onThisThread(files.filter((f) => !reported.has(f.path)));
  }
}
