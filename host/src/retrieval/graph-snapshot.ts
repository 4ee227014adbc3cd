import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import type { GraphStore, LiveNodeTuple, OriginEdgeTuple } from '../store/index.js';
import { buildCsrGraph, type CsrGraph } from './csr-graph.js';

const EDGE_KIND_INDEX = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));

/** The edges one file's analysis made, in store ids, in the order they were stored. */
interface EdgeGroup {
  src: Int32Array;
  dst: Int32Array;
  /** Index into `EDGE_KINDS`; 255 for a kind this host does not know (left out of the graph). */
  kind: Uint8Array;
  confidence: Float32Array;
}

const UNKNOWN_KIND = 255;

/**
 * Which paths changed between two graph versions (`from` < `to`), as a change record knows
 * them; undefined when it does not know them all.
 */
export type ChangedPaths = (from: number, to: number) => ReadonlySet<string> | undefined;

/**
 * The live graph of one store, loaded once into typed arrays for traversal. Dense node
 * indexes 0..n-1 stand for store ids ({@link storeIdOf}); names, paths and lines are kept
 * so results can be printed without another query. Tombstoned nodes are left out.
 * Rebuild it when {@link graphVersion} no longer equals the store's — or, when the paths that
 * changed are known, {@link refresh} it: only their nodes and edges are read again.
 *
 * Nodes are in store-id order; edges grouped by the file whose analysis made them (sorted by
 * path), each group in the order it was stored — so a refreshed snapshot equals a loaded one.
 */
export class GraphSnapshot {
  private constructor(
    /** The store's `graph_version` this snapshot was read at. */
    readonly graphVersion: number,
    readonly graph: CsrGraph,
    private readonly storeIds: Int32Array,
    /** Dense index + 1 by store id (0: not live); store ids are the table's small integer keys. */
    private readonly denseById: Int32Array,
    /** Per node: kind, name, qualified name, file path, 1-based lines (0 = unknown), corpus, acl. */
    readonly kinds: readonly string[],
    readonly names: readonly string[],
    readonly qualifiedNames: readonly (string | null)[],
    readonly paths: readonly string[],
    readonly startLines: Int32Array,
    readonly endLines: Int32Array,
    readonly corpora: readonly string[],
    readonly acls: readonly string[],
    /** What it was built from, kept for {@link refresh}: the edges per origin path, and those paths sorted. */
    private readonly edgeGroups: ReadonlyMap<string, EdgeGroup>,
    private readonly origins: readonly string[],
  ) {}

  /** Reads every live node and edge of `store` in one read snapshot. */
  static load(store: GraphStore): GraphSnapshot {
    return store.snapshot(() => GraphSnapshot.loadNow(store));
  }

  /**
   * The snapshot of the store's current graph, made from `old`: the same one when the graph
   * version did not move; else, when `changed` knows the paths that changed since `old` (at
   * most `maxPaths`), `old` with the nodes of those paths and the edges their analyses made read
   * again; else loaded whole. One read snapshot.
   */
  static refresh(store: GraphStore, old: GraphSnapshot, changed: ChangedPaths, maxPaths = 2000): GraphSnapshot {
    return store.snapshot(() => {
      const version = store.graphVersion();
      if (version === old.graphVersion) return old;
      const paths = version > old.graphVersion ? changed(old.graphVersion, version) : undefined;
      if (!paths || paths.size > maxPaths) return GraphSnapshot.loadNow(store);
      const list = [...paths];
      // The nodes of the other paths are copied column by column from the old snapshot.
      const nodes = mergeColumns(old.columns(), paths, store.liveNodeColumns(list));
      const groups = new Map(old.edgeGroups);
      for (const p of list) groups.delete(p);
      const fresh = groupEdges(store.originEdgeColumns(list));
      for (const [p, g] of fresh) groups.set(p, g);
      const added = [...fresh.keys()].filter((p) => !old.edgeGroups.has(p));
      const origins = (added.length > 0 ? [...old.origins, ...added].sort() : old.origins).filter((p) => groups.has(p));
      return GraphSnapshot.build(version, nodes, groups, origins);
    });
  }

  private static loadNow(store: GraphStore): GraphSnapshot {
    const version = store.graphVersion();
    const groups = groupEdges(store.originEdgeColumns());
    return GraphSnapshot.build(version, columnsOf(store.liveNodeColumns()), groups, [...groups.keys()].sort());
  }

  /** The node columns this snapshot was built from (shared, never changed). */
  private columns(): NodeColumns {
    const { storeIds, kinds, names, qualifiedNames, paths, startLines, endLines, corpora, acls } = this;
    return { storeIds, kinds, names, qualifiedNames, paths, startLines, endLines, corpora, acls };
  }

