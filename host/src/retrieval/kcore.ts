import type { CsrGraph } from './csr-graph.js';
import { checkVisibility, resolveKindMask, type EdgeKindFilter } from './traversal-options.js';

/** Options of {@link coreNumbers}. */
export interface CoreOptions {
  /** Only edges of these kinds count; default every kind. */
  edgeKinds?: EdgeKindFilter;
  /** `visible[i] === 0` removes node i and its edges before the decomposition; it gets 0. */
  visible?: Uint8Array;
}

/**
 * The neighbours of every node in the undirected simple graph under the options: direction
 * ignored, parallel edges (of any kinds) merged, self-loops dropped. CSR: offsets, targets.
 */
function simpleUndirected(graph: CsrGraph, mask: number, vis: Uint8Array | undefined): { offsets: Uint32Array; targets: Uint32Array } {
  const n = graph.nodeCount;
  const g = graph;
  // last[v] === u + 1 while v has already been listed as a neighbour of u.
  const last = new Uint32Array(n);
  const offsets = new Uint32Array(n + 1);
  const targets = new Uint32Array(2 * g.edgeCount);
  let size = 0;
  const take = (u: number, v: number, kind: number): void => {
    if (v === u || last[v] === u + 1 || !((mask >> kind) & 1) || (vis !== undefined && vis[v] !== 1)) return;
    last[v] = u + 1;
    targets[size++] = v;
  };
  for (let u = 0; u < n; u++) {
    offsets[u] = size;
    if (vis !== undefined && vis[u] !== 1) continue;
    for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++) take(u, g.outTargets[e]!, g.outKinds[e]!);
    for (let e = g.inOffsets[u]!, end = g.inOffsets[u + 1]!; e < end; e++) take(u, g.inSources[e]!, g.inKinds[e]!);
  }
  offsets[n] = size;
  return { offsets, targets: targets.subarray(0, size) };
}

/**
 * Core numbers (k-core shell indices) by the Batagelj–Zaversnik bucket algorithm, O(n + m),
 * on the undirected simple graph: edge direction is ignored, parallel edges of any kinds
 * count once and self-loops not at all. Node i's entry is the largest k such that i belongs
 * to a subgraph where every node has at least k neighbours; isolated and hidden nodes get 0.
 *
 * @example
 * ```ts
 * const core = coreNumbers(graph, { edgeKinds: edgeKindMask(['calls', 'imports']) });
 * // core[i] high: i sits in the densely connected centre of the code base
 * ```
 * @throws RetrievalError `INVALID_OPTION` for a bad option.
 */
export function coreNumbers(graph: CsrGraph, opts: CoreOptions = {}): Uint32Array {
  checkVisibility(opts.visible, graph.nodeCount);
  const { offsets, targets } = simpleUndirected(graph, resolveKindMask(opts.edgeKinds), opts.visible);
  const n = graph.nodeCount;
  const deg = new Uint32Array(n);
  let maxDeg = 0;
  for (let v = 0; v < n; v++) {
    deg[v] = offsets[v + 1]! - offsets[v]!;
    if (deg[v]! > maxDeg) maxDeg = deg[v]!;
  }
  // Nodes sorted by degree (vert), each node's position in it (pos), and where each degree's
  // block starts (bin).
  const bin = new Uint32Array(maxDeg + 1);
  for (let v = 0; v < n; v++) bin[deg[v]!]!++;
  for (let d = 0, start = 0; d <= maxDeg; d++) {
    const count = bin[d]!;
    bin[d] = start;
    start += count;
  }
  const pos = new Uint32Array(n);
  const vert = new Uint32Array(n);
  for (let v = 0; v < n; v++) {
    pos[v] = bin[deg[v]!]!++;
    vert[pos[v]!] = v;
  }
  for (let d = maxDeg; d > 0; d--) bin[d] = bin[d - 1]!;
  bin[0] = 0;
  // Peel in order of current degree; a neighbour with a higher degree moves down one block.
  for (let i = 0; i < n; i++) {
    const v = vert[i]!;
    const dv = deg[v]!;
    for (let e = offsets[v]!, end = offsets[v + 1]!; e < end; e++) {
      const u = targets[e]!;
      const du = deg[u]!;
      if (du <= dv) continue;
      const pu = pos[u]!;
      const pw = bin[du]!;
      const w = vert[pw]!;
      if (u !== w) {
        pos[u] = pw;
        vert[pu] = w;
        pos[w] = pu;
        vert[pw] = u;
      }
      bin[du]!++;
      deg[u] = du - 1;
    }
  }
  return deg;
}
