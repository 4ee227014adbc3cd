import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import { describe, expect, it } from 'vitest';
import { bfs, bfsPath, shortestPath, type PathHop } from '../../src/retrieval/bfs.js';
import type { CsrGraph, EdgeList } from '../../src/retrieval/csr-graph.js';
import { edgeKindMask, type Direction } from '../../src/retrieval/traversal-options.js';
import { below, graphOf, prng, randomGraph, randomVisible, withoutHidden } from './fixtures.js';

// 0 calls 1 calls 2 calls 3 calls 4; 5 imports 1; 6 references 2 (name-matched)
const chain = () =>
  graphOf(7, [
    [0, 1, 'calls'],
    [1, 2, 'calls'],
    [2, 3, 'calls'],
    [3, 4, 'calls'],
    [5, 1, 'imports'],
    [6, 2, 'references', 0.35],
  ]);

const kindIndex = (k: EdgeKind) => EDGE_KINDS.indexOf(k);

/** Hop distances from the seeds by a plain BFS over the edge list (Infinity: unreachable). */
function naiveDistances(n: number, edges: EdgeList, seeds: number[], direction: Direction, allowed: (i: number) => boolean): number[] {
  const dist = new Array<number>(n).fill(Infinity);
  const queue: number[] = [];
  const reach = (v: number, d: number) => {
    if (dist[v] !== Infinity) return;
    dist[v] = d;
    queue.push(v);
  };
  for (const s of seeds) reach(s, 0);
  while (queue.length > 0) {
    const u = queue.shift()!;
    for (let i = 0; i < edges.src.length; i++) {
      if (!allowed(i)) continue;
      if (direction !== 'in' && edges.src[i] === u) reach(edges.dst[i]!, dist[u]! + 1);
      if (direction !== 'out' && edges.dst[i] === u) reach(edges.src[i]!, dist[u]! + 1);
    }
  }
  return dist;
}

/** The hop names an edge of the graph, followed the way it says. */
function hopExists(g: CsrGraph, h: PathHop): boolean {
  const [a, b] = h.reversed ? [h.to, h.from] : [h.from, h.to];
  for (let e = g.outOffsets[a]!; e < g.outOffsets[a + 1]!; e++)
    if (g.outTargets[e] === b && g.outKinds[e] === kindIndex(h.kind) && Math.abs(g.outConfidence[e]! - h.confidence) < 1e-6) return true;
  return false;
}

