import { EDGE_KINDS, pprWeight } from '@travsr/protocol';
import type { CsrGraph } from './csr-graph.js';
import { checkNode, checkRange, RetrievalError, RetrievalErrorCode } from './errors.js';
import {
  checkDirection,
  checkVisibility,
  resolveKindMask,
  showsEveryNode,
  type Direction,
  type EdgeKindFilter,
} from './traversal-options.js';

/**
 * How a random walk moves over a {@link CsrGraph}: the options shared by both PageRank
 * algorithms, so that power iteration and local push compute the same thing.
 */
export interface TransitionOptions {
  /**
   * `out` follows edges source → target; `in` target → source; `both` either way (the graph
   * read as undirected, the reverse step weighted by `reverseFactor`). Default `out`.
   */
  direction?: Direction;
  /**
   * `false` (ppr, the default): every edge the walk may follow is equally likely.
   * `true` (ppr_weighted): an edge is chosen with probability proportional to
   * `pprWeight(kind) × confidence`.
   */
  weighted?: boolean;
  /** With `both`: the weight of following an edge backwards relative to forwards; default 1. */
  reverseFactor?: number;
  /** Only edges of these kinds are followed; default every kind. */
  edgeKinds?: EdgeKindFilter;
  /** `visible[i] === 0` hides node i: no mass ever flows into it and it scores 0. */
  visible?: Uint8Array;
}

/**
 * The walk of {@link TransitionOptions}: from node u, each edge slot the walk may follow into
 * a visible neighbour has weight `forwardWeight[kind] × (confidence or 1)` (out-slots) or
 * `backwardWeight[kind] × (confidence or 1)` (in-slots); the walk takes one with probability
 * weight / total weight of u. A node with total weight 0 is dangling: its walk restarts.
 */
export interface TransitionModel {
  readonly graph: CsrGraph;
  /** Out-slots are followed. */
  readonly forward: boolean;
  /** In-slots are followed (backwards). */
  readonly backward: boolean;
  /** Per kind index: the weight of following an edge of that kind forwards (0 when filtered out). */
  readonly forwardWeight: Float64Array;
  /** Per kind index: the weight of following an edge of that kind backwards. */
  readonly backwardWeight: Float64Array;
  /** Multiply by the edge's confidence (weighted walks). */
  readonly byConfidence: boolean;
  /** The caller's mask; undefined when there is none or it hides nothing. */
  readonly visible: Uint8Array | undefined;
}

/** Checks the options and builds the {@link TransitionModel}. */
export function transitionModel(graph: CsrGraph, opts: TransitionOptions): TransitionModel {
  const direction = opts.direction ?? 'out';
  checkDirection(direction, ['out', 'in', 'both']);
  checkVisibility(opts.visible, graph.nodeCount);
  const reverseFactor = opts.reverseFactor ?? 1;
  checkRange('reverseFactor', reverseFactor, 0, Number.MAX_VALUE);
  const weighted = opts.weighted ?? false;
  const mask = resolveKindMask(opts.edgeKinds);
  const forwardWeight = new Float64Array(EDGE_KINDS.length);
  const backwardWeight = new Float64Array(EDGE_KINDS.length);
  EDGE_KINDS.forEach((kind, k) => {
    const w = (mask >> k) & 1 ? (weighted ? pprWeight(kind) : 1) : 0;
    forwardWeight[k] = w;
    backwardWeight[k] = direction === 'both' ? w * reverseFactor : w;
  });
  return {
    graph,
    forward: direction !== 'in',
    backward: direction !== 'out',
    forwardWeight,
    backwardWeight,
    byConfidence: weighted,
    // A mask that hides nothing is left out: no lookup per edge, no degree to count, and every
    // caller who sees everything shares the out-weights kept per walk (walkNodeCache).
    visible: opts.visible !== undefined && !showsEveryNode(opts.visible) ? opts.visible : undefined,
  };
}

/** Total weight of the slots the walk may follow out of `u` (0: dangling). */
export function outWeight(model: TransitionModel, u: number): number {
  const g = model.graph;
  const vis = model.visible;
  let total = 0;
  if (model.forward) {
    for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++) {
      if (vis !== undefined && vis[g.outTargets[e]!] !== 1) continue;
      total += model.forwardWeight[g.outKinds[e]!]! * (model.byConfidence ? g.outConfidence[e]! : 1);
    }
  }
  if (model.backward) {
    for (let e = g.inOffsets[u]!, end = g.inOffsets[u + 1]!; e < end; e++) {
      if (vis !== undefined && vis[g.inSources[e]!] !== 1) continue;
      total += model.backwardWeight[g.inKinds[e]!]! * (model.byConfidence ? g.inConfidence[e]! : 1);
    }
  }
  return total;
}