  private static build(
    version: number,
    nodes: NodeColumns,
    groups: ReadonlyMap<string, EdgeGroup>,
    origins: readonly string[],
  ): GraphSnapshot {
    const n = nodes.storeIds.length;
    // In store-id order: the last id is the largest.
    const denseById = new Int32Array((n > 0 ? nodes.storeIds[n - 1]! : 0) + 1);
    for (let i = 0; i < n; i++) denseById[nodes.storeIds[i]!] = i + 1;
    let total = 0;
    for (const g of groups.values()) total += g.src.length;
    const src = new Uint32Array(total);
    const dst = new Uint32Array(total);
    const kind = new Uint8Array(total);
    const confidence = new Float32Array(total);
    let m = 0;
    for (const origin of origins) {
      const g = groups.get(origin)!;
      for (let i = 0; i < g.src.length; i++) {
        const s = denseById[g.src[i]!] ?? 0;
        const d = denseById[g.dst[i]!] ?? 0;
        const k = g.kind[i]!;
        if (s === 0 || d === 0 || k === UNKNOWN_KIND) continue; // an edge of a tombstoned node
        src[m] = s - 1;
        dst[m] = d - 1;
        kind[m] = k;
        confidence[m] = g.confidence[i]!;
        m++;
      }
    }
    // Made here from the store's rows: every index is in range and every kind known.
    const graph = buildCsrGraph(
      n,
      { src: src.subarray(0, m), dst: dst.subarray(0, m), kind: kind.subarray(0, m), confidence: confidence.subarray(0, m) },
      { checked: false },
    );
    return new GraphSnapshot(
      version,
      graph,
      nodes.storeIds,
      denseById,
      nodes.kinds,
      nodes.names,
      nodes.qualifiedNames,
      nodes.paths,
      nodes.startLines,
      nodes.endLines,
      nodes.corpora,
      nodes.acls,
      groups,
      origins,
    );
  }

  /** Number of nodes. */
  get nodeCount(): number {
    return this.storeIds.length;
  }

  /** The store id (nodes.id) of dense node `i`. */
  storeIdOf(i: number): number {
    return this.storeIds[i]!;
  }

  /** The dense index of store id `id`, or undefined when it is not live. */
  denseOf(id: number): number | undefined {
    const d = Number.isInteger(id) && id >= 0 ? (this.denseById[id] ?? 0) : 0;
    return d === 0 ? undefined : d - 1;
  }

  /** The edge kind of a CSR kind index. */
  static edgeKind(index: number): EdgeKind {
    return EDGE_KINDS[index]!;
  }

  /** The CSR kind index of an edge kind. */
  static edgeKindIndex(kind: EdgeKind): number {
    return EDGE_KIND_INDEX.get(kind)!;
  }
}

/** Edges grouped by origin path, each group in the order given. */
function groupEdges(rows: readonly OriginEdgeTuple[]): Map<string, EdgeGroup> {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r[0], (counts.get(r[0]) ?? 0) + 1);
  const groups = new Map<string, EdgeGroup & { n: number }>();
  for (const [p, c] of counts)
    groups.set(p, { src: new Int32Array(c), dst: new Int32Array(c), kind: new Uint8Array(c), confidence: new Float32Array(c), n: 0 });
  for (const r of rows) {
    const g = groups.get(r[0])!;
    const i = g.n++;
    g.src[i] = r[1];
    g.dst[i] = r[2];
    g.kind[i] = EDGE_KIND_INDEX.get(r[3]) ?? UNKNOWN_KIND;
    g.confidence[i] = r[4];
  }
  return groups;
}

/** The live nodes as columns, in store-id order (see the fields of {@link GraphSnapshot}). */
interface NodeColumns {
  storeIds: Int32Array;
  kinds: readonly string[];
  names: readonly string[];
  qualifiedNames: readonly (string | null)[];
  paths: readonly string[];
  startLines: Int32Array;
  endLines: Int32Array;
  corpora: readonly string[];
  acls: readonly string[];
}

/** Node rows (ordered by id) as columns, with one string per distinct kind, path, corpus and acl. */
function columnsOf(rows: readonly LiveNodeTuple[]): NodeColumns {
  const c = new ColumnsBuilder(rows.length);
  for (const r of rows) c.row(r);
  return c.done();
}

/**
 * The columns of `old` without the nodes of `changed` paths, merged by store id with `fresh`
 * (the live rows of those paths, ordered by id): what {@link columnsOf} gives for the same rows.
 * When the changed paths kept every node they had (an edit that adds definitions: new ids
 * come last), the columns are copied whole and those rows written over.
 */
