// Entry point of the TypeScript/JavaScript analyzer. When the host will ask for Phase B, both
// phases run on a worker thread: Phase A parses each file once and the type checker's
// program takes the tree over, and the worker checks files while the host stores Phase A;
// the main thread reads files and speaks the protocol meanwhile. A session that runs Phase A
// alone parses on the main thread and starts no worker. The SDK does the protocol; this same
// file is the worker's entry (workerData.role === 'analysis').
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { log, runAnalyzer, type FileResult } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { phaseAResult } from './phase-a.js';
import { readRequestFiles } from './read-files.js';
import { parseSource } from './syntax.js';
import { AnalysisWorker } from './worker/analysis-worker.js';
import { WorkerClient } from './worker/worker-client.js';
import type { AnalysisWorkerData, PhaseAFile } from './worker/worker-protocol.js';

// The build copies TypeScript's lib.*.d.ts next to the bundle: dist/.
const libDir = dirname(fileURLToPath(import.meta.url));

if (!isMainThread && (workerData as AnalysisWorkerData | undefined)?.role === 'analysis' && parentPort) {
  await new AnalysisWorker(workerData as AnalysisWorkerData, parentPort).run();
} else {
  // One worker per session (one repository root and corpus), when Phase B will be asked for.
  let worker: WorkerClient | undefined;
  const client = (info: { root: string; corpus: string }) =>
    (worker ??= new WorkerClient(new URL(import.meta.url), { root: info.root, corpus: info.corpus, libDir }, (level, message) =>
      log(level, message),
    ));
  const onMainThread = function* (files: readonly PhaseAFile[], info: { root: string; corpus: string }): Iterable<FileResult> {
    for (const f of files) yield phaseAResult(f, info.corpus, () => parseSource(join(info.root, f.path), f.text));
  };

  await runAnalyzer({
    id: manifest.id,
    version: manifest.version,
    languages: manifest.languages,
    phases: manifest.phases,
    initialize(session) {
      if (session.phases.includes('B')) client(session).start();
    },
    async *analyze(files, ctx) {
      if (ctx.phase === 'B') {
        yield* client(ctx).phaseB(files, ctx.signal);
        return;
      }
      const { read, unreadable } = await readRequestFiles(files, ctx);
      yield* unreadable;
      if (!worker) {
        yield* onMainThread(read, ctx);
        return;
      }
      const reported = new Set<string>();
      try {
        for await (const result of worker.phaseA(read, ctx.signal)) {
          reported.add(result.path);
          yield result;
        }
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        // Phase A does not need the worker: go on without it (the next request starts a new one).
        ctx.log('warn', `${(e as Error).message}; Phase A of the remaining files runs on the main thread`);
        yield* onMainThread(
          read.filter((f) => !reported.has(f.path)),
          ctx,
        );
      }
    },
    shutdown: () => worker?.close(),
  });
}
