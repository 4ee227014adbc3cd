// The retrieval layer's graph algorithms (host/dist/retrieval), in process, on a generated
// graph of 200,000 nodes and 1,000,000 edges with a power-law-ish degree: targets drawn with
// density falling as a power of the id (a few hubs with tens of thousands of callers), sources
// mildly skewed, kinds and confidences in the proportions of a real index. One PRNG seed, so
// every run measures the same graph and the same queries.
import {
  bfs,
  buildCsrGraph,
  coreNumbers,
  inducedSubgraph,
  knapsack,
  localPersonalizedPageRank,
  personalizedPageRank,
  prizeCollectingSteinerTree,
} from '../../host/dist/retrieval/index.js';
import { EDGE_KINDS } from '@travsr/protocol';
import { log, percentile, row, prng } from './common.js';

export const name = 'retrieval';
export const title = 'retrieval algorithms';

const NODES = 200_000;
const EDGES = 1_000_000;
const QUERIES = 50;
const SEEDS_PER_QUERY = 3;
const CANDIDATES = 2_000;
const ITEMS = 500;
const BUDGET = 8_000;
const PIPELINE_TARGET = '300 ms p95 for the whole query';

// Share of each edge kind and confidence in the generated graph.
const KIND_SHARES = {
  calls: 0.45,
  references: 0.2,
  contains: 0.15,
  imports: 0.08,
  types: 0.06,
  inherits: 0.02,
  implements: 0.02,
  overrides: 0.02,
};
const CONFIDENCE_SHARES = [
  [1, 0.7],
  [0.5, 0.2],
  [0.35, 0.1],
];

function pick(rand, shares) {
  let u = rand();
  for (const [value, share] of shares) {
    u -= share;
    if (u < 0) return value;
  }
  return shares[shares.length - 1][0];
}

