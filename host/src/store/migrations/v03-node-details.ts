import type Database from 'better-sqlite3';
import { nodeId } from '@travsr/protocol';
import type { Migration } from './migration.js';

/**
 * v3: what a node is beyond its address (NodeId, name, qualified name, source range,
 * skeleton), the per-file analysis status, and the unresolved references of each file.
 */
export const v03NodeDetails: Migration = {
  version: 3,
  name: 'node id, names, ranges, skeleton; file status; unresolved refs',
  up: (db: Database.Database) => {
    db.exec(`
ALTER TABLE nodes ADD COLUMN node_id TEXT;
ALTER TABLE nodes ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN qualified_name TEXT;
ALTER TABLE nodes ADD COLUMN start_line INTEGER;
ALTER TABLE nodes ADD COLUMN start_col INTEGER;
ALTER TABLE nodes ADD COLUMN end_line INTEGER;
ALTER TABLE nodes ADD COLUMN end_col INTEGER;
ALTER TABLE nodes ADD COLUMN skeleton TEXT;
`);
    // NodeId is BLAKE3 of the canonical VName: SQLite cannot compute it, so existing rows
    // get theirs here.
    const rows = db.prepare('SELECT id, corpus, root, path, language, signature FROM nodes').all() as {
      id: number;
      corpus: string;
      root: string;
      path: string;
      language: string;
      signature: string;
    }[];
    const set = db.prepare('UPDATE nodes SET node_id = ? WHERE id = ?');
    for (const r of rows) set.run(nodeId(r), r.id);
    db.exec(`
CREATE UNIQUE INDEX idx_nodes_node_id ON nodes(node_id);
CREATE INDEX idx_nodes_path ON nodes(path);
-- Name matching of refs: candidates by name within a corpus and language, same file first.
CREATE INDEX idx_nodes_name ON nodes(name, corpus, language, path);

ALTER TABLE files ADD COLUMN language TEXT;
ALTER TABLE files ADD COLUMN status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'failed', 'skipped'));
ALTER TABLE files ADD COLUMN reason TEXT;
ALTER TABLE files ADD COLUMN plugin TEXT;
ALTER TABLE files ADD COLUMN phase TEXT CHECK (phase IN ('A', 'B'));
ALTER TABLE files ADD COLUMN lines INTEGER;
ALTER TABLE files ADD COLUMN diagnostics TEXT NOT NULL DEFAULT '[]';

-- References a plugin could not resolve; the host matches them by name (derived edges).
CREATE TABLE refs (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,          -- the file whose analysis reported it
  phase TEXT NOT NULL CHECK (phase IN ('A', 'B')),
  src INTEGER NOT NULL,        -- nodes.id of the referencing definition
  kind TEXT NOT NULL,          -- the edge kind a match would create
  name TEXT NOT NULL,          -- as written, e.g. 'os.path.join'
  target_name TEXT NOT NULL,   -- its last segment, e.g. 'join': what candidates are matched on
  start_line INTEGER,
  start_col INTEGER,
  end_line INTEGER,
  end_col INTEGER
);
CREATE INDEX idx_refs_path ON refs(path, phase);
CREATE INDEX idx_refs_src ON refs(src);
CREATE INDEX idx_refs_target_name ON refs(target_name);
`);
  },
};
