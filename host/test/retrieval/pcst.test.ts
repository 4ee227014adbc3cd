import { describe, expect, it } from 'vitest';
import { prizeCollectingSteinerTree, type PcstEdges, type PcstResult } from '../../src/retrieval/pcst.js';
import { below, prng } from './fixtures.js';

interface Instance {
  prizes: number[];
  edges: PcstEdges & { src: number[]; dst: number[]; cost: number[] };
}

function instance(prizes: number[], edges: [number, number, number][]): Instance {
  return { prizes, edges: { src: edges.map((e) => e[0]), dst: edges.map((e) => e[1]), cost: edges.map((e) => e[2]) } };
}

/** cost of the edges taken + prize of the nodes left out: what GW approximates. */
function objective(inst: Instance, r: PcstResult): number {
  return r.cost + inst.prizes.reduce((a, b) => a + b, 0) - r.prize;
}

/** Kruskal over the edges inside `set`: the MST weight, or Infinity when `set` is not connected. */
function spanningCost(inst: Instance, set: number): number {
  const parent = inst.prizes.map((_, v) => v);
  const find = (v: number): number => (parent[v] === v ? v : (parent[v] = find(parent[v]!)));
  const order = inst.edges.cost.map((_, e) => e).sort((a, b) => inst.edges.cost[a]! - inst.edges.cost[b]!);
  let cost = 0;
  let parts = 0;
  for (let v = 0; v < inst.prizes.length; v++) if ((set >> v) & 1) parts++;
  for (const e of order) {
    const s = inst.edges.src[e]!;
    const d = inst.edges.dst[e]!;
    if (!((set >> s) & 1) || !((set >> d) & 1) || find(s) === find(d)) continue;
    parent[find(s)] = find(d);
    cost += inst.edges.cost[e]!;
    parts--;
  }
  return parts === 1 ? cost : Infinity;
}

/** The optimum over every connected node set (holding the root when there is one), by enumeration. */
function bruteForceOptimum(inst: Instance, root?: number): number {
  const n = inst.prizes.length;
  const total = inst.prizes.reduce((a, b) => a + b, 0);
  let best = root === undefined ? total : Infinity;
  for (let set = 1; set < 1 << n; set++) {
    if (root !== undefined && !((set >> root) & 1)) continue;
    let left = total;
    for (let v = 0; v < n; v++) if ((set >> v) & 1) left -= inst.prizes[v]!;
    best = Math.min(best, spanningCost(inst, set) + left);
  }
  return best;
}

/** The result is `trees` trees: its edges join its nodes, without cycles, in that many components. */
function expectForest(inst: Instance, r: PcstResult, trees: number): void {
  const nodes = new Set(r.nodes);
  const parent = new Map([...nodes].map((v) => [v, v]));
  const find = (v: number): number => {
    while (parent.get(v) !== v) v = parent.get(v)!;
    return v;
  };
  const problems: string[] = [];
  for (const e of r.edges) {
    const s = inst.edges.src[e]!;
    const d = inst.edges.dst[e]!;
    if (!nodes.has(s) || !nodes.has(d)) problems.push(`edge ${e} leaves the selection`);
    else if (find(s) === find(d)) problems.push(`edge ${e} closes a cycle`);
    else parent.set(find(s), find(d));
  }
  expect(problems).toEqual([]);
  expect(r.edges.length).toBe(r.nodes.length - trees);
  expect(r.trees).toBe(trees);
  expect(r.prize).toBeCloseTo(
    [...r.nodes].reduce((a, v) => a + inst.prizes[v]!, 0),
    9,
  );
  expect(r.cost).toBeCloseTo(
    [...r.edges].reduce((a, e) => a + inst.edges.cost[e]!, 0),
    9,
  );
}

function randomInstance(rand: () => number, n: number, m: number, zeroShare: number): Instance {
  const prizes = Array.from({ length: n }, () => (rand() < zeroShare ? 0 : Math.round(rand() * 100) / 10));
  const edges: [number, number, number][] = [];
  for (let v = 1; v < n; v++) edges.push([v, below(rand, v), Math.round(rand() * 60) / 10]);
  for (let i = n - 1; i < m; i++) edges.push([below(rand, n), below(rand, n), Math.round(rand() * 60) / 10]);
  return instance(prizes, edges);
}

