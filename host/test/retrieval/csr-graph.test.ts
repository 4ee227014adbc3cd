import { EDGE_KINDS } from '@travsr/protocol';
import { describe, expect, it } from 'vitest';
import { buildCsrGraph, edgeList, type CsrGraph, type EdgeList } from '../../src/retrieval/csr-graph.js';
import { prng, randomEdges } from './fixtures.js';

/** Out- and in-edges of every node as [other end, kind, confidence] tuples, straight from the CSR arrays. */
function adjacency(g: CsrGraph) {
  const out: [number, number, number][][] = [];
  const inn: [number, number, number][][] = [];
  for (let u = 0; u < g.nodeCount; u++) {
    out.push([]);
    inn.push([]);
    for (let e = g.outOffsets[u]!; e < g.outOffsets[u + 1]!; e++) out[u]!.push([g.outTargets[e]!, g.outKinds[e]!, g.outConfidence[e]!]);
    for (let e = g.inOffsets[u]!; e < g.inOffsets[u + 1]!; e++) inn[u]!.push([g.inSources[e]!, g.inKinds[e]!, g.inConfidence[e]!]);
  }
  return { out, inn };
}

/** The same, grouped naively from the edge list in input order. */
function naiveAdjacency(n: number, edges: EdgeList) {
  const out: [number, number, number][][] = Array.from({ length: n }, () => []);
  const inn: [number, number, number][][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < edges.src.length; i++) {
    out[edges.src[i]!]!.push([edges.dst[i]!, edges.kind[i]!, edges.confidence[i]!]);
    inn[edges.dst[i]!]!.push([edges.src[i]!, edges.kind[i]!, edges.confidence[i]!]);
  }
  return { out, inn };
}

describe('buildCsrGraph', () => {
  it('holds every edge once on each side, each node keeping its edges in input order', () => {
    const rand = prng(1);
    for (let trial = 0; trial < 20; trial++) {
      const n = 1 + Math.floor(rand() * 40);
      const edges = randomEdges(rand, n, Math.floor(rand() * 150));
      const g = buildCsrGraph(n, edges);
      expect(g.nodeCount).toBe(n);
      expect(g.edgeCount).toBe(edges.src.length);
      expect(g.outOffsets[n]).toBe(edges.src.length);
      expect(g.inOffsets[n]).toBe(edges.src.length);
      expect(adjacency(g)).toEqual(naiveAdjacency(n, edges));
    }
  });

  it('keeps self-loops and parallel edges of different kinds', () => {
    const g = buildCsrGraph(
      2,
      edgeList([
        { src: 0, dst: 0, kind: 'calls' },
        { src: 0, dst: 1, kind: 'calls', confidence: 0.5 },
        { src: 0, dst: 1, kind: 'references', confidence: 0.35 },
      ]),
    );
    const { out, inn } = adjacency(g);
    const calls = EDGE_KINDS.indexOf('calls');
    const refs = EDGE_KINDS.indexOf('references');
    expect(out[0]).toEqual([
      [0, calls, 1],
      [1, calls, 0.5],
      [1, refs, expect.closeTo(0.35, 6)],
    ]);
    expect(inn[1]!.map(([s, k]) => [s, k])).toEqual([
      [0, calls],
      [0, refs],
    ]);
    expect(inn[0]).toEqual([[0, calls, 1]]);
  });

  it('builds the empty graph and a graph without edges', () => {
    expect(buildCsrGraph(0, edgeList([])).outOffsets).toEqual(new Uint32Array([0]));
    const g = buildCsrGraph(3, edgeList([]));
    expect([...g.outOffsets]).toEqual([0, 0, 0, 0]);
    expect([...g.inOffsets]).toEqual([0, 0, 0, 0]);
  });

  it('rejects an edge naming a node id at or above the node count with EDGE_OUT_OF_RANGE', () => {
    expect(() => buildCsrGraph(2, edgeList([{ src: 0, dst: 2, kind: 'calls' }]))).toThrow(
      expect.objectContaining({ code: 'EDGE_OUT_OF_RANGE', message: expect.stringContaining('edge 0 (0 → 2)') }),
    );
    expect(() => buildCsrGraph(2, edgeList([{ src: 5, dst: 0, kind: 'calls' }]))).toThrow(
      expect.objectContaining({ code: 'EDGE_OUT_OF_RANGE' }),
    );
  });

  it('rejects arrays of different lengths, unknown kinds and confidences outside [0, 1] with INVALID_INPUT', () => {
    const ok = edgeList([{ src: 0, dst: 1, kind: 'calls' }]);
    expect(() => buildCsrGraph(2, { ...ok, kind: new Uint8Array(0) })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => buildCsrGraph(2, { ...ok, kind: new Uint8Array([EDGE_KINDS.length]) })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => buildCsrGraph(2, { ...ok, confidence: new Float32Array([1.5]) })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => buildCsrGraph(2, { ...ok, confidence: new Float32Array([NaN]) })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => buildCsrGraph(-1, edgeList([]))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => edgeList([{ src: 0, dst: 1, kind: 'likes' as never }])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
