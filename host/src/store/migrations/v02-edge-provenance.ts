import type { Migration } from './migration.js';

/**
 * v2: edge provenance, confidence, the `derived` flag (1 = made by the host from
 * name-matched refs, 0 = sent by a plugin) and `origin_path` (the file whose analysis
 * produced the edge); plus the `meta` key/value table.
 *
 * The v1 key (src, dst, kind) cannot hold the same edge from Phase A and Phase B at once,
 * and then re-running one phase would delete the other's edge; so the table is rebuilt
 * with provenance, derived and origin in its key. v1 edges become Phase A plugin edges of
 * their source node's file with confidence 1 (the next index replaces them anyway).
 */
export const v02EdgeProvenance: Migration = {
  version: 2,
  name: 'edge provenance, confidence, derived flag, origin path; meta table',
  up: `
CREATE TABLE edges_v2 (
  src INTEGER NOT NULL,
  dst INTEGER NOT NULL,
  kind TEXT NOT NULL,
  provenance TEXT NOT NULL,
  confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  derived INTEGER NOT NULL DEFAULT 0 CHECK (derived IN (0, 1)),
  origin_path TEXT NOT NULL,
  PRIMARY KEY (src, dst, kind, provenance, derived, origin_path)
);
INSERT INTO edges_v2 (src, dst, kind, provenance, confidence, derived, origin_path)
  SELECT e.src, e.dst, e.kind, 'phase-a', 1.0, 0, COALESCE((SELECT n.path FROM nodes n WHERE n.id = e.src), '')
  FROM edges e;
DROP TABLE edges;
ALTER TABLE edges_v2 RENAME TO edges;
CREATE INDEX idx_edges_src_kind ON edges(src, kind);
CREATE INDEX idx_edges_dst_kind ON edges(dst, kind);
CREATE INDEX idx_edges_origin ON edges(origin_path, derived, provenance);

CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
-- Bumped by every graph write; caches derived from the graph (k-core shells) record it.
INSERT INTO meta (key, value) VALUES ('graph_version', '0');
`,
};