/**
 * Per node of one walk (graph, visibility mask and kind weights): the {@link outWeight} and the
 * number of slots the walk may follow, each filled in the first time a query needs it and kept
 * for every later walk with the same model — a long-lived server asks about the same hubs
 * question after question. NaN / -1 until computed.
 */
export interface WalkNodeCache {
  readonly total: Float64Array;
  readonly degree: Int32Array;
}

// Keyed by the graph, then by the visibility mask (the graph itself when there is none), then
// by the kind weights: a snapshot's graph and masks never change, so an entry never goes stale
// and goes away with them.
const walkCaches = new WeakMap<CsrGraph, WeakMap<object, Map<string, WalkNodeCache>>>();

/**
 * The {@link WalkNodeCache} of `model`, shared by every walk with the same graph, mask and
 * weights. The visibility mask must not be changed after it was passed to a walk (the access
 * policy's masks are made once per snapshot and policy).
 */
export function walkNodeCache(model: TransitionModel): WalkNodeCache {
  let byMask = walkCaches.get(model.graph);
  if (byMask === undefined) walkCaches.set(model.graph, (byMask = new WeakMap()));
  const maskKey: object = model.visible ?? model.graph;
  let byWeights = byMask.get(maskKey);
  if (byWeights === undefined) byMask.set(maskKey, (byWeights = new Map<string, WalkNodeCache>()));
  const key = `${model.forward ? 'f' : ''}${model.backward ? 'b' : ''}${model.byConfidence ? 'c' : ''}:${model.forwardWeight.join(',')}:${model.backwardWeight.join(',')}`;
  let cache = byWeights.get(key);
  if (cache === undefined) {
    const n = model.graph.nodeCount;
    cache = { total: new Float64Array(n).fill(Number.NaN), degree: new Int32Array(n).fill(-1) };
    byWeights.set(key, cache);
  }
  return cache;
}

/** Number of slots at `u` the walk may follow: into visible nodes, of kinds weighted above 0. */
export function walkDegree(model: TransitionModel, u: number): number {
  const { graph: g, visible: vis, forward, backward, forwardWeight, backwardWeight } = model;
  let d = 0;
  if (forward)
    for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++)
      if ((vis === undefined || vis[g.outTargets[e]!] === 1) && forwardWeight[g.outKinds[e]!]! > 0) d++;
  if (backward)
    for (let e = g.inOffsets[u]!, end = g.inOffsets[u + 1]!; e < end; e++)
      if ((vis === undefined || vis[g.inSources[e]!] === 1) && backwardWeight[g.inKinds[e]!]! > 0) d++;
  return d;
}

/** Seeds of a personalized walk: node ids (equal weight each) or a map of node id → weight. */
export type PprSeeds = ReadonlyMap<number, number> | Iterable<number>;

/** The restart distribution: visible seeds with positive weight, weights summing to 1. */
export interface RestartDistribution {
  readonly nodes: Uint32Array;
  readonly weights: Float64Array;
}

/**
 * Normalises seeds into the {@link RestartDistribution}. Hidden seeds and seeds of weight 0
 * are dropped; repeated ids add up. Empty when no visible seed is left.
 *
 * @throws RetrievalError `NODE_OUT_OF_RANGE` for an id outside the graph, `INVALID_INPUT` for a
 *   negative or non-finite weight.
 */
export function restartDistribution(graph: CsrGraph, seeds: PprSeeds, visible: Uint8Array | undefined): RestartDistribution {
  const acc = new Map<number, number>();
  const add = (node: number, weight: number): void => {
    checkNode('seed', node, graph.nodeCount);
    if (!(weight >= 0 && weight < Infinity))
      throw new RetrievalError(RetrievalErrorCode.InvalidInput, `seed ${node} has weight ${weight}; seed weights must be finite and ≥ 0`);
    if (weight === 0 || (visible !== undefined && visible[node] !== 1)) return;
    acc.set(node, (acc.get(node) ?? 0) + weight);
  };
  if (seeds instanceof Map) for (const [node, weight] of seeds as ReadonlyMap<number, number>) add(node, weight);
  else for (const node of seeds as Iterable<number>) add(node, 1);
  let total = 0;
  for (const w of acc.values()) total += w;
  const nodes = new Uint32Array(acc.size);
  const weights = new Float64Array(acc.size);
  let i = 0;
  for (const [node, w] of acc) {
    nodes[i] = node;
    weights[i++] = w / total;
  }
  return { nodes, weights };
}
