import type { CsrGraph } from './csr-graph.js';
import { checkRange } from './errors.js';
import { topByScore } from './top-k.js';
import {
  outWeight,
  restartDistribution,
  transitionModel,
  type PprSeeds,
  type RestartDistribution,
  type TransitionModel,
  type TransitionOptions,
  walkDegree,
  walkNodeCache,
  type WalkNodeCache,
} from './transition-model.js';

/** Options of {@link personalizedPageRank}. */
export interface PageRankOptions extends TransitionOptions {
  /** Restart probability per step, in (0, 1]; default 0.15. */
  alpha?: number;
  /** Stop when the L1 change of one iteration falls below this; default 1e-6. */
  tolerance?: number;
  /** Stop after this many iterations even if not converged; default 100. */
  maxIterations?: number;
}

/**
 * Personalized PageRank by power iteration over the whole graph: the stationary distribution
 * of a walk that follows the {@link TransitionOptions} model and, at each step, jumps back to
 * the seeds with probability `alpha`. A dangling node (nothing it may follow) sends its mass
 * back to the seeds. Hidden nodes score 0 and no mass reaches them, exactly as if they and
 * their edges were deleted.
 *
 * Returns one score per node, summing to 1 over the visible nodes; all zeros when no seed is
 * visible. O(m) per iteration; for a query-time answer on a large graph use
 * {@link localPersonalizedPageRank}.
 *
 * @example
 * ```ts
 * const scores = personalizedPageRank(graph, new Map([[hit1, 0.7], [hit2, 0.3]]), { weighted: true, direction: 'both' });
 * ```
 * @throws RetrievalError `NODE_OUT_OF_RANGE` for a seed outside the graph, `INVALID_INPUT` for a
 *   bad seed weight, `INVALID_OPTION` for a bad option.
 */
export function personalizedPageRank(graph: CsrGraph, seeds: PprSeeds, opts: PageRankOptions = {}): Float64Array {
  const model = transitionModel(graph, opts);
  const alpha = opts.alpha ?? 0.15;
  checkRange('alpha', alpha, Number.MIN_VALUE, 1);
  const tolerance = opts.tolerance ?? 1e-6;
  checkRange('tolerance', tolerance, 0, 2);
  const maxIterations = opts.maxIterations ?? 100;
  checkRange('maxIterations', maxIterations, 0, Infinity);
  const restart = restartDistribution(graph, seeds, model.visible);
  const n = graph.nodeCount;
  let x = new Float64Array(n);
  if (restart.nodes.length === 0) return x;

  // Per slot, the probability of taking it from the node it leaves (0 into hidden nodes).
  const total = new Float64Array(n);
  for (let u = 0; u < n; u++) total[u] = outWeight(model, u);
  const pOut = model.forward ? slotProbabilities(model, total, false) : undefined;
  const pIn = model.backward ? slotProbabilities(model, total, true) : undefined;

  restart.nodes.forEach((s, i) => (x[s] = restart.weights[i]!));
  let y = new Float64Array(n);
  const g = graph;
  for (let iter = 0; iter < maxIterations; iter++) {
    y.fill(0);
    let mass = 0;
    let dangling = 0;
    for (let u = 0; u < n; u++) {
      const xu = x[u]!;
      if (xu === 0) continue;
      mass += xu;
      if (total[u] === 0) {
        dangling += xu;
        continue;
      }
      if (pOut !== undefined)
        for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++) y[g.outTargets[e]!]! += xu * pOut[e]!;
      if (pIn !== undefined) for (let e = g.inOffsets[u]!, end = g.inOffsets[u + 1]!; e < end; e++) y[g.inSources[e]!]! += xu * pIn[e]!;
    }
    const keep = 1 - alpha;
    for (let v = 0; v < n; v++) y[v]! *= keep;
    const back = alpha * mass + keep * dangling;
    restart.nodes.forEach((s, i) => (y[s]! += back * restart.weights[i]!));
    let change = 0;
    for (let v = 0; v < n; v++) change += Math.abs(y[v]! - x[v]!);
    [x, y] = [y, x];
    if (change < tolerance) break;
  }
  let sum = 0;
  for (let v = 0; v < n; v++) sum += x[v]!;
  for (let v = 0; v < n; v++) x[v]! /= sum;
  return x;
}

