import { checkNode, checkRange, RetrievalError, RetrievalErrorCode } from './errors.js';
import { EventQueue } from './event-queue.js';

/** Undirected edges of a PCST instance: edge i joins `src[i]` and `dst[i]` at `cost[i]` ≥ 0. */
export interface PcstEdges {
  readonly src: ArrayLike<number>;
  readonly dst: ArrayLike<number>;
  readonly cost: ArrayLike<number>;
}

/** Options of {@link prizeCollectingSteinerTree}. */
export interface PcstOptions {
  /** The result must contain this node; it is then always one tree. Default: unrooted. */
  root?: number;
  /**
   * Unrooted only: how many trees the result may have (a forest), the most valuable first.
   * Default 1: the single best tree.
   */
  maxTrees?: number;
}

/** The selected subgraph: a tree containing the root, or (unrooted) a forest of ≤ maxTrees trees. */
export interface PcstResult {
  /** Selected node ids, ascending. */
  readonly nodes: Uint32Array;
  /** Indices of the selected edges into the input edge list, ascending. */
  readonly edges: Uint32Array;
  /** Sum of the selected nodes' prizes. */
  readonly prize: number;
  /** Sum of the selected edges' costs. */
  readonly cost: number;
  /** Number of trees in the result (0 when nothing is worth selecting). */
  readonly trees: number;
}

/** Tolerance of the growth phase, relative to the largest prize or cost. */
const TOL = 1e-10;

/**
 * Prize-Collecting Steiner Tree: a connected set of nodes and edges that collects a lot of
 * prize for little edge cost, i.e. (nearly) minimises `cost(selected edges) + prize(nodes left
 * out)`. Goemans–Williamson moat growth (each node a cluster whose moat grows until its prize
 * is paid for; an edge whose cost is covered by the moats of its two sides merges them) followed
 * by strong pruning (Johnson–Minkoff–Phillips; as in Hegde et al.'s pcst_fast): on every tree the
 * growth built, the best subtree is kept by a linear dynamic programme. The growth is the
 * unrooted variant when there is no root: every cluster grows until it is paid for, and each
 * tree is then pruned with its best top node. Rooted, this is a 2-approximation of the optimum;
 * a node or an edge that adds nothing is dropped, so a zero-prize node stays only to connect.
 *
 * Event-driven with a binary heap, O((m + e) log m) for e growth events; edge end points are
 * found through the cluster merge tree with path compression.
 *
 * @example
 * ```ts
 * const { nodes, edges } = prizeCollectingSteinerTree(scores, { src, dst, cost }, { root: entry });
 * ```
 * @throws RetrievalError `INVALID_INPUT` when arrays differ in length or a prize or cost is
 *   negative or not finite, `EDGE_OUT_OF_RANGE` for an edge end point outside the prizes,
 *   `NODE_OUT_OF_RANGE` for a root outside them, `INVALID_OPTION` for a bad maxTrees.
 */
export function prizeCollectingSteinerTree(prizes: ArrayLike<number>, edges: PcstEdges, opts: PcstOptions = {}): PcstResult {
  const n = prizes.length;
  checkInput(prizes, edges);
  const root = opts.root ?? -1;
  if (opts.root !== undefined) checkNode('root', opts.root, n);
  const maxTrees = opts.maxTrees ?? 1;
  checkRange('maxTrees', maxTrees, 1, Infinity);
  if (!Number.isInteger(maxTrees) && maxTrees !== Infinity)
    throw new RetrievalError(
      RetrievalErrorCode.InvalidOption,
      `maxTrees is ${maxTrees}; pass a whole number of trees, or Infinity for all`,
    );
  if (n === 0) return { nodes: new Uint32Array(0), edges: new Uint32Array(0), prize: 0, cost: 0, trees: 0 };
  let scale = 0;
  for (let v = 0; v < n; v++) scale = Math.max(scale, prizes[v]!);
  for (let e = 0; e < edges.cost.length; e++) scale = Math.max(scale, edges.cost[e]!);
  if (scale === 0) scale = 1;
  const forest = new MoatGrowth(prizes, edges, root, scale).run();
  return new StrongPruning(prizes, edges, forest, scale).select(root, maxTrees);
}

