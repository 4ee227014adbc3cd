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
    /** What it was built from, kept for {@link refresh}: the live node rows, the edges per origin path. */
    private readonly nodeRows: readonly LiveNodeTuple[],
    private readonly edgeGroups: ReadonlyMap<string, EdgeGroup>,
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
      const fresh = store.liveNodeColumnsOf(list);
      const kept = old.nodeRows.filter((r) => !paths.has(r[4]));
      const groups = new Map(old.edgeGroups);
      for (const p of list) groups.delete(p);
      for (const [p, g] of groupEdges(store.originEdgeColumns(list))) groups.set(p, g);
      return GraphSnapshot.build(version, mergeById(kept, fresh), groups);
    });
  }

  private static loadNow(store: GraphStore): GraphSnapshot {
    const version = store.graphVersion();
    return GraphSnapshot.build(version, store.liveNodeColumns(), groupEdges(store.originEdgeColumns()));
  }

  private static build(version: number, rows: readonly LiveNodeTuple[], groups: ReadonlyMap<string, EdgeGroup>): GraphSnapshot {
    const n = rows.length;
    const storeIds = new Int32Array(n);
    let maxId = 0;
    for (const r of rows) if (r[0] > maxId) maxId = r[0];
    const denseById = new Int32Array(maxId + 1);
    const kinds = new Array<string>(n);
    const names = new Array<string>(n);
    const qualifiedNames = new Array<string | null>(n);
    const paths = new Array<string>(n);
    const startLines = new Int32Array(n);
    const endLines = new Int32Array(n);
    const corpora = new Array<string>(n);
    const acls = new Array<string>(n);
    const intern = new Map<string, string>(); // one string per distinct path/corpus/acl/kind
    const same = (s: string) => {
      const hit = intern.get(s);
      if (hit !== undefined) return hit;
      intern.set(s, s);
      return s;
    };
    rows.forEach((r, i) => {
      storeIds[i] = r[0];
      denseById[r[0]] = i + 1;
      kinds[i] = same(r[1]);
      names[i] = r[2];
      qualifiedNames[i] = r[3];
      paths[i] = same(r[4]);
      startLines[i] = r[5] ?? 0;
      endLines[i] = r[6] ?? 0;
      corpora[i] = same(r[7]);
      acls[i] = same(r[8]);
    });
    let total = 0;
    for (const g of groups.values()) total += g.src.length;
    const src = new Uint32Array(total);
    const dst = new Uint32Array(total);
    const kind = new Uint8Array(total);
    const confidence = new Float32Array(total);
    let m = 0;
    for (const origin of [...groups.keys()].sort()) {
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
    const graph = buildCsrGraph(n, {
      src: src.subarray(0, m),
      dst: dst.subarray(0, m),
      kind: kind.subarray(0, m),
      confidence: confidence.subarray(0, m),
    });
    return new GraphSnapshot(
      version,
      graph,
      storeIds,
      denseById,
      kinds,
      names,
      qualifiedNames,
      paths,
      startLines,
      endLines,
      corpora,
      acls,
      rows,
      groups,
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

/** Two lists of node rows, each ordered by id, merged into one ordered by id. */
function mergeById(a: readonly LiveNodeTuple[], b: readonly LiveNodeTuple[]): LiveNodeTuple[] {
  if (b.length === 0) return a as LiveNodeTuple[];
  const out = new Array<LiveNodeTuple>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]![0] <= b[j]![0] ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}