describe('prizeCollectingSteinerTree', () => {
  it('connects two valuable nodes through a free-prize node when the path is cheap', () => {
    const inst = instance(
      [10, 0, 10],
      [
        [0, 1, 1],
        [1, 2, 1],
      ],
    );
    for (const r of [
      prizeCollectingSteinerTree(inst.prizes, inst.edges, { root: 0 }),
      prizeCollectingSteinerTree(inst.prizes, inst.edges),
    ]) {
      expect([...r.nodes]).toEqual([0, 1, 2]);
      expect([...r.edges]).toEqual([0, 1]);
      expect(r).toMatchObject({ prize: 20, cost: 2, trees: 1 });
    }
  });

  it('leaves out a node that costs more to reach than it is worth', () => {
    const inst = instance([1, 1], [[0, 1, 5]]);
    const rooted = prizeCollectingSteinerTree(inst.prizes, inst.edges, { root: 1 });
    expect([...rooted.nodes]).toEqual([1]);
    expect(rooted.edges.length).toBe(0);
    const unrooted = prizeCollectingSteinerTree(inst.prizes, inst.edges);
    expect(unrooted.nodes.length).toBe(1);
    expect(objective(inst, unrooted)).toBe(1);
  });

  it('drops zero-prize nodes that connect nothing, even over free edges', () => {
    // 1 and 3 hang off 0 at no cost but are worth nothing; 2 is worth its edge.
    const inst = instance(
      [5, 0, 4, 0],
      [
        [0, 1, 0],
        [0, 2, 1],
        [2, 3, 0],
      ],
    );
    expect([...prizeCollectingSteinerTree(inst.prizes, inst.edges, { root: 0 }).nodes]).toEqual([0, 2]);
    expect([...prizeCollectingSteinerTree(inst.prizes, inst.edges).nodes]).toEqual([0, 2]);
    // A zero-prize node hung from by a free edge does not become the top of the tree.
    const lone = instance([0, 3], [[0, 1, 0]]);
    expect([...prizeCollectingSteinerTree(lone.prizes, lone.edges).nodes]).toEqual([1]);
  });

  it('routes through a Steiner node when that is cheaper than direct edges', () => {
    // Terminals 1, 2, 3 (prize 3) around a hub 0 (prize 0) at cost 1; direct edges cost 2.5.
    const inst = instance(
      [0, 3, 3, 3],
      [
        [0, 1, 1],
        [0, 2, 1],
        [0, 3, 1],
        [1, 2, 2.5],
        [2, 3, 2.5],
        [1, 3, 2.5],
      ],
    );
    const r = prizeCollectingSteinerTree(inst.prizes, inst.edges, { root: 1 });
    expect([...r.nodes]).toEqual([0, 1, 2, 3]);
    expect([...r.edges]).toEqual([0, 1, 2]);
    expect(objective(inst, r)).toBe(bruteForceOptimum(inst, 1));
  });

  it('returns the most valuable trees of a forest when unrooted', () => {
    // Two clusters far apart: {0, 1} worth 10 + 10 at cost 1, {2, 3} worth 4 + 4 at cost 1.
    const inst = instance(
      [10, 10, 4, 4],
      [
        [0, 1, 1],
        [2, 3, 1],
        [1, 2, 100],
      ],
    );
    const one = prizeCollectingSteinerTree(inst.prizes, inst.edges);
    expect([...one.nodes]).toEqual([0, 1]);
    expectForest(inst, one, 1);
    const two = prizeCollectingSteinerTree(inst.prizes, inst.edges, { maxTrees: 2 });
    expect([...two.nodes]).toEqual([0, 1, 2, 3]);
    expect([...two.edges]).toEqual([0, 1]);
    expectForest(inst, two, 2);
    expect(prizeCollectingSteinerTree(inst.prizes, inst.edges, { maxTrees: Infinity }).trees).toBe(2);
  });

  it('is within a factor 2 of the exhaustive optimum on random instances, and often optimal', () => {
    const rand = prng(53);
    let optimal = 0;
    const trials = 300;
    for (let trial = 0; trial < trials; trial++) {
      const n = 2 + below(rand, 8);
      const inst = randomInstance(rand, n, n - 1 + below(rand, 2 * n), 0.3);
      const root = trial % 2 === 0 ? below(rand, n) : undefined;
      const r = prizeCollectingSteinerTree(inst.prizes, inst.edges, root === undefined ? {} : { root });
      const best = bruteForceOptimum(inst, root);
      const got = objective(inst, r);
      expect(got).toBeGreaterThanOrEqual(best - 1e-9);
      expect(got).toBeLessThanOrEqual(2 * best + 1e-9);
      if (got <= best + 1e-9) optimal++;
      if (root !== undefined) expect(r.nodes).toContain(root);
      if (r.nodes.length > 0) expectForest(inst, r, 1);
      // Strong pruning: a zero-prize node is never a leaf (unless it is the root).
      const degree = new Map<number, number>();
      for (const e of r.edges) for (const v of [inst.edges.src[e]!, inst.edges.dst[e]!]) degree.set(v, (degree.get(v) ?? 0) + 1);
      for (const v of r.nodes) if (inst.prizes[v] === 0 && v !== root) expect(degree.get(v) ?? 0).toBeGreaterThanOrEqual(2);
    }
    expect(optimal).toBeGreaterThan(trials * 0.7);
  });

  it('handles a 2,000-node candidate subgraph and beats taking the best node alone', () => {
    const rand = prng(59);
    const inst = randomInstance(rand, 2000, 8000, 0.5);
    const r = prizeCollectingSteinerTree(inst.prizes, inst.edges, { root: 0 });
    expectForest(inst, r, 1);
    expect(r.nodes).toContain(0);
    const u = prizeCollectingSteinerTree(inst.prizes, inst.edges);
    expectForest(inst, u, 1);
    expect(u.prize - u.cost).toBeGreaterThanOrEqual(Math.max(...inst.prizes));
    expect(u.nodes.length).toBeGreaterThan(10);
  });

  it('handles empty input, all-zero prizes and self-loops', () => {
    expect(prizeCollectingSteinerTree([], { src: [], dst: [], cost: [] })).toMatchObject({ prize: 0, cost: 0, trees: 0 });
    const zero = instance([0, 0], [[0, 1, 0]]);
    expect(prizeCollectingSteinerTree(zero.prizes, zero.edges).nodes.length).toBe(0);
    expect([...prizeCollectingSteinerTree(zero.prizes, zero.edges, { root: 1 }).nodes]).toEqual([1]);
    const loop = instance(
      [2, 2],
      [
        [0, 0, 0],
        [0, 1, 1],
      ],
    );
    expect([...prizeCollectingSteinerTree(loop.prizes, loop.edges).edges]).toEqual([1]);
  });

  it('rejects bad prizes, costs, edges, roots and options', () => {
    const edges = { src: [0], dst: [1], cost: [1] };
    expect(() => prizeCollectingSteinerTree([1, -1], edges)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => prizeCollectingSteinerTree([1, NaN], edges)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => prizeCollectingSteinerTree([1, 1], { ...edges, cost: [Infinity] })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => prizeCollectingSteinerTree([1, 1], { ...edges, cost: [] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => prizeCollectingSteinerTree([1], edges)).toThrow(expect.objectContaining({ code: 'EDGE_OUT_OF_RANGE' }));
    expect(() => prizeCollectingSteinerTree([1, 1], edges, { root: 2 })).toThrow(expect.objectContaining({ code: 'NODE_OUT_OF_RANGE' }));
    expect(() => prizeCollectingSteinerTree([1, 1], edges, { maxTrees: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => prizeCollectingSteinerTree([1, 1], edges, { maxTrees: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
