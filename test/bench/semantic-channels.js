// Benchmark `semantic` (issue 21): the query-time cost of each channel of get_context on the
// graph of effect@3, with the test models of plugins/model-onnx served as real model plugins
// (sandboxed sidecars, as `travsr model add` makes them): the lexical and graph channels alone;
// the vector channel (the question embedded through the warm sidecar, then the cosine search over
// every definition's vector, then the answer); the reranker (a first answer, its 20 best
// definitions scored by the cross-encoder sidecar, the answer again in its order). Also `travsr
// embed` end to end: definitions per second through the sidecar into the store, and a second run
// with nothing changed. A real model's layers cost more per token than the test models'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  crossEncoderDir,
  crossEncoderWeights,
  embedderDir,
  embedderWeights,
} from '../../plugins/model-onnx/dist/testing/model-fixtures.js';
import { log, percentile, repoRoot, row, sandboxAvailable, skipRow } from './common.js';
import { effectGraph, questions } from './context-latency.js';

export const name = 'semantic';
export const title = 'semantic layer: cost per channel';

const dist = (p) => pathToFileURL(join(repoRoot, 'host', 'dist', p)).href;
const QUERIES = 30;
const RUNNER = join(repoRoot, 'plugins', 'model-onnx', 'dist', 'runner');

export async function run() {
  if (!sandboxAvailable()) return [skipRow(title, 'bwrap is not usable here: model plugins cannot run')];
  const { repo, label } = await effectGraph();
  const home = mkdtempSync(join(tmpdir(), 'travsr-bench-semantic-'));
  const previousHome = process.env.TRAVSR_HOME;
  process.env.TRAVSR_HOME = home;
  const [
    { GraphStore },
    { CodeGraph },
    { runTool },
    { FULL_ACCESS },
    { addModel },
    { ModelClient },
    { embedDefinitions },
    { SemanticLayer },
    { servedRepos, shortlistOf },
    { silentLogger },
  ] = await Promise.all(
    [
      'store/index.js',
      'retrieval/code-graph.js',
      'tools/tool-runner.js',
      'retrieval/access-policy.js',
      'models/model-catalog.js',
      'models/model-client.js',
      'models/embed-definitions.js',
      'models/semantic-layer.js',
      'models/semantic-repos.js',
      'log/logger.js',
    ].map((p) => import(dist(p))),
  );
  const store = GraphStore.open(join(repo, '.travsr', 'graph.db'));
  const rows = [];
  try {
    // `travsr embed` end to end, 64 dimensions.
    const { model } = await addModel(embedderDir(embedderWeights(64), { max_tokens: 128 }), { runnerDir: RUNNER });
    log(`semantic: embedding ${label} through the sidecar…`);
    const client = await ModelClient.start(model, { logger: silentLogger });
    let first;
    let again;
    try {
      first = await embedDefinitions(store, repo, client);
      again = await embedDefinitions(store, repo, client);
    } finally {
      await client.stop();
    }
    rows.push(
      row(
        title,
        `${label}: travsr embed, ${first.embedded.toLocaleString('en-US')} definitions (64 dimensions, through the sandboxed sidecar)`,
        first.embedded / (first.durationMs / 1000),
        'definitions/s',
      ),
      row(
        title,
        `${label}: travsr embed again, nothing changed (${again.unchanged.toLocaleString('en-US')} unchanged)`,
        again.durationMs,
        'ms',
      ),
    );
    await addModel(crossEncoderDir(crossEncoderWeights('cache', 0)), { runnerDir: RUNNER });

    const cg = new CodeGraph(repo, store, 'bench.travsr.dev/effect');
    const host = { graphs: [cg], saveTrace: () => undefined };
    const repos = servedRepos([cg]);
    const qs = questions(store, QUERIES, 13);
    const ask = (q, extras) => runTool(host, 'get_context', { query: q }, FULL_ACCESS, extras);
    ask(qs[0], {}); // snapshot, k-core shells
    const lexical = qs.map((q) => timed(() => ask(q, {})).ms);

    // The vector channel alone (no reranker registered yet): the layer embeds, the tool searches.
    const { removeModel } = await import(dist('models/model-catalog.js'));
    removeModel('rerank');
    const vector = await channelTimes(new SemanticLayer(silentLogger), qs, repos, ask, shortlistOf);
    await addModel(crossEncoderDir(crossEncoderWeights('cache', 0)), { runnerDir: RUNNER });
    removeModel('embed');
    const rerank = await channelTimes(new SemanticLayer(silentLogger), qs, repos, ask, shortlistOf);
    rows.push(
      row(title, `${label}: lexical + graph channels, get_context p50 (${QUERIES} questions)`, percentile(lexical, 50), 'ms'),
      row(
        title,
        `${label}: + vector channel, whole call p50 (${first.embedded.toLocaleString('en-US')} vectors)`,
        percentile(vector.total, 50),
        'ms',
      ),
      row(title, `${label}: vector channel — the question embedded by the warm sidecar, p50`, percentile(vector.model, 50), 'ms'),
      row(title, `${label}: vector channel — cosine search and mapping, p50 (exact scan)`, percentile(vector.search, 50), 'ms'),
      row(title, `${label}: + reranker, whole call p50 (two answers, 20 candidates scored)`, percentile(rerank.total, 50), 'ms'),
      row(title, `${label}: reranker — 20 candidates scored by the warm cross-encoder sidecar, p50`, percentile(rerank.model, 50), 'ms'),
      row(title, `${label}: first call with a model: sidecar start (sandbox, model load) + call`, vector.firstMs, 'ms'),
    );
  } finally {
    store.close();
    if (previousHome === undefined) delete process.env.TRAVSR_HOME;
    else process.env.TRAVSR_HOME = previousHome;
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

/** Every question through the layer: whole call, model time and (vector) search time, after a first call that starts the sidecar. */
async function channelTimes(layer, qs, repos, ask, shortlistOf) {
  const out = { total: [], model: [], search: [], firstMs: 0 };
  try {
    const call = (q) =>
      layer.call('get_context', { query: q }, repos, {
        answer: async (extras) => ask(q, extras),
        shortlist: async (extras) => shortlistOf(ask(q, extras).structured),
      });
    const t0 = performance.now();
    await call(qs[0]);
    out.firstMs = performance.now() - t0;
    for (const q of qs) {
      const s = performance.now();
      const r = await call(q);
      out.total.push(performance.now() - s);
      const sem = r.structured.semantic;
      if (sem?.vector?.note || sem?.rerank?.note)
        throw new Error(`the semantic layer did not run: ${sem.vector?.note ?? sem.rerank?.note}`);
      if (sem?.vector) out.search.push(sem.vector.ms);
      if (sem?.rerank) out.model.push(sem.rerank.ms);
    }
    // The embedding's own time: the whole call less the answer without the layer is not exact; time it directly.
    if (out.model.length === 0) {
      const { WarmModel } = await import(dist('models/warm-model.js'));
      const { silentLogger } = await import(dist('log/logger.js'));
      const warm = new WarmModel('embed', silentLogger);
      const model = await warm.registered();
      await warm.use(model, (c) => c.embed([qs[0]], { timeoutMs: 10_000 }));
      for (const q of qs) {
        const s = performance.now();
        await warm.use(model, (c) => c.embed([q], { timeoutMs: 10_000 }));
        out.model.push(performance.now() - s);
      }
      await warm.close();
    }
  } finally {
    await layer.close();
  }
  return out;
}
