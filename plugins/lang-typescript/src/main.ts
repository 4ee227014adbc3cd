// Entry point of the TypeScript/JavaScript analyzer: the protocol half, without the compiler.
// When the host will ask for Phase B, both phases run on a worker thread (dist/analysis-worker.js
// with dist/analysis.cjs):
// Phase A parses each file once and the type checker's program takes the tree over, and the
// worker checks files while the host stores Phase A; this thread reads files and speaks the
// protocol meanwhile. A session that runs Phase A alone starts no worker: this thread loads
// the analysis half and parses itself.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, requireBundle, runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import type * as Analysis from './analysis.js';
import { phaseAOfRequest } from './phase-a-request.js';
import { readRequestFiles } from './read-files.js';
import { WorkerClient } from './worker/worker-client.js';

// The build writes both halves and the worker's entry, and copies TypeScript's lib.*.d.ts, into dist/.
const analysisUrl = new URL('analysis.cjs', import.meta.url);
const workerUrl = new URL('analysis-worker.js', import.meta.url);
const libDir = dirname(fileURLToPath(analysisUrl));
// Loaded from its code cache on first use: the analysis half is its own file.
const analysisHalf = () => requireBundle<typeof Analysis>(analysisUrl);

// One worker per session (one repository root and corpus), when Phase B will be asked for.
let worker: WorkerClient | undefined;
const client = (info: { root: string; corpus: string }) =>
  (worker ??= new WorkerClient(workerUrl, { root: info.root, corpus: info.corpus, libDir }, (level, message) => log(level, message)));

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  // Programs are checked against the files' stamps at every request, and the projects read
  // again when a source file comes or goes: one session may serve many runs (the daemon's).
  incremental: true,
  initialize(session) {
    if (session.phases.includes('B')) client(session).start();
  },
  async *analyze(files, ctx) {
    worker?.noteChanged(ctx.changed);
    if (ctx.phase === 'B') {
      yield* client(ctx).phaseB(files, ctx.signal);
      return;
    }
    const { read, unreadable } = await readRequestFiles(files, ctx);
    yield* unreadable;
    const w = worker;
    yield* phaseAOfRequest(read, w && ((f) => w.phaseA(f, ctx.signal)), (f) => analysisHalf().phaseAOnThisThread(f, ctx), ctx);
  },
  shutdown: () => worker?.close(),
});
