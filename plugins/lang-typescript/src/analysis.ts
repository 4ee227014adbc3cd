// The analysis half of the plugin, bundled on its own (dist/analysis.js) with the TypeScript
// compiler: the entry of the analysis worker thread, and Phase A on the main thread for a
// session that runs no worker. The protocol half (main.ts) loads it only when it needs it, so
// the handshake does not wait for the compiler to load.
import { join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { FileResult } from '@travsr/sdk';
import { phaseAResult } from './phase-a.js';
import { parseSource } from './syntax.js';
import { AnalysisWorker } from './worker/analysis-worker.js';
import type { AnalysisWorkerData, PhaseAFile } from './worker/worker-protocol.js';

if (!isMainThread && (workerData as AnalysisWorkerData | undefined)?.role === 'analysis' && parentPort) {
  await new AnalysisWorker(workerData as AnalysisWorkerData, parentPort).run();
}

/** Phase A of files already read, on the calling thread (no program is kept). */
export function* phaseAOnThisThread(files: readonly PhaseAFile[], info: { root: string; corpus: string }): Iterable<FileResult> {
  for (const f of files) yield phaseAResult(f, info.corpus, () => parseSource(join(info.root, f.path), f.text));
}
