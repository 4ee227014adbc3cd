import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import { buildCsrGraph, edgeList, type CsrGraph, type EdgeList } from '../../src/retrieval/csr-graph.js';

/** A seeded PRNG (mulberry32): the same seed gives the same numbers, so tests are repeatable. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export function below(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

const CONFIDENCES = [1, 1, 0.5, 0.35];

/** m random edges on n nodes: any kind, confidence 1, 0.5 or 0.35; self-loops and parallel edges allowed. */
export function randomEdges(rand: () => number, n: number, m: number): EdgeList {
  const list: EdgeList = { src: new Uint32Array(m), dst: new Uint32Array(m), kind: new Uint8Array(m), confidence: new Float32Array(m) };
  for (let i = 0; i < m; i++) {
    list.src[i] = below(rand, n);
    list.dst[i] = below(rand, n);
    list.kind[i] = below(rand, EDGE_KINDS.length);
    list.confidence[i] = CONFIDENCES[below(rand, CONFIDENCES.length)]!;
  }
  return list;
}

/** A random graph and its edge list. */
export function randomGraph(rand: () => number, n: number, m: number): { graph: CsrGraph; edges: EdgeList } {
  const edges = randomEdges(rand, n, m);
  return { graph: buildCsrGraph(n, edges), edges };
}

/** A visibility mask hiding each node with probability `hiddenShare`. */
export function randomVisible(rand: () => number, n: number, hiddenShare = 0.25): Uint8Array {
  return Uint8Array.from({ length: n }, () => (rand() < hiddenShare ? 0 : 1));
}

/** The same graph with every edge touching a hidden node deleted (node ids unchanged). */
export function withoutHidden(n: number, edges: EdgeList, visible: Uint8Array): CsrGraph {
  const keep: number[] = [];
  for (let i = 0; i < edges.src.length; i++) if (visible[edges.src[i]!] === 1 && visible[edges.dst[i]!] === 1) keep.push(i);
  return buildCsrGraph(n, {
    src: Uint32Array.from(keep, (i) => edges.src[i]!),
    dst: Uint32Array.from(keep, (i) => edges.dst[i]!),
    kind: Uint8Array.from(keep, (i) => edges.kind[i]!),
    confidence: Float32Array.from(keep, (i) => edges.confidence[i]!),
  });
}

/** A graph from `[src, dst, kind?, confidence?]` tuples. */
export function graphOf(n: number, edges: readonly (readonly [number, number, EdgeKind?, number?])[]): CsrGraph {
  return buildCsrGraph(
    n,
    edgeList(edges.map(([src, dst, kind, confidence]) => ({ src, dst, kind: kind ?? 'calls', confidence: confidence ?? 1 }))),
  );
}

/**
 * A graph with a power-law-ish in-degree: sources uniform, targets drawn with density falling
 * off as a power of the id, so a few low ids are hubs with tens of thousands of callers.
 */
export function powerLawEdges(rand: () => number, n: number, m: number): EdgeList {
  const list: EdgeList = { src: new Uint32Array(m), dst: new Uint32Array(m), kind: new Uint8Array(m), confidence: new Float32Array(m) };
  for (let i = 0; i < m; i++) {
    const u = rand();
    list.src[i] = below(rand, n);
    list.dst[i] = Math.min(n - 1, Math.floor(n * u * u * u));
    list.kind[i] = i % EDGE_KINDS.length;
    list.confidence[i] = CONFIDENCES[i % CONFIDENCES.length]!;
  }
  return list;
}