function mergeColumns(old: NodeColumns, changed: ReadonlySet<string>, fresh: readonly LiveNodeTuple[]): NodeColumns {
  const n0 = old.storeIds.length;
  const at: number[] = [];
  for (let i = 0; i < n0; i++) if (changed.has(old.paths[i]!)) at.push(i);
  let f = 0;
  while (f < at.length && f < fresh.length && fresh[f]![0] === old.storeIds[at[f]!]) f++;
  const maxId = n0 > 0 ? old.storeIds[n0 - 1]! : 0;
  if (f === at.length && fresh.slice(f).every((r) => r[0] > maxId)) return overwritten(old, at, fresh);
  const c = new ColumnsBuilder(n0 - at.length + fresh.length);
  let i = 0;
  let j = 0;
  while (i < n0 || j < fresh.length) {
    if (i < n0 && changed.has(old.paths[i]!)) i++;
    else if (j < fresh.length && (i >= n0 || fresh[j]![0] < old.storeIds[i]!)) c.row(fresh[j++]!);
    else c.copy(old, i++);
  }
  return c.done();
}

/**
 * `old`'s columns with rows `at` replaced by the first `at.length` of `fresh` and the rest of
 * `fresh` appended. A column whose values did not change is shared with `old`, not copied
 * (columns are never written after they are built): an edit inside a function moves only lines.
 */
function overwritten(old: NodeColumns, at: readonly number[], fresh: readonly LiveNodeTuple[]): NodeColumns {
  const n0 = old.storeIds.length;
  const n = n0 + fresh.length - at.length;
  const appended = fresh.length > at.length;
  const ints = (a: Int32Array, col: 0 | 5 | 6) => {
    if (!appended && at.every((i, f) => a[i] === (fresh[f]![col] ?? 0))) return a;
    const out = new Int32Array(n);
    out.set(a);
    fresh.forEach((r, f) => (out[f < at.length ? at[f]! : n0 + f - at.length] = r[col] ?? 0));
    return out;
  };
  const strings = <T extends string | null>(a: readonly T[], col: 1 | 2 | 3 | 4 | 7 | 8): readonly T[] => {
    if (!appended && at.every((i, f) => a[i] === fresh[f]![col])) return a;
    const out = a.slice();
    fresh.forEach((r, f) => (out[f < at.length ? at[f]! : n0 + f - at.length] = r[col] as T));
    return out;
  };
  return {
    storeIds: ints(old.storeIds, 0),
    kinds: strings(old.kinds, 1),
    names: strings(old.names, 2),
    qualifiedNames: strings(old.qualifiedNames, 3),
    paths: strings(old.paths, 4),
    startLines: ints(old.startLines, 5),
    endLines: ints(old.endLines, 6),
    corpora: strings(old.corpora, 7),
    acls: strings(old.acls, 8),
  };
}

/** Fills {@link NodeColumns} in order. */
class ColumnsBuilder {
  private readonly storeIds: Int32Array;
  private readonly startLines: Int32Array;
  private readonly endLines: Int32Array;
  private readonly kinds: string[];
  private readonly names: string[];
  private readonly qualifiedNames: (string | null)[];
  private readonly paths: string[];
  private readonly corpora: string[];
  private readonly acls: string[];
  private readonly intern = new Map<string, string>();
  private n = 0;

  constructor(size: number) {
    this.storeIds = new Int32Array(size);
    this.startLines = new Int32Array(size);
    this.endLines = new Int32Array(size);
    this.kinds = new Array<string>(size);
    this.names = new Array<string>(size);
    this.qualifiedNames = new Array<string | null>(size);
    this.paths = new Array<string>(size);
    this.corpora = new Array<string>(size);
    this.acls = new Array<string>(size);
  }

  /** One string per distinct value among the rows added (kinds, paths, corpora, acls repeat). */
  private same(s: string): string {
    const hit = this.intern.get(s);
    if (hit !== undefined) return hit;
    this.intern.set(s, s);
    return s;
  }

  row(r: LiveNodeTuple): void {
    const i = this.n++;
    this.storeIds[i] = r[0];
    this.kinds[i] = this.same(r[1]);
    this.names[i] = r[2];
    this.qualifiedNames[i] = r[3];
    this.paths[i] = this.same(r[4]);
    this.startLines[i] = r[5] ?? 0;
    this.endLines[i] = r[6] ?? 0;
    this.corpora[i] = this.same(r[7]);
    this.acls[i] = this.same(r[8]);
  }

  /** Node `i` of `from`, as it is. */
  copy(from: NodeColumns, i: number): void {
    const k = this.n++;
    this.storeIds[k] = from.storeIds[i]!;
    this.kinds[k] = from.kinds[i]!;
    this.names[k] = from.names[i]!;
    this.qualifiedNames[k] = from.qualifiedNames[i]!;
    this.paths[k] = from.paths[i]!;
    this.startLines[k] = from.startLines[i]!;
    this.endLines[k] = from.endLines[i]!;
    this.corpora[k] = from.corpora[i]!;
    this.acls[k] = from.acls[i]!;
  }

  done(): NodeColumns {
    const { storeIds, kinds, names, qualifiedNames, paths, startLines, endLines, corpora, acls } = this;
    return { storeIds, kinds, names, qualifiedNames, paths, startLines, endLines, corpora, acls };
  }
}
