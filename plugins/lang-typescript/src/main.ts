// Entry point of the TypeScript/JavaScript analyzer: Phase A per file from the compiler's
// parser on the main thread, Phase B over the whole program with the type checker on a worker
// thread that starts checking the files Phase A sees while Phase A still runs. The SDK does
// the protocol; this same file is the worker's entry (workerData.role === 'phase-b').
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { log, runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { analyzePhaseA } from './phase-a.js';
import { PhaseBClient } from './phase-b/phase-b-client.js';
import { PhaseBWorker } from './phase-b/phase-b-worker.js';
import type { PhaseBWorkerData } from './phase-b/worker-protocol.js';
import { parseSource } from './syntax.js';

// The build copies TypeScript's lib.*.d.ts next to the bundle: dist/.
const libDir = dirname(fileURLToPath(import.meta.url));

if (!isMainThread && (workerData as PhaseBWorkerData | undefined)?.role === 'phase-b' && parentPort) {
  await new PhaseBWorker(workerData as PhaseBWorkerData, parentPort).run();
} else {
  // One Phase B worker per session (one repository root and corpus).
  let phaseB: PhaseBClient | undefined;
  const client = (info: { root: string; corpus: string }) =>
    (phaseB ??= new PhaseBClient(new URL(import.meta.url), { root: info.root, corpus: info.corpus, libDir }, (level, message) =>
      log(level, message),
    ));

  await runAnalyzer({
    id: manifest.id,
    version: manifest.version,
    languages: manifest.languages,
    phases: manifest.phases,
    initialize(session) {
      // Phase B will be asked for: start checking as soon as Phase A hands over files.
      if (session.phases.includes('B')) client(session).start();
    },
    analyzeFile(file, ctx) {
      const result = analyzePhaseA(file, ctx.graph, parseSource(join(ctx.root, file.path), file.text));
      phaseB?.prefetch(file);
      return result;
    },
    analyze(files, ctx) {
      return client(ctx).analyze(files, ctx.signal);
    },
    shutdown: () => phaseB?.close(),
  });
}