function checkInput(prizes: ArrayLike<number>, edges: PcstEdges): void {
  const n = prizes.length;
  const m = edges.src.length;
  if (edges.dst.length !== m || edges.cost.length !== m)
    throw new RetrievalError(
      RetrievalErrorCode.InvalidInput,
      `edge arrays differ in length (src ${m}, dst ${edges.dst.length}, cost ${edges.cost.length}); every edge needs all three`,
    );
  for (let v = 0; v < n; v++) {
    const p = prizes[v]!;
    if (!(p >= 0 && p < Infinity))
      throw new RetrievalError(RetrievalErrorCode.InvalidInput, `node ${v} has prize ${p}; prizes must be finite and ≥ 0`);
  }
  for (let e = 0; e < m; e++) {
    const s = edges.src[e]!;
    const d = edges.dst[e]!;
    if (!(Number.isInteger(s) && Number.isInteger(d) && s >= 0 && d >= 0 && s < n && d < n))
      throw new RetrievalError(
        RetrievalErrorCode.EdgeOutOfRange,
        `edge ${e} (${s} — ${d}) names a node outside the ${n} prizes; number the candidate nodes 0..${n - 1}`,
      );
    const c = edges.cost[e]!;
    if (!(c >= 0 && c < Infinity))
      throw new RetrievalError(RetrievalErrorCode.InvalidInput, `edge ${e} has cost ${c}; costs must be finite and ≥ 0`);
  }
}

/**
 * The Goemans–Williamson growth phase. Clusters 0..n-1 are the nodes; each merge creates a
 * new cluster. A cluster grows (its moat y increases at rate 1) while it is active; it is
 * active from its creation until its moats pay for its prizes, or forever inactive when it
 * holds the root. The moat sum d(v) of node v is the sum of y over the clusters holding it;
 * edge (u, v) goes tight when d(u) + d(v) reaches its cost.
 *
 * Edge events are kept as lower bounds of their tight time: when an event fires, the edge is
 * re-evaluated and rescheduled if it is not tight yet. An inactive end point does not grow, so
 * its edge is also parked on that cluster; when the cluster is merged into an active one its
 * parked edges are re-evaluated, since they may now go tight sooner.
 */
class MoatGrowth {
  private readonly n: number;
  private readonly m: number;
  private readonly src: ArrayLike<number>;
  private readonly dst: ArrayLike<number>;
  private readonly cost: Float64Array;
  private readonly queue: EventQueue;
  private clusters: number;
  // Per cluster.
  private readonly parent: Int32Array;
  private readonly jump: Int32Array;
  private readonly jumpSum: Float64Array;
  private readonly start: Float64Array;
  private readonly end: Float64Array;
  private readonly active: Uint8Array;
  private readonly prizeSum: Float64Array;
  private readonly subMoat: Float64Array;
  private readonly hasRoot: Uint8Array;
  private readonly parkHead: Int32Array;
  private readonly parkTail: Int32Array;
  // Parked edges: linked lists.
  private readonly parkEdge: number[] = [];
  private readonly parkNext: number[] = [];
  // Per edge.
  private readonly version: Uint32Array;
  private readonly done: Uint8Array;
  private readonly stack: Int32Array;
  private readonly forest: number[] = [];
  private foundRoot = 0;

  constructor(prizes: ArrayLike<number>, edges: PcstEdges, root: number, scale: number) {
    const n = (this.n = prizes.length);
    const m = (this.m = edges.src.length);
    this.src = edges.src;
    this.dst = edges.dst;
    this.cost = Float64Array.from({ length: m }, (_, e) => edges.cost[e]! / scale);
    this.queue = new EventQueue(m + n);
    this.clusters = n;
    const c = 2 * n;
    this.parent = new Int32Array(c).fill(-1);
    this.jump = new Int32Array(c).fill(-1);
    this.jumpSum = new Float64Array(c);
    this.start = new Float64Array(c);
    this.end = new Float64Array(c);
    this.active = new Uint8Array(c);
    this.prizeSum = new Float64Array(c);
    this.subMoat = new Float64Array(c);
    this.hasRoot = new Uint8Array(c);
    this.parkHead = new Int32Array(c).fill(-1);
    this.parkTail = new Int32Array(c).fill(-1);
    this.version = new Uint32Array(m);
    this.done = new Uint8Array(m);
    this.stack = new Int32Array(c);
    for (let v = 0; v < n; v++) {
      const p = prizes[v]! / scale;
      this.prizeSum[v] = p;
      if (v === root) this.hasRoot[v] = 1;
      else if (p > TOL) {
        this.active[v] = 1;
        this.queue.push(p, m + v);
      }
    }
  }

