import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import type { GraphStore } from '../store/index.js';
import { buildCsrGraph, type CsrGraph } from './csr-graph.js';

const EDGE_KIND_INDEX = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));

/**
 * The live graph of one store, loaded once into typed arrays for traversal. Dense node
 * indexes 0..n-1 stand for store ids ({@link storeIdOf}); names, paths and lines are kept
 * so results can be printed without another query. Tombstoned nodes are left out.
 * Rebuild it when {@link graphVersion} no longer equals the store's.
 */
export class GraphSnapshot {
  private constructor(
    /** The store's `graph_version` this snapshot was read at. */
    readonly graphVersion: number,
    readonly graph: CsrGraph,
    private readonly storeIds: Int32Array,
    private readonly denseById: Map<number, number>,
    /** Per node: kind, name, qualified name, file path, 1-based lines (0 = unknown), corpus, acl. */
    readonly kinds: readonly string[],
    readonly names: readonly string[],
    readonly qualifiedNames: readonly (string | null)[],
    readonly paths: readonly string[],
    readonly startLines: Int32Array,
    readonly endLines: Int32Array,
    readonly corpora: readonly string[],
    readonly acls: readonly string[],
  ) {}

  /** Reads every live node and edge of `store` in one read snapshot. */
  static load(store: GraphStore): GraphSnapshot {
    return store.snapshot(() => {
      const version = store.graphVersion();
      const rows = store.liveNodeColumns();
      const n = rows.length;
      const storeIds = new Int32Array(n);
      const denseById = new Map<number, number>();
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
        denseById.set(r[0], i);
        kinds[i] = same(r[1]);
        names[i] = r[2];
        qualifiedNames[i] = r[3];
        paths[i] = same(r[4]);
        startLines[i] = r[5] ?? 0;
        endLines[i] = r[6] ?? 0;
        corpora[i] = same(r[7]);
        acls[i] = same(r[8]);
      });
      const edges = store.edgeColumns();
      const src = new Uint32Array(edges.length);
      const dst = new Uint32Array(edges.length);
      const kind = new Uint8Array(edges.length);
      const confidence = new Float32Array(edges.length);
      let m = 0;
      for (const e of edges) {
        const s = denseById.get(e[0]);
        const d = denseById.get(e[1]);
        const k = EDGE_KIND_INDEX.get(e[2]);
        if (s === undefined || d === undefined || k === undefined) continue; // an edge of a tombstoned node
        src[m] = s;
        dst[m] = d;
        kind[m] = k;
        confidence[m] = e[3];
        m++;
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
      );
    });
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
    return this.denseById.get(id);
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
