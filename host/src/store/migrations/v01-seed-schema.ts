import type { Migration } from './migration.js';

/** v1: the seed's schema, verbatim. Every later migration builds on it. */
export const v01SeedSchema: Migration = {
  version: 1,
  name: 'seed schema: nodes, edges, files',
  up: `
CREATE TABLE nodes (
id INTEGER PRIMARY KEY,
corpus TEXT NOT NULL, -- the four VName fields below plus corpus
root TEXT NOT NULL, -- form the node's Kythe address
path TEXT NOT NULL,
language TEXT NOT NULL,
signature TEXT NOT NULL,
kind TEXT NOT NULL -- 'function' | 'class' | 'module' | ...
);
-- The VName is the real identity; the INTEGER id is a compact surrogate that
-- keeps the edge table narrow and its indexes cache-friendly.
CREATE UNIQUE INDEX idx_nodes_vname
ON nodes(corpus, root, path, language, signature);
CREATE TABLE edges (
src INTEGER NOT NULL,
dst INTEGER NOT NULL,
kind TEXT NOT NULL, -- 'calls' | 'imports' | 'inherits' | 'types' | ...
PRIMARY KEY (src, dst, kind)
);
CREATE INDEX idx_edges_src_kind ON edges(src, kind);
CREATE INDEX idx_edges_dst_kind ON edges(dst, kind);
CREATE TABLE files (
path TEXT PRIMARY KEY,
sha256 TEXT NOT NULL,
last_indexed_at INTEGER NOT NULL
);
`,
};
