import { pprWeight } from '@travsr/protocol';
import { GraphSnapshot } from './graph-snapshot.js';
import { prizeCollectingSteinerTree } from './pcst.js';
import type { VisibleGraph } from './visible-graph.js';

/**
 * Step 4 of get_context: a Prize-Collecting Steiner Tree over the candidates' induced
 * subgraph (prize = score) connects the winners through the nodes between them. Returns the
 * dense nodes of the tree(s); a single candidate is its own tree, candidates with no edge
 * between them give none.
 */
export function connectCandidates(g: VisibleGraph, top: readonly (readonly [number, number])[]): Set<number> {
  if (top.length < 2) return new Set(top.map(([d]) => d));
  const { visible } = g;
  const local = new Map<number, number>();
  top.forEach(([d], i) => local.set(d, i));
  const prizes = new Float64Array(top.length);
  top.forEach(([, s], i) => (prizes[i] = s));
  const src: number[] = [];
  const dst: number[] = [];
  const cost: number[] = [];
  const csr = g.snap.graph;
  for (const [d, i] of local) {
    for (let e = csr.outOffsets[d]!; e < csr.outOffsets[d + 1]!; e++) {
      const t = csr.outTargets[e]!;
      const j = local.get(t);
      if (j === undefined || j === i || visible[t] !== 1) continue;
      src.push(i);
      dst.push(j);
      // Strong, certain edges are cheap to include; a name-matched import is dear.
      cost.push(0.05 / (pprWeight(GraphSnapshot.edgeKind(csr.outKinds[e]!)) * Math.max(0.2, csr.outConfidence[e]!)));
    }
  }
  if (src.length === 0) return new Set();
  const r = prizeCollectingSteinerTree(prizes, { src, dst, cost }, { maxTrees: 5 });
  return new Set([...r.nodes].map((i) => top[i]![0]));
}