  /** Runs the growth; returns the edges that went tight (a forest). */
  run(): number[] {
    for (let e = 0; e < this.m; e++) {
      if (this.src[e] === this.dst[e]) this.done[e] = 1;
      else this.reconsider(e, 0, false);
    }
    const q = this.queue;
    while (q.pop()) {
      const t = q.topTime;
      const id = q.topId;
      if (id >= this.m) {
        const c = id - this.m;
        if (this.parent[c] === -1 && this.active[c] === 1) {
          this.active[c] = 0;
          this.end[c] = t;
        }
      } else if (this.done[id] === 0 && q.topTag === this.version[id]) {
        this.reconsider(id, t, true);
      }
    }
    return this.forest;
  }

  /** y of cluster c at time t. */
  private moat(c: number, t: number): number {
    return (this.active[c] === 1 ? t : this.end[c]!) - this.start[c]!;
  }

  /** d(v) at time t; sets foundRoot to v's current cluster. */
  private moatSum(v: number, t: number): number {
    const { parent, jump, jumpSum, stack } = this;
    let c = v;
    let sum = 0;
    let k = 0;
    while (parent[c] !== -1) {
      stack[k++] = c;
      sum += jumpSum[c]!;
      c = jump[c]!;
    }
    // Path compression: every cluster on the way now jumps straight to c. The moats skipped
    // are final (those clusters were merged), so the sums stay valid when c merges later.
    for (let i = k - 1, acc = 0; i >= 0; i--) {
      const x = stack[i]!;
      acc += jumpSum[x]!;
      jumpSum[x] = acc;
      jump[x] = c;
    }
    this.foundRoot = c;
    return sum + this.moat(c, t);
  }

  /** Re-evaluates edge e at time t: merge if tight (when allowed), else schedule or park. */
  private reconsider(e: number, t: number, mayMerge: boolean): void {
    const du = this.moatSum(this.src[e]!, t);
    const ru = this.foundRoot;
    const dv = this.moatSum(this.dst[e]!, t);
    const rv = this.foundRoot;
    if (ru === rv) {
      this.done[e] = 1;
      return;
    }
    const rest = this.cost[e]! - du - dv;
    const tag = ++this.version[e]!;
    if (rest <= TOL) {
      if (mayMerge) this.merge(ru, rv, e, t);
      else this.queue.push(t, e, tag);
      return;
    }
    const au = this.active[ru] === 1;
    const av = this.active[rv] === 1;
    if (au && av) this.queue.push(t + rest / 2, e, tag);
    else if (au || av) {
      this.queue.push(t + rest, e, tag);
      this.park(au ? rv : ru, e);
    } else {
      this.park(ru, e);
      this.park(rv, e);
    }
  }

  private park(c: number, e: number): void {
    const i = this.parkEdge.length;
    this.parkEdge.push(e);
    this.parkNext.push(-1);
    if (this.parkHead[c] === -1) this.parkHead[c] = i;
    else this.parkNext[this.parkTail[c]!] = i;
    this.parkTail[c] = i;
  }

  private merge(a: number, b: number, e: number, t: number): void {
    const c = this.clusters++;
    this.done[e] = 1;
    this.forest.push(e);
    for (const x of [a, b]) {
      if (this.active[x] === 1) {
        this.active[x] = 0;
        this.end[x] = t;
      }
      this.parent[x] = c;
      this.jump[x] = c;
      this.jumpSum[x] = this.end[x]! - this.start[x]!;
    }
    this.start[c] = t;
    this.prizeSum[c] = this.prizeSum[a]! + this.prizeSum[b]!;
    this.subMoat[c] = this.subMoat[a]! + this.jumpSum[a]! + this.subMoat[b]! + this.jumpSum[b]!;
    this.hasRoot[c] = this.hasRoot[a]! | this.hasRoot[b]!;
    // Join the parked lists of a and b.
    let head = this.parkHead[a]!;
    let tail = this.parkTail[a]!;
    if (this.parkHead[b] !== -1) {
      if (head === -1) head = this.parkHead[b]!;
      else this.parkNext[tail] = this.parkHead[b]!;
      tail = this.parkTail[b]!;
    }
    const potential = this.prizeSum[c] - this.subMoat[c];
    if (this.hasRoot[c] === 0 && potential > TOL) {
      this.active[c] = 1;
      this.queue.push(t + potential, this.m + c);
      // c grows where a or b did not: its parked edges may go tight sooner now.
      for (let i = head; i !== -1; i = this.parkNext[i]!) {
        const pe = this.parkEdge[i]!;
        if (this.done[pe] === 0) this.reconsider(pe, t, false);
      }
    } else {
      this.end[c] = t;
      this.parkHead[c] = head;
      this.parkTail[c] = tail;
    }
  }
}

/**
 * Strong pruning of the growth forest: on a tree hung from node r, value(v) = prize(v) + the
 * sum over children c of max(0, value(c) − cost(v, c)) is the best net prize of a subtree whose
 * top node is v; a child whose contribution is not positive is cut off.
 */
