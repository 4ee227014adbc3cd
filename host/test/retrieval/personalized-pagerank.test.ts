import { EDGE_KINDS, pprWeight } from '@travsr/protocol';
import { describe, expect, it } from 'vitest';
import { buildCsrGraph, type CsrGraph, type EdgeList } from '../../src/retrieval/csr-graph.js';
import { localPersonalizedPageRank, personalizedPageRank } from '../../src/retrieval/personalized-pagerank.js';
import { edgeKindMask, type Direction } from '../../src/retrieval/traversal-options.js';
import { below, graphOf, powerLawEdges, prng, randomGraph, randomVisible, withoutHidden } from './fixtures.js';

interface Model {
  alpha: number;
  direction: Direction;
  weighted: boolean;
  reverseFactor: number;
  mask: number;
  visible?: Uint8Array;
}

/**
 * PPR straight from its definition: the dense transition matrix (a dangling row jumps to the
 * seeds), then x = alpha·s + (1 − alpha)·Pᵀx solved by Gaussian elimination.
 */
function densePpr(n: number, edges: EdgeList, seeds: Map<number, number>, m: Model): number[] {
  const P = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const vis = (v: number) => m.visible === undefined || m.visible[v] === 1;
  for (let i = 0; i < edges.src.length; i++) {
    const s = edges.src[i]!;
    const d = edges.dst[i]!;
    const k = edges.kind[i]!;
    if (!((m.mask >> k) & 1) || !vis(s) || !vis(d)) continue;
    const w = m.weighted ? pprWeight(EDGE_KINDS[k]!) * edges.confidence[i]! : 1;
    if (m.direction !== 'in') P[s]![d]! += w;
    if (m.direction === 'in') P[d]![s]! += w;
    if (m.direction === 'both') P[d]![s]! += w * m.reverseFactor;
  }
  const restart = new Array<number>(n).fill(0);
  let total = 0;
  for (const [v, w] of seeds) {
    if (!vis(v)) continue;
    restart[v]! += w;
    total += w;
  }
  for (let v = 0; v < n; v++) restart[v]! /= total;
  for (const row of P) {
    const sum = row.reduce((a, b) => a + b, 0);
    for (let v = 0; v < n; v++) row[v] = sum > 0 ? row[v]! / sum : restart[v]!;
  }
  // A = I − (1 − alpha)·Pᵀ, b = alpha·restart
  const A = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r === c ? 1 : 0) - (1 - m.alpha) * P[c]![r]!));
  const b = restart.map((x) => m.alpha * x);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(A[r]![col]!) > Math.abs(A[pivot]![col]!)) pivot = r;
    [A[col], A[pivot]] = [A[pivot]!, A[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = A[r]![col]! / A[col]![col]!;
      if (f === 0) continue;
      for (let c = col; c < n; c++) A[r]![c]! -= f * A[col]![c]!;
      b[r]! -= f * b[col]!;
    }
  }
  return b.map((x, r) => x / A[r]![r]!);
}

const ALL = (1 << EDGE_KINDS.length) - 1;
const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);

/** Random model settings, cycling through every direction and both weightings. */
function modelFor(trial: number, rand: () => number, n: number): Model {
  return {
    alpha: [0.15, 0.3, 0.5][trial % 3]!,
    direction: (['out', 'in', 'both'] as const)[trial % 3]!,
    weighted: trial % 2 === 0,
    reverseFactor: trial % 4 < 2 ? 1 : 0.5,
    mask: trial % 5 === 0 ? edgeKindMask(['calls', 'imports', 'references']) : ALL,
    ...(trial % 3 === 1 ? { visible: randomVisible(rand, n, 0.25) } : {}),
  };
}

function optsOf(m: Model) {
  return {
    alpha: m.alpha,
    direction: m.direction,
    weighted: m.weighted,
    reverseFactor: m.reverseFactor,
    edgeKinds: m.mask,
    ...(m.visible ? { visible: m.visible } : {}),
  };
}

function seedsFor(rand: () => number, n: number): Map<number, number> {
  const seeds = new Map<number, number>();
  for (let i = 0; i < 3; i++) seeds.set(below(rand, n), 0.5 + rand());
  return seeds;
}

