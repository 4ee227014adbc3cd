import { describe, expect, it } from 'vitest';
import type { EdgeList } from '../../src/retrieval/csr-graph.js';
import { coreNumbers } from '../../src/retrieval/kcore.js';
import { edgeKindMask } from '../../src/retrieval/traversal-options.js';
import { below, graphOf, prng, randomGraph, randomVisible, withoutHidden } from './fixtures.js';

/** Core numbers by definition: peel nodes of degree < k until none is left, for k = 1, 2, … */
function bruteForceCores(n: number, edges: EdgeList, allowed: (i: number) => boolean = () => true): number[] {
  const nbrs = Array.from({ length: n }, () => new Set<number>());
  for (let i = 0; i < edges.src.length; i++) {
    const s = edges.src[i]!;
    const d = edges.dst[i]!;
    if (s === d || !allowed(i)) continue;
    nbrs[s]!.add(d);
    nbrs[d]!.add(s);
  }
  const core = new Array<number>(n).fill(0);
  for (let k = 1; ; k++) {
    const alive = new Set<number>(Array.from({ length: n }, (_, v) => v));
    for (let changed = true; changed;) {
      changed = false;
      for (const v of alive) {
        let degree = 0;
        for (const u of nbrs[v]!) if (alive.has(u)) degree++;
        if (degree < k) {
          alive.delete(v);
          changed = true;
        }
      }
    }
    if (alive.size === 0) return core;
    for (const v of alive) core[v] = k;
  }
}

describe('coreNumbers', () => {
  it('gives a triangle 2, its pendant 1 and an isolated node 0', () => {
    const g = graphOf(5, [
      [0, 1],
      [1, 2],
      [2, 0],
      [2, 3],
    ]);
    expect([...coreNumbers(g)]).toEqual([2, 2, 2, 1, 0]);
  });

  it('gives every node of a 4-clique 3 and a path 1', () => {
    const clique = graphOf(4, [
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect([...coreNumbers(clique)]).toEqual([3, 3, 3, 3]);
    expect([
      ...coreNumbers(
        graphOf(4, [
          [0, 1],
          [1, 2],
          [2, 3],
        ]),
      ),
    ]).toEqual([1, 1, 1, 1]);
  });

  it('counts parallel edges of any kinds and directions once and ignores self-loops', () => {
    const g = graphOf(3, [
      [0, 1, 'calls'],
      [1, 0, 'calls'],
      [0, 1, 'references'],
      [0, 1, 'imports'],
      [2, 2, 'calls'],
      [2, 2, 'references'],
    ]);
    expect([...coreNumbers(g)]).toEqual([1, 1, 0]);
  });

  it('matches brute-force peeling on random graphs', () => {
    const rand = prng(41);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + below(rand, 40);
      const { graph, edges } = randomGraph(rand, n, below(rand, 6 * n));
      expect([...coreNumbers(graph)]).toEqual(bruteForceCores(n, edges));
    }
  });

  it('counts only the kinds asked for', () => {
    const rand = prng(43);
    const mask = edgeKindMask(['calls', 'inherits', 'overrides']);
    for (let trial = 0; trial < 30; trial++) {
      const n = 2 + below(rand, 30);
      const { graph, edges } = randomGraph(rand, n, below(rand, 8 * n));
      expect([...coreNumbers(graph, { edgeKinds: mask })]).toEqual(bruteForceCores(n, edges, (i) => ((mask >> edges.kind[i]!) & 1) === 1));
    }
  });

  it('gives hidden nodes 0 and the rest what they have with the hidden nodes deleted', () => {
    const rand = prng(47);
    for (let trial = 0; trial < 50; trial++) {
      const n = 2 + below(rand, 40);
      const { graph, edges } = randomGraph(rand, n, below(rand, 6 * n));
      const visible = randomVisible(rand, n, 0.3);
      const got = coreNumbers(graph, { visible });
      expect(got).toEqual(coreNumbers(withoutHidden(n, edges, visible)));
      for (let v = 0; v < n; v++) if (visible[v] === 0) expect(got[v]).toBe(0);
    }
  });

  it('rejects a visibility mask of the wrong length', () => {
    expect(() => coreNumbers(graphOf(2, [[0, 1]]), { visible: new Uint8Array(1) })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
  });
});