class StrongPruning {
  private readonly n: number;
  private readonly offsets: Uint32Array;
  private readonly adjNode: Uint32Array;
  private readonly adjEdge: Uint32Array;
  private readonly value: Float64Array;
  private readonly parentEdge: Int32Array;
  private readonly seen: Uint8Array;
  private readonly eps: number;

  constructor(
    private readonly prizes: ArrayLike<number>,
    private readonly edges: PcstEdges,
    forest: number[],
    scale: number,
  ) {
    const n = (this.n = prizes.length);
    this.eps = TOL * scale;
    this.offsets = new Uint32Array(n + 1);
    for (const e of forest) {
      this.offsets[edges.src[e]! + 1]!++;
      this.offsets[edges.dst[e]! + 1]!++;
    }
    for (let v = 0; v < n; v++) this.offsets[v + 1]! += this.offsets[v]!;
    const next = this.offsets.slice(0, n);
    this.adjNode = new Uint32Array(2 * forest.length);
    this.adjEdge = new Uint32Array(2 * forest.length);
    for (const e of forest) {
      const s = edges.src[e]!;
      const d = edges.dst[e]!;
      this.adjNode[next[s]!] = d;
      this.adjEdge[next[s]!++] = e;
      this.adjNode[next[d]!] = s;
      this.adjEdge[next[d]!++] = e;
    }
    this.value = new Float64Array(n);
    this.parentEdge = new Int32Array(n).fill(-1);
    this.seen = new Uint8Array(n);
  }

  select(root: number, maxTrees: number): PcstResult {
    const picks: { top: number; value: number }[] = [];
    if (root >= 0) {
      this.hang(root);
      picks.push({ top: root, value: this.value[root]! });
    } else {
      for (let r = 0; r < this.n; r++) {
        if (this.seen[r] === 1) continue;
        const order = this.hang(r);
        let top = r;
        // On a tie the later (deeper) node wins: a parent that only adds a free edge to it is left out.
        for (const v of order) if (this.value[v]! >= this.value[top]!) top = v;
        if (this.value[top]! > this.eps) picks.push({ top, value: this.value[top]! });
      }
      picks.sort((a, b) => b.value - a.value || a.top - b.top);
      picks.length = Math.min(picks.length, maxTrees);
    }
    const nodes: number[] = [];
    const chosen: number[] = [];
    for (const { top } of picks) this.collect(top, nodes, chosen);
    let prize = 0;
    let cost = 0;
    for (const v of nodes) prize += this.prizes[v]!;
    for (const e of chosen) cost += this.edges.cost[e]!;
    return {
      nodes: Uint32Array.from(nodes).sort(),
      edges: Uint32Array.from(chosen).sort(),
      prize,
      cost,
      trees: picks.length,
    };
  }

  /** Hangs the tree of r from r (parentEdge) and computes value bottom-up; returns its nodes top-down. */
  private hang(r: number): number[] {
    const order = [r];
    this.seen[r] = 1;
    for (let i = 0; i < order.length; i++) {
      const v = order[i]!;
      for (let j = this.offsets[v]!, end = this.offsets[v + 1]!; j < end; j++) {
        const u = this.adjNode[j]!;
        if (this.seen[u] === 1) continue;
        this.seen[u] = 1;
        this.parentEdge[u] = this.adjEdge[j]!;
        order.push(u);
      }
    }
    for (const v of order) this.value[v] = this.prizes[v]!;
    for (let i = order.length - 1; i > 0; i--) {
      const v = order[i]!;
      const gain = this.value[v]! - this.edges.cost[this.parentEdge[v]!]!;
      if (gain > this.eps) {
        const e = this.parentEdge[v]!;
        const p = this.edges.src[e] === v ? this.edges.dst[e]! : this.edges.src[e]!;
        this.value[p]! += gain;
      }
    }
    return order;
  }

  /** Adds top and the children worth keeping, recursively, to the selection. */
  private collect(top: number, nodes: number[], chosen: number[]): void {
    const stack = [top];
    while (stack.length > 0) {
      const v = stack.pop()!;
      nodes.push(v);
      for (let j = this.offsets[v]!, end = this.offsets[v + 1]!; j < end; j++) {
        const u = this.adjNode[j]!;
        const e = this.adjEdge[j]!;
        if (this.parentEdge[u] !== e || e === this.parentEdge[v]) continue; // not a child of v
        if (this.value[u]! - this.edges.cost[e]! > this.eps) {
          chosen.push(e);
          stack.push(u);
        }
      }
    }
  }
}