describe('bfs', () => {
  it('visits the callees of a function to depth 3 with the edge each was reached by', () => {
    const r = bfs(chain(), [0]);
    expect([...r.order]).toEqual([0, 1, 2, 3]);
    expect([...r.depth]).toEqual([0, 1, 2, 3]);
    expect([...r.parent]).toEqual([-1, 0, 1, 2]);
    expect([...r.parentKind]).toEqual([-1, kindIndex('calls'), kindIndex('calls'), kindIndex('calls')]);
    expect(r.truncated).toBe(false);
    expect(bfsPath(r, 3)!.map((h) => `${h.from} ${h.kind} ${h.to}`)).toEqual(['0 calls 1', '1 calls 2', '2 calls 3']);
    expect(bfsPath(r, 0)).toEqual([]);
    expect(bfsPath(r, 4)).toBeNull();
  });

  it('walks to callers with direction in, marking the edges as followed backwards', () => {
    const r = bfs(chain(), [2], { direction: 'in', maxDepth: 2 });
    expect([...r.order]).toEqual([2, 1, 6, 0, 5]);
    expect([...r.depth]).toEqual([0, 1, 1, 2, 2]);
    expect([...r.reversed]).toEqual([0, 1, 1, 1, 1]);
    expect(bfsPath(r, 5)).toEqual([
      { from: 2, to: 1, kind: 'calls', confidence: 1, reversed: true },
      { from: 1, to: 5, kind: 'imports', confidence: 1, reversed: true },
    ]);
  });

  it('follows only the kinds asked for, given as a set or as a bitmask, and only confident enough edges', () => {
    const g = chain();
    const bySet = bfs(g, [2], { direction: 'both', edgeKinds: new Set<EdgeKind>(['calls']) });
    const byMask = bfs(g, [2], { direction: 'both', edgeKinds: edgeKindMask(['calls']) });
    expect([...bySet.order]).toEqual([2, 3, 1, 4, 0]);
    expect(byMask).toEqual(bySet);
    expect([...bfs(g, [2], { direction: 'in', minConfidence: 0.5 }).order]).toEqual([2, 1, 0, 5]);
  });

  it('stops at maxNodes and says so', () => {
    const g = chain();
    const r = bfs(g, [2], { direction: 'both', maxNodes: 3 });
    expect(r.order.length).toBe(3);
    expect(r.truncated).toBe(true);
    expect(bfs(g, [2], { direction: 'both', maxNodes: 7, maxDepth: 10 }).truncated).toBe(false);
    expect(bfs(g, [0, 1, 2], { maxNodes: 2 }).order).toEqual(new Uint32Array([0, 1]));
  });

  it('skips repeated and hidden seeds and rejects unknown ones', () => {
    const visible = new Uint8Array([1, 1, 0, 1, 1, 1, 1]);
    expect([...bfs(chain(), [0, 0, 2], { visible }).order]).toEqual([0, 1]);
    expect(() => bfs(chain(), [7])).toThrow(expect.objectContaining({ code: 'NODE_OUT_OF_RANGE' }));
    expect(() => bfs(chain(), [0], { visible: new Uint8Array(3) })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => bfs(chain(), [0], { maxDepth: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => bfs(chain(), [0], { edgeKinds: 1 << 20 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });

  it('reaches every node at its true hop distance, through real edges, on random graphs', () => {
    const rand = prng(7);
    for (let trial = 0; trial < 60; trial++) {
      const n = 2 + below(rand, 30);
      const { graph, edges } = randomGraph(rand, n, below(rand, 3 * n));
      const direction = (['out', 'in', 'both'] as const)[trial % 3]!;
      const seeds = [below(rand, n), below(rand, n)];
      const maxDepth = below(rand, 5);
      const mask = trial % 4 === 0 ? edgeKindMask(['calls', 'imports', 'contains', 'types']) : undefined;
      const r = bfs(graph, seeds, { direction, maxDepth, ...(mask === undefined ? {} : { edgeKinds: mask }) });
      const dist = naiveDistances(n, edges, seeds, direction, (i) => mask === undefined || ((mask >> edges.kind[i]!) & 1) === 1);
      const expected = dist.flatMap((d, v) => (d <= maxDepth ? [[v, d]] : []));
      expect([...r.order].map((v, i) => [v, r.depth[i]]).sort((a, b) => a[0]! - b[0]!)).toEqual(expected);
      for (const v of r.order) {
        const hops = bfsPath(r, v)!;
        expect(hops.length).toBe(dist[v]);
        for (const h of hops) expect(hopExists(graph, h)).toBe(true);
      }
    }
  });

  it('never enters a hidden node: same result as on the graph with those nodes deleted', () => {
    const rand = prng(11);
    for (let trial = 0; trial < 60; trial++) {
      const n = 2 + below(rand, 40);
      const { graph, edges } = randomGraph(rand, n, below(rand, 4 * n));
      const visible = randomVisible(rand, n, 0.3);
      const seeds = [below(rand, n), below(rand, n), below(rand, n)];
      const direction = (['out', 'in', 'both'] as const)[trial % 3]!;
      const r = bfs(graph, seeds, { direction, visible, maxDepth: 4 });
      for (const v of r.order) expect(visible[v]).toBe(1);
      const reference = bfs(
        withoutHidden(n, edges, visible),
        seeds.filter((s) => visible[s] === 1),
        { direction, maxDepth: 4 },
      );
      expect(r).toEqual(reference);
    }
  });
});

describe('shortestPath', () => {
  it('returns the call chain from an entry point to a function', () => {
    expect(shortestPath(chain(), 0, 4)!.map((h) => `${h.from} ${h.kind} ${h.to}`)).toEqual([
      '0 calls 1',
      '1 calls 2',
      '2 calls 3',
      '3 calls 4',
    ]);
    expect(shortestPath(chain(), 4, 0)).toBeNull();
    expect(shortestPath(chain(), 0, 4, { maxDepth: 3 })).toBeNull();
    expect(shortestPath(chain(), 3, 3)).toEqual([]);
  });

  it('follows edges backwards in direction both and says which hops it reversed', () => {
    expect(shortestPath(chain(), 5, 6, { direction: 'both' })).toEqual([
      { from: 5, to: 1, kind: 'imports', confidence: 1, reversed: false },
      { from: 1, to: 2, kind: 'calls', confidence: 1, reversed: false },
      { from: 2, to: 6, kind: 'references', confidence: expect.closeTo(0.35, 6), reversed: true },
    ]);
    expect(shortestPath(chain(), 4, 0, { direction: 'in' })!.every((h) => h.reversed)).toBe(true);
  });

  it('finds a path of the true shortest length, made of real consecutive edges, on random graphs', () => {
    const rand = prng(23);
    for (let trial = 0; trial < 300; trial++) {
      const n = 2 + below(rand, 30);
      const { graph, edges } = randomGraph(rand, n, below(rand, 3 * n));
      const direction = (['out', 'in', 'both'] as const)[trial % 3]!;
      const from = below(rand, n);
      const to = below(rand, n);
      const visible = trial % 2 === 0 ? undefined : randomVisible(rand, n, 0.2);
      const hops = shortestPath(graph, from, to, { direction, ...(visible ? { visible } : {}) });
      const hiddenEnd = visible !== undefined && (visible[from] === 0 || visible[to] === 0);
      const reference = visible ? withoutHidden(n, edges, visible) : graph;
      const kept: EdgeList = visible ? csrEdges(reference) : edges;
      const dist = hiddenEnd ? Infinity : naiveDistances(n, kept, [from], direction, () => true)[to]!;
      if (dist === Infinity) {
        expect(hops).toBeNull();
        continue;
      }
      expect(hops!.length).toBe(dist);
      let at = from;
      for (const h of hops!) {
        expect(h.from).toBe(at);
        expect(hopExists(graph, h)).toBe(true);
        if (direction === 'out') expect(h.reversed).toBe(false);
        if (direction === 'in') expect(h.reversed).toBe(true);
        if (visible) expect(visible[h.to]).toBe(1);
        at = h.to;
      }
      expect(at).toBe(to);
    }
  });

  it('returns null when an end point is hidden and rejects ids outside the graph', () => {
    expect(shortestPath(chain(), 0, 4, { visible: new Uint8Array([1, 1, 1, 1, 0, 1, 1]) })).toBeNull();
    expect(shortestPath(chain(), 0, 4, { visible: new Uint8Array([1, 1, 0, 1, 1, 1, 1]) })).toBeNull();
    expect(() => shortestPath(chain(), 0, 99)).toThrow(expect.objectContaining({ code: 'NODE_OUT_OF_RANGE' }));
  });
});

/** The edges of a CSR graph as an edge list. */
function csrEdges(g: CsrGraph): EdgeList {
  const src: number[] = [];
  for (let u = 0; u < g.nodeCount; u++) for (let e = g.outOffsets[u]!; e < g.outOffsets[u + 1]!; e++) src.push(u);
  return { src: Uint32Array.from(src), dst: g.outTargets, kind: g.outKinds, confidence: g.outConfidence };
}