function slotProbabilities(model: TransitionModel, total: Float64Array, backward: boolean): Float64Array {
  const g = model.graph;
  const vis = model.visible;
  const offsets = backward ? g.inOffsets : g.outOffsets;
  const ends = backward ? g.inSources : g.outTargets;
  const kinds = backward ? g.inKinds : g.outKinds;
  const confidence = backward ? g.inConfidence : g.outConfidence;
  const kindWeight = backward ? model.backwardWeight : model.forwardWeight;
  const p = new Float64Array(g.edgeCount);
  for (let u = 0; u < g.nodeCount; u++) {
    const t = total[u]!;
    if (t === 0 || (vis !== undefined && vis[u] !== 1)) continue;
    for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) {
      if (vis !== undefined && vis[ends[e]!] !== 1) continue;
      p[e] = (kindWeight[kinds[e]!]! * (model.byConfidence ? confidence[e]! : 1)) / t;
    }
  }
  return p;
}

/** Options of {@link localPersonalizedPageRank}. */
export interface LocalPageRankOptions extends TransitionOptions {
  /** Restart probability per step, in (0, 1]; default 0.15. */
  alpha?: number;
  /**
   * Push threshold: a node is pushed while its residual is at least `epsilon × degree`, the
   * degree being the number of edges the walk may follow at it (into visible nodes, of kinds
   * weighted above 0; at least 1). Each push moves at least alpha × epsilon × degree into the
   * estimate, which never exceeds 1, so the work is O(1 / (alpha × epsilon)) edge reads whatever
   * the graph size; with hidden nodes or a kind filter, add the skipped edges of pushed nodes and
   * one count of each listed node's edges. Default 1e-6.
   */
  epsilon?: number;
  /** Return at most this many nodes (the highest scores); default all with a score. */
  limit?: number;
}

/**
 * A sparse PPR estimate: `nodes[i]` scored `scores[i]`, highest first (ties by node id).
 * Nodes not listed score 0 in the estimate. The scores are comparable with those of
 * {@link personalizedPageRank}, which they approach from below as epsilon shrinks.
 */
export interface LocalPageRankResult {
  readonly nodes: Uint32Array;
  readonly scores: Float64Array;
  /**
   * How far the estimate (all of it, before `limit`) falls short of the exact PPR in total (L1);
   * the estimate never exceeds the exact PPR, so no node's score is short by more than this.
   */
  readonly residual: number;
  /** Number of push operations done. */
  readonly pushes: number;
}

/** Reusable per-graph scratch arrays; an entry is valid only when its stamp is the current call's. */
interface Workspace {
  epoch: number;
  readonly stamp: Uint32Array;
  readonly residual: Float64Array;
  readonly estimate: Float64Array;
  readonly queued: Uint8Array;
  /** 1 once the node's residual has reached epsilon in this call: it is in the result. */
  readonly listed: Uint8Array;
}

const workspaces = new WeakMap<CsrGraph, Workspace>();

function workspaceFor(graph: CsrGraph): Workspace {
  let ws = workspaces.get(graph);
  if (ws === undefined) {
    const n = graph.nodeCount;
    ws = {
      epoch: 0,
      stamp: new Uint32Array(n),
      residual: new Float64Array(n),
      estimate: new Float64Array(n),
      queued: new Uint8Array(n),
      listed: new Uint8Array(n),
    };
    workspaces.set(graph, ws);
  }
  if (ws.epoch === 0xffffffff) {
    ws.stamp.fill(0);
    ws.epoch = 0;
  }
  ws.epoch++;
  return ws;
}

