import type { NodeKind, Provenance } from '@travsr/protocol';
import type { StoreContext } from './store-context.js';
import type { ExportEdge, ExportNode, GraphExport } from './types.js';

// Live nodes; a placeholder only when an exported edge touches it.
const NODES_SQL = `
SELECT n.node_id, n.kind, n.name, n.qualified_name, n.path, n.language, n.signature,
       n.start_line, n.start_col, n.end_line, n.end_col
FROM nodes n
WHERE n.tombstoned_at IS NULL
  AND (n.kind <> 'external'
       OR EXISTS (SELECT 1 FROM edges e JOIN nodes o ON o.id = e.src WHERE e.dst = n.id AND o.tombstoned_at IS NULL)
       OR EXISTS (SELECT 1 FROM edges e JOIN nodes o ON o.id = e.dst WHERE e.src = n.id AND o.tombstoned_at IS NULL))
ORDER BY n.node_id`;

// Edges between live nodes. The same edge reported by several files (or by a plugin and the
// name matcher) is one line, with its highest confidence.
const EDGES_SQL = `
SELECT s.node_id AS src, d.node_id AS dst, e.kind, max(e.confidence) AS confidence, e.provenance
FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
WHERE s.tombstoned_at IS NULL AND d.tombstoned_at IS NULL
GROUP BY s.node_id, d.node_id, e.kind, e.provenance
ORDER BY s.node_id, d.node_id, e.kind, e.provenance`;

interface RawExportNode {
  node_id: string;
  kind: string;
  name: string;
  qualified_name: string | null;
  path: string;
  language: string;
  signature: string;
  start_line: number | null;
  start_col: number | null;
  end_line: number | null;
  end_col: number | null;
}

interface RawExportEdge {
  src: string;
  dst: string;
  kind: string;
  confidence: number;
  provenance: string;
}

/** See {@link GraphStore.exportGraph}. */
export function exportGraph(ctx: StoreContext): GraphExport {
  return {
    nodes: {
      *[Symbol.iterator]() {
        for (const r of ctx.stmt(NODES_SQL).iterate() as IterableIterator<RawExportNode>) {
          const node: ExportNode = {
            type: 'node',
            id: r.node_id,
            kind: r.kind as NodeKind | 'external',
            name: r.name,
            qualified_name: r.qualified_name,
            path: r.path,
            language: r.language,
            signature: r.signature,
            start_line: r.start_line,
            start_col: r.start_col,
            end_line: r.end_line,
            end_col: r.end_col,
          };
          yield node;
        }
      },
    },
    edges: {
      *[Symbol.iterator]() {
        for (const r of ctx.stmt(EDGES_SQL).iterate() as IterableIterator<RawExportEdge>) {
          const edge: ExportEdge = {
            type: 'edge',
            src: r.src,
            dst: r.dst,
            kind: r.kind,
            confidence: r.confidence,
            provenance: r.provenance as Provenance,
          };
          yield edge;
        }
      },
    },
  };
}