function generateEdges(rand) {
  const kinds = Object.entries(KIND_SHARES).map(([k, share]) => [EDGE_KINDS.indexOf(k), share]);
  const edges = {
    src: new Uint32Array(EDGES),
    dst: new Uint32Array(EDGES),
    kind: new Uint8Array(EDGES),
    confidence: new Float32Array(EDGES),
  };
  // Scatter ids so that hubs are not all at the front of the arrays.
  const perm = Uint32Array.from({ length: NODES }, (_, i) => i);
  for (let i = NODES - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  for (let i = 0; i < EDGES; i++) {
    edges.src[i] = perm[Math.floor(NODES * rand() ** 1.5)];
    edges.dst[i] = perm[Math.min(NODES - 1, Math.floor(NODES * rand() ** 3))];
    edges.kind[i] = pick(rand, kinds);
    edges.confidence[i] = pick(rand, CONFIDENCE_SHARES);
  }
  return edges;
}

function time(fn) {
  const t0 = performance.now();
  const result = fn();
  return { ms: performance.now() - t0, result };
}

function median(values) {
  return percentile(values, 50);
}

export async function run() {
  const rand = prng(20240611);
  log('retrieval: generating the graph…');
  const edges = generateEdges(rand);
  const out = [];

  const builds = [0, 1, 2].map(() => time(() => buildCsrGraph(NODES, edges)));
  const graph = builds[0].result;
  let maxIn = 0;
  for (let v = 0; v < NODES; v++) maxIn = Math.max(maxIn, graph.inOffsets[v + 1] - graph.inOffsets[v]);
  out.push(
    row(title, `graph: ${NODES.toLocaleString('en-US')} nodes, ${EDGES.toLocaleString('en-US')} edges; largest in-degree`, maxIn, 'edges'),
    row(title, 'buildCsrGraph (median of 3)', median(builds.map((b) => b.ms)), 'ms'),
  );

  const queries = Array.from({ length: QUERIES }, () => Array.from({ length: SEEDS_PER_QUERY }, () => Math.floor(rand() * NODES)));

  log('retrieval: bfs…');
  for (const [direction, maxNodes] of [
    ['out', Infinity],
    ['both', 5_000],
  ]) {
    const runs = queries.map((q) => time(() => bfs(graph, [q[0]], { direction, maxDepth: 3, maxNodes })));
    const label = `bfs depth 3, direction ${direction}${maxNodes < Infinity ? `, maxNodes ${maxNodes}` : ''}`;
    out.push(
      row(title, `${label}: p50`, median(runs.map((r) => r.ms)), 'ms'),
      row(
        title,
        `${label}: p95`,
        percentile(
          runs.map((r) => r.ms),
          95,
        ),
        'ms',
      ),
      row(title, `${label}: nodes visited, median`, median(runs.map((r) => r.result.order.length)), 'nodes'),
    );
  }

  log('retrieval: power iteration…');
  const pprOpts = { direction: 'both', weighted: true };
  const power = queries.slice(0, 3).map((q) => time(() => personalizedPageRank(graph, q, pprOpts)));
  out.push(row(title, 'personalizedPageRank, power iteration, tolerance 1e-6 (median of 3)', median(power.map((p) => p.ms)), 'ms'));

  log('retrieval: local push…');
  localPersonalizedPageRank(graph, queries[0], pprOpts); // allocates the per-graph scratch arrays
  for (const epsilon of [1e-5, 1e-6]) {
    const runs = queries.map((q) => time(() => localPersonalizedPageRank(graph, q, { ...pprOpts, epsilon, limit: CANDIDATES })));
    const ms = runs.map((r) => r.ms);
    const label = `localPersonalizedPageRank, ε ${epsilon.toExponential(0)}, top ${CANDIDATES}`;
    out.push(
      row(title, `${label}: p50`, median(ms), 'ms', PIPELINE_TARGET),
      row(title, `${label}: p95`, percentile(ms, 95), 'ms', PIPELINE_TARGET),
      row(title, `${label}: pushes, median`, median(runs.map((r) => r.result.pushes)), 'pushes'),
      row(title, `${label}: shortfall to exact PPR (L1), median`, median(runs.map((r) => r.result.residual)), ''),
    );
    // Agreement with power iteration on the first queries: how many of its top 50 the push finds.
    const overlap = power.map((p, i) => {
      const exact = p.result;
      const top = [...exact.keys()].sort((a, b) => exact[b] - exact[a]).slice(0, 50);
      const found = new Set(runs[i].result.nodes.subarray(0, 50));
      return top.filter((v) => found.has(v)).length / 50;
    });
    out.push(
      row(title, `${label}: top-50 overlap with power iteration, mean of 3`, overlap.reduce((a, b) => a + b, 0) / overlap.length, ''),
    );
  }

  log('retrieval: k-core…');
  const cores = [0, 1, 2].map(() => time(() => coreNumbers(graph)));
  out.push(
    row(title, 'coreNumbers (median of 3)', median(cores.map((c) => c.ms)), 'ms'),
    row(
      title,
      'coreNumbers: largest core',
      cores[0].result.reduce((a, b) => Math.max(a, b), 0),
      '',
    ),
  );

  log('retrieval: pcst…');
  const pcstRuns = [];
  for (const q of queries.slice(0, 20)) {
    const ppr = localPersonalizedPageRank(graph, q, { ...pprOpts, limit: CANDIDATES });
    const sub = inducedSubgraph(graph, ppr.nodes);
    const prizes = ppr.scores.subarray(0, sub.nodes.length);
    // An edge costs about a mid-ranked candidate's prize, more when it was only matched by name.
    const base = prizes[Math.floor(prizes.length / 4)];
    const cost = Float64Array.from(sub.confidence, (c) => base * (2 - c));
    pcstRuns.push({
      candidates: sub.nodes.length,
      edges: sub.src.length,
      ...time(() => prizeCollectingSteinerTree(prizes, { src: sub.src, dst: sub.dst, cost })),
    });
  }
  out.push(
    row(
      title,
      `prizeCollectingSteinerTree on ${median(pcstRuns.map((r) => r.candidates))} candidates / ${median(pcstRuns.map((r) => r.edges))} edges (medians): p50`,
      median(pcstRuns.map((r) => r.ms)),
      'ms',
    ),
    row(
      title,
      'prizeCollectingSteinerTree: p95',
      percentile(
        pcstRuns.map((r) => r.ms),
        95,
      ),
      'ms',
    ),
    row(title, 'prizeCollectingSteinerTree: nodes selected, median', median(pcstRuns.map((r) => r.result.nodes.length)), 'nodes'),
  );

  log('retrieval: knapsack…');
  const exactRuns = [];
  const approxRuns = [];
  for (let i = 0; i < 20; i++) {
    const items = Array.from({ length: ITEMS }, () => ({ value: rand() ** 2, weight: 20 + Math.floor(580 * rand() ** 2) }));
    const exact = time(() => knapsack(items, BUDGET));
    const approx = time(() => knapsack(items, BUDGET, { cellLimit: 0, epsilon: 0.05 }));
    exactRuns.push(exact);
    approxRuns.push({ ...approx, ratio: approx.result.value / exact.result.value });
  }
  out.push(
    row(title, `knapsack, ${ITEMS} items, ${BUDGET.toLocaleString('en-US')} tokens, exact: p50`, median(exactRuns.map((r) => r.ms)), 'ms'),
    row(
      title,
      'knapsack exact: p95',
      percentile(
        exactRuns.map((r) => r.ms),
        95,
      ),
      'ms',
    ),
    row(title, 'knapsack forced approximate (ε 0.05): p50', median(approxRuns.map((r) => r.ms)), 'ms'),
    row(
      title,
      'knapsack approximate: worst value / exact value',
      Math.min(...approxRuns.map((r) => r.ratio)),
      '',
      '≥ 0.95',
      Math.min(...approxRuns.map((r) => r.ratio)) >= 0.95 ? 'pass' : 'FAIL',
    ),
  );
  return out;
}
