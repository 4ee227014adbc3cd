import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import type { CsrGraph } from './csr-graph.js';
import { checkNode, checkRange } from './errors.js';
import { checkDirection, checkVisibility, resolveKindMask, type Direction, type EdgeKindFilter } from './traversal-options.js';

/** Options of {@link bfs} and {@link shortestPath}. */
export interface TraversalOptions {
  /** Which way edges are followed; default `out`. */
  direction?: Direction;
  /** Only edges of these kinds are followed; default every kind. */
  edgeKinds?: EdgeKindFilter;
  /** Only edges with at least this confidence are followed; default 0 (every edge). */
  minConfidence?: number;
  /** `visible[i] === 0` hides node i: it is never entered, expanded or used as a hop. */
  visible?: Uint8Array;
}

/** Options of {@link bfs}. */
export interface BfsOptions extends TraversalOptions {
  /** Nodes further than this many hops from every seed are not visited; default 3. */
  maxDepth?: number;
  /** Stop once this many nodes (seeds included) have been visited; default no limit. */
  maxNodes?: number;
}

/**
 * The nodes a breadth-first search visited, in visit order, as parallel arrays: entry i says
 * node `order[i]` was reached at `depth[i]` hops from the seeds, from node `parent[i]` (-1 for a
 * seed) along an edge of kind `EDGE_KINDS[parentKind[i]]` (-1 for a seed) whose confidence
 * was `parentConfidence[i]`. `reversed[i]` is 1 when that edge runs from the node to its parent
 * (followed backwards, with direction `in` or `both`).
 */
export interface BfsResult {
  readonly order: Uint32Array;
  readonly depth: Uint32Array;
  readonly parent: Int32Array;
  readonly parentKind: Int8Array;
  readonly parentConfidence: Float32Array;
  readonly reversed: Uint8Array;
  /** True when `maxNodes` stopped the search before the depth limit did. */
  readonly truncated: boolean;
}

/** One hop of a path: an edge followed from `from` to `to`. */
export interface PathHop {
  from: number;
  to: number;
  kind: EdgeKind;
  confidence: number;
  /** True when the edge runs `to → from` and was followed against its direction. */
  reversed: boolean;
}

/** The per-call form of {@link TraversalOptions}, checked. */
interface Walk {
  graph: CsrGraph;
  forward: boolean;
  backward: boolean;
  mask: number;
  minConfidence: number;
  visible: Uint8Array | undefined;
}

function walkOf(graph: CsrGraph, opts: TraversalOptions): Walk {
  const direction = opts.direction ?? 'out';
  checkDirection(direction, ['out', 'in', 'both']);
  checkVisibility(opts.visible, graph.nodeCount);
  const minConfidence = opts.minConfidence ?? 0;
  checkRange('minConfidence', minConfidence, 0, 1);
  return {
    graph,
    forward: direction !== 'in',
    backward: direction !== 'out',
    mask: resolveKindMask(opts.edgeKinds),
    minConfidence,
    visible: opts.visible,
  };
}

/**
 * Calls `visit(neighbour, kind, confidence, reversed)` for every edge of `u` the walk may
 * follow into a visible neighbour, out-edges first, each side in CSR order.
 */
function forEachStep(
  w: Walk,
  u: number,
  visit: (v: number, kind: number, confidence: number, reversed: boolean) => boolean | void,
): boolean {
  const g = w.graph;
  if (w.forward) {
    for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++) {
      const v = g.outTargets[e]!;
      const k = g.outKinds[e]!;
      const c = g.outConfidence[e]!;
      if ((w.mask >> k) & 1 && c >= w.minConfidence && (w.visible === undefined || w.visible[v] === 1)) {
        if (visit(v, k, c, false) === true) return true;
      }
    }
  }
  if (w.backward) {
    for (let e = g.inOffsets[u]!, end = g.inOffsets[u + 1]!; e < end; e++) {
      const v = g.inSources[e]!;
      const k = g.inKinds[e]!;
      const c = g.inConfidence[e]!;
      if ((w.mask >> k) & 1 && c >= w.minConfidence && (w.visible === undefined || w.visible[v] === 1)) {
        if (visit(v, k, c, true) === true) return true;
      }
    }
  }
  return false;
}

