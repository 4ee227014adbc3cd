// Entry of the analysis worker thread (dist/analysis-worker.js): loads the analysis half from
// its code cache (see analysis.ts) and serves the main thread's requests.
import { parentPort, workerData } from 'node:worker_threads';
import { loadBundle } from '@travsr/sdk/code-cache';
import type * as Analysis from './analysis.js';
import type { AnalysisWorkerData, FromWorker } from './worker/worker-protocol.js';

if (!parentPort) throw new Error('analysis-worker.js runs as the analysis worker thread of the TypeScript plugin');
const t0 = performance.now();
const analysis = loadBundle<typeof Analysis>(new URL('analysis.cjs', import.meta.url));
parentPort.postMessage({
  t: 'log',
  level: 'debug',
  message: `analysis half loaded in ${Math.round(performance.now() - t0)} ms, ${analysis.cacheUsed ? 'from its code cache' : 'compiled from source (no code cache for this Node.js and these flags)'}`,
} satisfies FromWorker);
await analysis.exports.runAnalysisWorker(workerData as AnalysisWorkerData, parentPort);