/**
 * Personalized PageRank by forward push (Andersen–Chung–Lang): starts with all mass as
 * residual on the seeds and repeatedly moves `alpha` of a node's residual into its estimate and
 * spreads the rest over its neighbours with the same transition model as
 * {@link personalizedPageRank} (a dangling node spreads it over the seeds). A node's residual
 * that stays below its threshold is credited at `alpha` (a walk restarted there is still there
 * with at least that probability). It reads only the nodes it pushes and their edges, never the
 * whole graph, so its cost depends on `epsilon` and `alpha` and not on the graph size. Hidden
 * nodes are never entered: the result equals the one on the graph with them deleted.
 *
 * Guarantees: every estimate is ≤ the exact PPR, and the total shortfall is `residual`. For
 * the uniform walk with direction `both`, reverseFactor 1 and no dangling node (a reversible
 * walk), the shortfall at node v is also < `epsilon × degree(v)`.
 *
 * Not reentrant per graph (scratch arrays are cached per graph); JavaScript being
 * single-threaded, that only matters across worker threads sharing a graph's buffers.
 *
 * @example
 * ```ts
 * const { nodes, scores } = localPersonalizedPageRank(graph, [hit], { direction: 'both', weighted: true, limit: 50 });
 * ```
 * @throws RetrievalError `NODE_OUT_OF_RANGE` for a seed outside the graph, `INVALID_INPUT` for a
 *   bad seed weight, `INVALID_OPTION` for a bad option.
 */
export function localPersonalizedPageRank(graph: CsrGraph, seeds: PprSeeds, opts: LocalPageRankOptions = {}): LocalPageRankResult {
  const model = transitionModel(graph, opts);
  const alpha = opts.alpha ?? 0.15;
  checkRange('alpha', alpha, Number.MIN_VALUE, 1);
  const epsilon = opts.epsilon ?? 1e-6;
  checkRange('epsilon', epsilon, Number.MIN_VALUE, 1);
  const limit = opts.limit ?? Infinity;
  checkRange('limit', limit, 0, Infinity);
  const restart = restartDistribution(graph, seeds, model.visible);
  if (restart.nodes.length === 0) return { nodes: new Uint32Array(0), scores: new Float64Array(0), residual: 0, pushes: 0 };
  return new ForwardPush(model, restart, alpha, epsilon).run(limit);
}

class ForwardPush {
  private readonly ws: Workspace;
  /** Nodes whose residual reached epsilon: every node pushed, and the hubs left unpushed. */
  private readonly listed: number[] = [];
  private readonly queue: number[] = [];
  /** Whether degrees must be counted (hidden nodes or kinds weighted 0); else the slot count is the degree. */
  private readonly counted: boolean;
  /** Out-weights and degrees of this walk's nodes, kept across calls. */
  private readonly nodes: WalkNodeCache;

  constructor(
    private readonly model: TransitionModel,
    private readonly restart: RestartDistribution,
    private readonly alpha: number,
    private readonly epsilon: number,
  ) {
    this.ws = workspaceFor(model.graph);
    this.nodes = walkNodeCache(model);
    const kindWeights = [...(model.forward ? model.forwardWeight : []), ...(model.backward ? model.backwardWeight : [])];
    this.counted = model.visible !== undefined || kindWeights.some((w) => w === 0);
  }

