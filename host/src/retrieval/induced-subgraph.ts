import type { CsrGraph, EdgeList } from './csr-graph.js';
import { checkNode } from './errors.js';
import { checkVisibility, resolveKindMask, type EdgeKindFilter } from './traversal-options.js';

/** Options of {@link inducedSubgraph}. */
export interface InducedSubgraphOptions {
  /** Only edges of these kinds are kept; default every kind. */
  edgeKinds?: EdgeKindFilter;
  /** Hidden nodes are left out, with their edges. */
  visible?: Uint8Array;
}

/**
 * A candidate subgraph renumbered 0..k-1: `nodes[i]` is the graph id of local node i, and the
 * edges (local ids) are those of the graph between two kept nodes, in CSR order. Self-loops are
 * dropped; parallel edges are kept.
 */
export interface InducedSubgraph extends EdgeList {
  readonly nodes: Uint32Array;
}

/**
 * The subgraph induced by `nodes` (repeats and hidden nodes dropped, first occurrence wins),
 * e.g. the top PPR nodes handed to {@link prizeCollectingSteinerTree}. Reads only the out-edges
 * of the kept nodes.
 *
 * @example
 * ```ts
 * const sub = inducedSubgraph(graph, ppr.nodes.subarray(0, 2000), { visible });
 * const cost = Float64Array.from(sub.confidence, (c) => 1.5 - c);
 * ```
 * @throws RetrievalError `NODE_OUT_OF_RANGE` for an id outside the graph.
 */
export function inducedSubgraph(graph: CsrGraph, nodes: Iterable<number>, opts: InducedSubgraphOptions = {}): InducedSubgraph {
  checkVisibility(opts.visible, graph.nodeCount);
  const mask = resolveKindMask(opts.edgeKinds);
  const local = new Map<number, number>();
  for (const v of nodes) {
    checkNode('node', v, graph.nodeCount);
    if (!local.has(v) && (opts.visible === undefined || opts.visible[v] === 1)) local.set(v, local.size);
  }
  const src: number[] = [];
  const dst: number[] = [];
  const kind: number[] = [];
  const confidence: number[] = [];
  const g = graph;
  for (const [u, lu] of local) {
    for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++) {
      const lv = local.get(g.outTargets[e]!);
      if (lv === undefined || lv === lu || !((mask >> g.outKinds[e]!) & 1)) continue;
      src.push(lu);
      dst.push(lv);
      kind.push(g.outKinds[e]!);
      confidence.push(g.outConfidence[e]!);
    }
  }
  return {
    nodes: Uint32Array.from(local.keys()),
    src: Uint32Array.from(src),
    dst: Uint32Array.from(dst),
    kind: Uint8Array.from(kind),
    confidence: Float32Array.from(confidence),
  };
}