/**
 * Breadth-first search from `seeds` (depth 0) out to `maxDepth` hops. Hidden seeds and
 * repeated seeds are skipped. Each node is visited once, by the first edge that reaches it in
 * BFS order, so following `parent` back from any node gives a shortest path to a seed
 * ({@link bfsPath}).
 *
 * @example
 * ```ts
 * const r = bfs(graph, [fn], { direction: 'in', edgeKinds: edgeKindMask(['calls']), maxDepth: 2 });
 * // r.order: fn, then its callers, then their callers
 * ```
 * @throws RetrievalError `NODE_OUT_OF_RANGE` for a seed outside the graph, `INVALID_OPTION`
 *   for a bad option.
 */
export function bfs(graph: CsrGraph, seeds: Iterable<number>, opts: BfsOptions = {}): BfsResult {
  const w = walkOf(graph, opts);
  const maxDepth = opts.maxDepth ?? 3;
  checkRange('maxDepth', maxDepth, 0, Infinity);
  const maxNodes = opts.maxNodes ?? Infinity;
  checkRange('maxNodes', maxNodes, 0, Infinity);
  const n = graph.nodeCount;
  const cap = Math.min(n, maxNodes);
  const order = new Uint32Array(cap);
  const depth = new Uint32Array(cap);
  const parent = new Int32Array(cap);
  const parentKind = new Int8Array(cap);
  const parentConfidence = new Float32Array(cap);
  const reversed = new Uint8Array(cap);
  const seen = new Uint8Array(n);
  let size = 0;
  let truncated = false;

  for (const s of seeds) {
    checkNode('seed', s, n);
    if (seen[s] === 1 || (w.visible !== undefined && w.visible[s] !== 1)) continue;
    if (size >= cap) {
      truncated = true;
      break;
    }
    seen[s] = 1;
    order[size] = s;
    parent[size] = -1;
    parentKind[size] = -1;
    parentConfidence[size] = 1;
    size++;
  }

  for (let head = 0; head < size && !truncated; head++) {
    const u = order[head]!;
    const du = depth[head]!;
    if (du >= maxDepth) break; // BFS order: every later node is at least as deep
    truncated = forEachStep(w, u, (v, k, c, rev) => {
      if (seen[v] === 1) return false;
      if (size >= cap) return true;
      seen[v] = 1;
      order[size] = v;
      depth[size] = du + 1;
      parent[size] = u;
      parentKind[size] = k;
      parentConfidence[size] = c;
      reversed[size] = rev ? 1 : 0;
      size++;
      return false;
    });
  }

  return {
    order: order.slice(0, size),
    depth: depth.slice(0, size),
    parent: parent.slice(0, size),
    parentKind: parentKind.slice(0, size),
    parentConfidence: parentConfidence.slice(0, size),
    reversed: reversed.slice(0, size),
    truncated,
  };
}

/**
 * The hops from a seed to `node` in a {@link bfs} result (empty for a seed), or null when the
 * search did not visit `node`.
 */
export function bfsPath(result: BfsResult, node: number): PathHop[] | null {
  const position = new Map<number, number>();
  result.order.forEach((v, i) => position.set(v, i));
  let i = position.get(node);
  if (i === undefined) return null;
  const hops: PathHop[] = [];
  for (let p = result.parent[i]!; p >= 0; p = result.parent[i]!) {
    hops.push({
      from: p,
      to: result.order[i]!,
      kind: EDGE_KINDS[result.parentKind[i]!]!,
      confidence: result.parentConfidence[i]!,
      reversed: result.reversed[i] === 1,
    });
    i = position.get(p)!;
  }
  return hops.reverse();
}

/** Options of {@link shortestPath}. */
export interface ShortestPathOptions extends TraversalOptions {
  /** Paths longer than this many hops are not looked for; default no limit. */
  maxDepth?: number;
}