  run(limit: number): LocalPageRankResult {
    const { ws, model, queue, alpha } = this;
    const g = model.graph;
    const vis = model.visible;
    this.spreadOverSeeds(1);
    let pushes = 0;
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head]!;
      ws.queued[u] = 0;
      const ru = ws.residual[u]!;
      ws.residual[u] = 0;
      ws.estimate[u]! += alpha * ru;
      pushes++;
      let total = this.nodes.total[u]!;
      if (total !== total) total = this.nodes.total[u] = outWeight(model, u);
      const rest = (1 - alpha) * ru;
      if (total === 0) {
        this.spreadOverSeeds(rest);
        continue;
      }
      const share = rest / total;
      if (model.forward) {
        const kw = model.forwardWeight;
        for (let e = g.outOffsets[u]!, end = g.outOffsets[u + 1]!; e < end; e++) {
          const v = g.outTargets[e]!;
          if (vis !== undefined && vis[v] !== 1) continue;
          const w = kw[g.outKinds[e]!]! * (model.byConfidence ? g.outConfidence[e]! : 1);
          if (w > 0) this.add(v, share * w);
        }
      }
      if (model.backward) {
        const kw = model.backwardWeight;
        for (let e = g.inOffsets[u]!, end = g.inOffsets[u + 1]!; e < end; e++) {
          const v = g.inSources[e]!;
          if (vis !== undefined && vis[v] !== 1) continue;
          const w = kw[g.inKinds[e]!]! * (model.byConfidence ? g.inConfidence[e]! : 1);
          if (w > 0) this.add(v, share * w);
        }
      }
    }
    return this.result(limit, pushes);
  }

  private spreadOverSeeds(mass: number): void {
    const { nodes, weights } = this.restart;
    for (let i = 0; i < nodes.length; i++) this.add(nodes[i]!, mass * weights[i]!);
  }

  /** Adds residual to v, queueing it when it crosses its threshold. */
  private add(v: number, amount: number): void {
    const ws = this.ws;
    if (ws.stamp[v] !== ws.epoch) {
      ws.stamp[v] = ws.epoch;
      ws.residual[v] = 0;
      ws.estimate[v] = 0;
      ws.queued[v] = 0;
      ws.listed[v] = 0;
    }
    const r = (ws.residual[v]! += amount);
    if (ws.queued[v] === 1 || r < this.epsilon) return;
    if (ws.listed[v] === 0) {
      ws.listed[v] = 1;
      this.listed.push(v);
    }
    // The slot count bounds the degree from above, so a residual over its threshold needs no
    // count; only with hidden nodes or a kind filter is the degree counted, once per node.
    if (r >= this.epsilon * Math.max(1, this.slots(v)) || (this.counted && r >= this.epsilon * Math.max(1, this.degree(v)))) {
      ws.queued[v] = 1;
      this.queue.push(v);
    }
  }

  /** Edge slots at v in the walk's directions: its degree when nothing is hidden or filtered. */
  private slots(v: number): number {
    const g = this.model.graph;
    let d = 0;
    if (this.model.forward) d += g.outOffsets[v + 1]! - g.outOffsets[v]!;
    if (this.model.backward) d += g.inOffsets[v + 1]! - g.inOffsets[v]!;
    return d;
  }

  /** Number of slots at v the walk may follow: into visible nodes, of kinds weighted above 0. */
  private degree(v: number): number {
    const known = this.nodes.degree[v]!;
    return known >= 0 ? known : (this.nodes.degree[v] = walkDegree(this.model, v));
  }

  private result(limit: number, pushes: number): LocalPageRankResult {
    const { ws, alpha } = this;
    // A walk restarted at v is still at v with probability ≥ alpha, so alpha × r(v) more at v
    // keeps the estimate a lower bound, and lifts the hubs whose residual stayed unpushed. A node
    // whose residual never reached epsilon is left out: it would score below alpha × epsilon.
    let listedMass = 0;
    for (const v of this.listed) listedMass += ws.estimate[v]! += alpha * ws.residual[v]!;
    const nodes = topByScore(this.listed, ws.estimate, limit);
    const scores = Float64Array.from(nodes, (v) => ws.estimate[v]!);
    // Estimate and residual always add up to 1, so what the listed nodes lack is the shortfall.
    return { nodes, scores, residual: Math.max(0, 1 - listedMass), pushes };
  }
}
