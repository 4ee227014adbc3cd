// The analysis half of the plugin, bundled on its own as CommonJS (dist/analysis.cjs) with the
// TypeScript compiler, and loaded with `requireBundle` from the V8 code caches the build stores
// next to it (Node 20 compiles an ES module from source at every start; the compiler's 7 MB took
// a good part of every session's start-up). It serves the analysis worker thread
// (dist/analysis-worker.js) and Phase A on the main thread for a session that runs no worker.
// The protocol half (main.ts) loads it only when it needs it, so the handshake does not wait
// for the compiler to load.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import type { FileResult } from '@travsr/sdk';
import { phaseAResult } from './phase-a.js';
import { parseSource } from './syntax.js';
import { warmUp } from './warm-up.js';
import { AnalysisWorker } from './worker/analysis-worker.js';
import type { AnalysisWorkerData, PhaseAFile } from './worker/worker-protocol.js';

/** Serves the analysis worker thread's requests (never returns). */
export function runAnalysisWorker(data: AnalysisWorkerData, port: MessagePort): Promise<never> {
  return new AnalysisWorker(data, port).run();
}

/** Phase A of files already read, on the calling thread (no program is kept). */
export function* phaseAOnThisThread(files: readonly PhaseAFile[], info: { root: string; corpus: string }): Iterable<FileResult> {
  for (const f of files) yield phaseAResult(f, info.corpus, () => parseSource(join(info.root, f.path), f.text));
}

/** What the build runs before storing the code caches: both phases over a small repository (libraries next to the bundle). */
export function warmCodeCache(): void {
  warmUp(dirname(fileURLToPath(import.meta.url)));
}