/**
 * A shortest path (fewest hops) from `from` to `to`, as the list of hops, or null when there
 * is none within `maxDepth` through visible nodes. `[]` when `from === to` and it is visible.
 * A bidirectional BFS: it expands the smaller frontier a whole level at a time and stops at the
 * first level where the two searches meet, so it reads far less of the graph than a BFS from
 * `from` alone.
 *
 * @example
 * ```ts
 * const hops = shortestPath(graph, handler, db, { edgeKinds: edgeKindMask(['calls']) });
 * // handler calls service calls repository calls db
 * ```
 * @throws RetrievalError `NODE_OUT_OF_RANGE` when `from` or `to` is outside the graph,
 *   `INVALID_OPTION` for a bad option.
 */
export function shortestPath(graph: CsrGraph, from: number, to: number, opts: ShortestPathOptions = {}): PathHop[] | null {
  const w = walkOf(graph, opts);
  const maxDepth = opts.maxDepth ?? Infinity;
  checkRange('maxDepth', maxDepth, 0, Infinity);
  const n = graph.nodeCount;
  checkNode('from', from, n);
  checkNode('to', to, n);
  const vis = w.visible;
  if (vis !== undefined && (vis[from] !== 1 || vis[to] !== 1)) return null;
  if (from === to) return [];

  // The backward search walks the reversed graph: out ↔ in.
  const wBack: Walk = { ...w, forward: w.backward, backward: w.forward };
  // side[v]: 1 reached from `from`, 2 reached from `to`. pred/succ: the neighbour it was
  // reached from (-1 at the two ends), with that edge's kind, confidence and orientation.
  const side = new Uint8Array(n);
  const link = new Int32Array(n);
  const linkKind = new Uint8Array(n);
  const linkConfidence = new Float32Array(n);
  const linkReversed = new Uint8Array(n);
  side[from] = 1;
  side[to] = 2;
  link[from] = -1;
  link[to] = -1;
  let frontA = [from];
  let frontB = [to];
  let depth = 0;
  let meetU = -1; // last node on the `from` side
  let meetV = -1; // first node on the `to` side
  let meet = { kind: 0, confidence: 0, reversed: false };

  while (frontA.length > 0 && frontB.length > 0 && depth < maxDepth && meetU < 0) {
    const expandA = frontA.length <= frontB.length;
    const front = expandA ? frontA : frontB;
    const mine = expandA ? 1 : 2;
    const next: number[] = [];
    for (const u of front) {
      const found = forEachStep(expandA ? w : wBack, u, (v, k, c, rev) => {
        if (side[v] === mine) return false;
        if (side[v] !== 0) {
          // The searches meet on the edge u — v.
          meetU = expandA ? u : v;
          meetV = expandA ? v : u;
          // Seen from the `to` side, the edge was followed from meetV back to meetU.
          meet = { kind: k, confidence: c, reversed: expandA ? rev : !rev };
          return true;
        }
        side[v] = mine;
        link[v] = u;
        linkKind[v] = k;
        linkConfidence[v] = c;
        linkReversed[v] = rev ? 1 : 0;
        next.push(v);
        return false;
      });
      if (found) break;
    }
    depth++;
    if (expandA) frontA = next;
    else frontB = next;
  }
  if (meetU < 0) return null;

  const hops: PathHop[] = [];
  for (let v = meetU; link[v]! >= 0; v = link[v]!) {
    hops.push({
      from: link[v]!,
      to: v,
      kind: EDGE_KINDS[linkKind[v]!]!,
      confidence: linkConfidence[v]!,
      reversed: linkReversed[v] === 1,
    });
  }
  hops.reverse();
  hops.push({ from: meetU, to: meetV, kind: EDGE_KINDS[meet.kind]!, confidence: meet.confidence, reversed: meet.reversed });
  // On the `to` side, v was reached from link[v] walking the reversed graph, so the hop goes
  // v → link[v], and an edge the backward walk followed forwards runs link[v] → v: reversed.
  for (let v = meetV; link[v]! >= 0; v = link[v]!) {
    hops.push({
      from: v,
      to: link[v]!,
      kind: EDGE_KINDS[linkKind[v]!]!,
      confidence: linkConfidence[v]!,
      reversed: linkReversed[v] === 0,
    });
  }
  return hops;
}