describe('personalizedPageRank (power iteration)', () => {
  it('matches the dense-matrix solution on small random graphs, in every transition model', () => {
    const rand = prng(3);
    for (let trial = 0; trial < 60; trial++) {
      const n = 2 + below(rand, 25);
      const { graph, edges } = randomGraph(rand, n, below(rand, 4 * n));
      const m = modelFor(trial, rand, n);
      const seeds = seedsFor(rand, n);
      if (m.visible) for (const s of seeds.keys()) m.visible[s] = 1;
      const got = personalizedPageRank(graph, seeds, { ...optsOf(m), tolerance: 1e-14, maxIterations: 10_000 });
      const want = densePpr(n, edges, seeds, m);
      for (let v = 0; v < n; v++) expect(got[v]).toBeCloseTo(want[v]!, 10);
    }
  });

  it('sums to 1 over the visible nodes and gives hidden nodes 0', () => {
    const rand = prng(5);
    const { graph } = randomGraph(rand, 300, 1500);
    const visible = randomVisible(rand, 300, 0.3);
    visible[0] = 1;
    for (const direction of ['out', 'in', 'both'] as const) {
      const x = personalizedPageRank(graph, [0, 1, 2], { direction, weighted: true, visible });
      expect(sum(x)).toBeCloseTo(1, 12);
      for (let v = 0; v < 300; v++) if (visible[v] === 0) expect(x[v]).toBe(0);
      expect(Math.min(...x)).toBeGreaterThanOrEqual(0);
    }
  });

  it('scores as if hidden nodes and their edges were deleted', () => {
    const rand = prng(8);
    for (let trial = 0; trial < 20; trial++) {
      const n = 5 + below(rand, 60);
      const { graph, edges } = randomGraph(rand, n, below(rand, 5 * n));
      const visible = randomVisible(rand, n, 0.3);
      const seeds = [below(rand, n), below(rand, n)];
      const opts = { direction: (['out', 'in', 'both'] as const)[trial % 3]!, weighted: trial % 2 === 0, tolerance: 1e-12 };
      const got = personalizedPageRank(graph, seeds, { ...opts, visible });
      const want = personalizedPageRank(
        withoutHidden(n, edges, visible),
        seeds.filter((s) => visible[s] === 1),
        opts,
      );
      for (let v = 0; v < n; v++) expect(got[v]).toBeCloseTo(want[v]!, 12);
    }
  });

  it('ranks the seed first on a star, and its own star above a distant one', () => {
    // Star A: 0 → 1..5; star B: 6 → 7..11; a path 5 → 12 → 13 → 6 joins them.
    const edges: [number, number][] = [];
    for (let leaf = 1; leaf <= 5; leaf++) edges.push([0, leaf]);
    for (let leaf = 7; leaf <= 11; leaf++) edges.push([6, leaf]);
    edges.push([5, 12], [12, 13], [13, 6]);
    const g = graphOf(14, edges);
    for (const direction of ['out', 'both'] as const) {
      const x = personalizedPageRank(g, [0], { direction, tolerance: 1e-12 });
      const ranked = [...x.keys()].sort((a, b) => x[b]! - x[a]!);
      expect(ranked[0]).toBe(0);
      for (let leaf = 1; leaf <= 4; leaf++) expect(x[leaf]).toBeCloseTo(x[1]!, 12);
      for (let a = 0; a <= 5; a++) for (let b = 6; b <= 11; b++) expect(x[a]).toBeGreaterThan(x[b]!);
    }
  });

  it('weights transitions by edge kind and confidence only when weighted', () => {
    // 0 calls 1 (compiler-resolved) and 0 references 2 (name-matched, 0.35)
    const g = graphOf(3, [
      [0, 1, 'calls', 1],
      [0, 2, 'references', 0.35],
    ]);
    const uniform = personalizedPageRank(g, [0], { tolerance: 1e-12 });
    expect(uniform[1]).toBeCloseTo(uniform[2]!, 12);
    const weighted = personalizedPageRank(g, [0], { weighted: true, tolerance: 1e-12 });
    expect(weighted[1]! / weighted[2]!).toBeCloseTo((pprWeight('calls') * 1) / (pprWeight('references') * 0.35), 5);
  });

  it('returns zeros when no seed is visible, and rejects bad seeds and options', () => {
    const g = graphOf(3, [[0, 1]]);
    expect([...personalizedPageRank(g, [0], { visible: new Uint8Array([0, 1, 1]) })]).toEqual([0, 0, 0]);
    expect(() => personalizedPageRank(g, [3])).toThrow(expect.objectContaining({ code: 'NODE_OUT_OF_RANGE' }));
    expect(() => personalizedPageRank(g, new Map([[0, -1]]))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => personalizedPageRank(g, [0], { alpha: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => personalizedPageRank(g, [0], { reverseFactor: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => personalizedPageRank(g, [0], { direction: 'up' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

/** Dense scores from a local result. */
function densify(n: number, r: { nodes: Uint32Array; scores: Float64Array }): Float64Array {
  const x = new Float64Array(n);
  r.nodes.forEach((v, i) => (x[v] = r.scores[i]!));
  return x;
}

describe('localPersonalizedPageRank (forward push)', () => {
  it('never overshoots the exact PPR and falls short by exactly the residual it reports', () => {
    const rand = prng(13);
    for (let trial = 0; trial < 60; trial++) {
      const n = 2 + below(rand, 25);
      const { graph, edges } = randomGraph(rand, n, below(rand, 4 * n));
      const m = modelFor(trial, rand, n);
      const seeds = seedsFor(rand, n);
      if (m.visible) for (const s of seeds.keys()) m.visible[s] = 1;
      const exact = densePpr(n, edges, seeds, m);
      const local = localPersonalizedPageRank(graph, seeds, { ...optsOf(m), epsilon: 1e-3 });
      const est = densify(n, local);
      let shortfall = 0;
      for (let v = 0; v < n; v++) {
        expect(est[v]).toBeLessThanOrEqual(exact[v]! + 1e-12);
        expect(exact[v]! - est[v]!).toBeLessThanOrEqual(local.residual + 1e-12);
        shortfall += exact[v]! - est[v]!;
      }
      expect(shortfall).toBeCloseTo(local.residual, 10);
      expect(sum(local.scores) + local.residual).toBeCloseTo(1, 12);
    }
  });

  it('is within epsilon × degree of power iteration for the uniform undirected walk', () => {
    const rand = prng(17);
    for (let trial = 0; trial < 10; trial++) {
      const n = 200 + below(rand, 300);
      // Undirected walk without dangling nodes: every node gets an edge first.
      const { edges } = randomGraph(rand, n, 3 * n);
      for (let v = 0; v < n; v++) edges.src[v] = v;
      const graph = buildCsrGraph(n, edges);
      const seeds = [below(rand, n), below(rand, n)];
      const epsilon = [1e-3, 1e-4, 1e-5][trial % 3]!;
      const exact = personalizedPageRank(graph, seeds, { direction: 'both', tolerance: 1e-14, maxIterations: 10_000 });
      const local = localPersonalizedPageRank(graph, seeds, { direction: 'both', epsilon });
      const est = densify(n, local);
      for (let v = 0; v < n; v++) {
        const degree = graph.outOffsets[v + 1]! - graph.outOffsets[v]! + graph.inOffsets[v + 1]! - graph.inOffsets[v]!;
        expect(exact[v]! - est[v]!).toBeGreaterThan(-1e-12);
        expect(exact[v]! - est[v]!).toBeLessThan(epsilon * degree);
      }
    }
  });

  it('lists nodes by score, highest first, and cuts at limit', () => {
    const rand = prng(19);
    const { graph } = randomGraph(rand, 500, 3000);
    const full = localPersonalizedPageRank(graph, [1, 2], { direction: 'both', weighted: true });
    for (let i = 1; i < full.scores.length; i++) expect(full.scores[i]).toBeLessThanOrEqual(full.scores[i - 1]!);
    const top = localPersonalizedPageRank(graph, [1, 2], { direction: 'both', weighted: true, limit: 10 });
    expect([...top.nodes]).toEqual([...full.nodes.subarray(0, 10)]);
    const exact = personalizedPageRank(graph, [1, 2], { direction: 'both', weighted: true, tolerance: 1e-12 });
    const exactTop = [...exact.keys()].sort((a, b) => exact[b]! - exact[a]!).slice(0, 5);
    expect([...full.nodes.subarray(0, 5)]).toEqual(exactTop);
  });

  it('reads only what the seeds can reach, and gives the same answer on repeated calls', () => {
    // Two components: 0..99 and 100..199.
    const rand = prng(29);
    const a = randomGraph(rand, 100, 400).edges;
    const b = randomGraph(rand, 100, 400).edges;
    const edges: EdgeList = {
      src: Uint32Array.from([...a.src, ...b.src.map((v) => v + 100)]),
      dst: Uint32Array.from([...a.dst, ...b.dst.map((v) => v + 100)]),
      kind: Uint8Array.from([...a.kind, ...b.kind]),
      confidence: Float32Array.from([...a.confidence, ...b.confidence]),
    };
    const graph = buildCsrGraph(200, edges);
    const first = localPersonalizedPageRank(graph, [150], { direction: 'both' });
    expect(first.nodes.length).toBeGreaterThan(10);
    for (const v of first.nodes) expect(v).toBeGreaterThanOrEqual(100);
    localPersonalizedPageRank(graph, [3], { direction: 'both' });
    expect(localPersonalizedPageRank(graph, [150], { direction: 'both' })).toEqual(first);
  });

  it('keeps what it learns of a node per walk: other walks on the same graph in between change no answer', () => {
    // Each node's out-weight and degree are kept per graph, mask and kind weights across calls:
    // a walk of another model (direction, weights, mask) on the same graph must not use them.
    const rand = prng(41);
    const n = 60;
    const { edges } = randomGraph(rand, n, 300);
    const shared = buildCsrGraph(n, edges);
    const visible = randomVisible(rand, n, 0.3);
    const models = [
      { direction: 'both' as const, weighted: true, reverseFactor: 0.7 },
      { direction: 'both' as const, weighted: true, reverseFactor: 0.7, visible },
      { direction: 'out' as const, weighted: false },
      { direction: 'in' as const, weighted: true, edgeKinds: edgeKindMask(['calls', 'imports']) },
      { direction: 'both' as const, weighted: false, visible },
    ];
    for (let round = 0; round < 3; round++)
      for (const [i, m] of models.entries()) {
        const seeds = [below(rand, n), below(rand, n)];
        const opts = { ...m, epsilon: 1e-5 };
        const fresh = localPersonalizedPageRank(buildCsrGraph(n, edges), seeds, opts);
        expect(localPersonalizedPageRank(shared, seeds, opts), `model ${i}, round ${round}`).toEqual(fresh);
      }
  });

  it('never lets mass into a hidden node: same result as on the graph with those nodes deleted', () => {
    const rand = prng(31);
    for (let trial = 0; trial < 20; trial++) {
      const n = 5 + below(rand, 80);
      const { graph, edges } = randomGraph(rand, n, below(rand, 5 * n));
      const visible = randomVisible(rand, n, 0.3);
      const seeds = [below(rand, n), below(rand, n)];
      const opts = { direction: (['out', 'in', 'both'] as const)[trial % 3]!, weighted: trial % 2 === 0, epsilon: 1e-5 };
      const got = localPersonalizedPageRank(graph, seeds, { ...opts, visible });
      for (const v of got.nodes) expect(visible[v]).toBe(1);
      const want = localPersonalizedPageRank(
        withoutHidden(n, edges, visible),
        seeds.filter((s) => visible[s] === 1),
        opts,
      );
      expect(got).toEqual(want);
    }
  });

  it('returns nothing when no seed is visible, and rejects a bad epsilon', () => {
    const g = graphOf(3, [[0, 1]]);
    expect(localPersonalizedPageRank(g, [0], { visible: new Uint8Array([0, 1, 1]) }).nodes.length).toBe(0);
    expect(() => localPersonalizedPageRank(g, [0], { epsilon: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });

  it('gives sane scores on a 1M-edge power-law graph', () => {
    const n = 200_000;
    const rand = prng(37);
    const graph: CsrGraph = buildCsrGraph(n, powerLawEdges(rand, n, 1_000_000));
    const seeds = [below(rand, n), below(rand, n), below(rand, n)];
    const r = localPersonalizedPageRank(graph, seeds, { direction: 'both', weighted: true, epsilon: 1e-6 });
    expect(r.nodes.length).toBeGreaterThan(100);
    expect(r.nodes.length).toBeLessThan(n);
    for (const s of seeds) expect(r.nodes.indexOf(s)).toBeLessThan(10);
    expect(r.scores.every((x, i) => i === 0 || x <= r.scores[i - 1]!)).toBe(true);
    expect(sum(r.scores) + r.residual).toBeCloseTo(1, 9);
    expect(r.residual).toBeLessThan(0.5);
  });
});
