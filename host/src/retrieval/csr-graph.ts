import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import { RetrievalError, RetrievalErrorCode } from './errors.js';

/**
 * A directed multigraph in compressed sparse row form, with the reverse adjacency alongside.
 * Node ids are dense integers 0..nodeCount-1. The out-edges of node u are the slots
 * `outOffsets[u] .. outOffsets[u + 1] - 1` of `outTargets` / `outKinds` / `outConfidence`;
 * the in-edges of v are the same slots of the `in*` arrays, with `inSources` naming the
 * source. Both sides keep the edges of a node in the order they were given to
 * {@link buildCsrGraph}, so every traversal over the graph is deterministic.
 */
export interface CsrGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** nodeCount + 1 offsets into the out-edge arrays. */
  readonly outOffsets: Uint32Array;
  readonly outTargets: Uint32Array;
  /** Index into `EDGE_KINDS` of `@travsr/protocol`. */
  readonly outKinds: Uint8Array;
  /** 0..1: 1 when the compiler resolved the edge, 0.5 / 0.35 when it was matched by name. */
  readonly outConfidence: Float32Array;
  /** nodeCount + 1 offsets into the in-edge arrays. */
  readonly inOffsets: Uint32Array;
  readonly inSources: Uint32Array;
  readonly inKinds: Uint8Array;
  readonly inConfidence: Float32Array;
}

/** Edges as parallel arrays: edge i runs from `src[i]` to `dst[i]`. */
export interface EdgeList {
  src: Uint32Array;
  dst: Uint32Array;
  /** Index into `EDGE_KINDS`. */
  kind: Uint8Array;
  confidence: Float32Array;
}

/** One edge written out, for {@link edgeList}. */
export interface EdgeSpec {
  src: number;
  dst: number;
  kind: EdgeKind;
  /** Defaults to 1. */
  confidence?: number;
}

/**
 * Packs edges given as objects into an {@link EdgeList}.
 *
 * @example
 * ```ts
 * const graph = buildCsrGraph(3, edgeList([{ src: 0, dst: 1, kind: 'calls' }, { src: 1, dst: 2, kind: 'calls', confidence: 0.5 }]));
 * ```
 */
export function edgeList(edges: readonly EdgeSpec[]): EdgeList {
  const m = edges.length;
  const list: EdgeList = { src: new Uint32Array(m), dst: new Uint32Array(m), kind: new Uint8Array(m), confidence: new Float32Array(m) };
  edges.forEach((e, i) => {
    const k = EDGE_KINDS.indexOf(e.kind);
    if (k < 0)
      throw new RetrievalError(
        RetrievalErrorCode.InvalidInput,
        `edge ${i} has unknown kind ${String(e.kind)}; use one of ${EDGE_KINDS.join(', ')}`,
      );
    list.src[i] = e.src;
    list.dst[i] = e.dst;
    list.kind[i] = k;
    list.confidence[i] = e.confidence ?? 1;
  });
  return list;
}

function checkEdges(nodeCount: number, edges: EdgeList): void {
  if (!(Number.isInteger(nodeCount) && nodeCount >= 0 && nodeCount < 2 ** 32))
    throw new RetrievalError(
      RetrievalErrorCode.InvalidInput,
      `nodeCount ${nodeCount} is not an integer in [0, 2^32); pass the number of nodes`,
    );
  const m = edges.src.length;
  if (edges.dst.length !== m || edges.kind.length !== m || edges.confidence.length !== m)
    throw new RetrievalError(
      RetrievalErrorCode.InvalidInput,
      `edge arrays differ in length (src ${m}, dst ${edges.dst.length}, kind ${edges.kind.length}, confidence ${edges.confidence.length}); every edge needs all four`,
    );
  for (let i = 0; i < m; i++) {
    const s = edges.src[i]!;
    const d = edges.dst[i]!;
    if (s >= nodeCount || d >= nodeCount)
      throw new RetrievalError(
        RetrievalErrorCode.EdgeOutOfRange,
        `edge ${i} (${s} → ${d}) names a node id at or above the node count ${nodeCount}; node ids must be dense 0..${nodeCount - 1} — number the nodes before building the graph`,
      );
    if (edges.kind[i]! >= EDGE_KINDS.length)
      throw new RetrievalError(
        RetrievalErrorCode.InvalidInput,
        `edge ${i} has kind index ${edges.kind[i]}, but there are only ${EDGE_KINDS.length} edge kinds; use the index into EDGE_KINDS`,
      );
    const c = edges.confidence[i]!;
    if (!(c >= 0 && c <= 1))
      throw new RetrievalError(
        RetrievalErrorCode.InvalidInput,
        `edge ${i} has confidence ${c}, outside [0, 1]; clamp it when reading the store`,
      );
  }
}

/** Counting sort of the edges by `key`: returns offsets (n + 1) and the edge order, stable. */
function bucketByKey(nodeCount: number, key: Uint32Array): { offsets: Uint32Array; order: Uint32Array } {
  const offsets = new Uint32Array(nodeCount + 1);
  for (let i = 0; i < key.length; i++) offsets[key[i]! + 1]!++;
  for (let u = 0; u < nodeCount; u++) offsets[u + 1]! += offsets[u]!;
  const next = offsets.slice(0, nodeCount);
  const order = new Uint32Array(key.length);
  for (let i = 0; i < key.length; i++) order[next[key[i]!]!++] = i;
  return { offsets, order };
}

/**
 * Builds the CSR form of a graph in O(n + m) with a counting sort on each side.
 * Parallel edges and self-loops are kept as given. The edges are checked first, unless
 * `checked: false` says the caller built them in range.
 *
 * @throws RetrievalError `EDGE_OUT_OF_RANGE` when an edge names a node id ≥ nodeCount,
 *   `INVALID_INPUT` when the arrays differ in length, a kind index is unknown or a confidence
 *   is outside [0, 1].
 */
export function buildCsrGraph(nodeCount: number, edges: EdgeList, opts: { checked?: boolean } = {}): CsrGraph {
  // `checked: false`: the caller made the edges itself from the store (GraphSnapshot) and they are in range.
  if (opts.checked !== false) checkEdges(nodeCount, edges);
  const m = edges.src.length;
  const out = bucketByKey(nodeCount, edges.src);
  const inn = bucketByKey(nodeCount, edges.dst);
  const outTargets = new Uint32Array(m);
  const outKinds = new Uint8Array(m);
  const outConfidence = new Float32Array(m);
  const inSources = new Uint32Array(m);
  const inKinds = new Uint8Array(m);
  const inConfidence = new Float32Array(m);
  for (let slot = 0; slot < m; slot++) {
    const o = out.order[slot]!;
    outTargets[slot] = edges.dst[o]!;
    outKinds[slot] = edges.kind[o]!;
    outConfidence[slot] = edges.confidence[o]!;
    const i = inn.order[slot]!;
    inSources[slot] = edges.src[i]!;
    inKinds[slot] = edges.kind[i]!;
    inConfidence[slot] = edges.confidence[i]!;
  }
  return {
    nodeCount,
    edgeCount: m,
    outOffsets: out.offsets,
    outTargets,
    outKinds,
    outConfidence,
    inOffsets: inn.offsets,
    inSources,
    inKinds,
    inConfidence,
  };
}
