import type Database from 'better-sqlite3';
import { ftsColumns, INSERT_FTS_ROW } from '../symbol-index.js';
import type { Migration } from './migration.js';

/**
 * v6: FTS5 over identifiers plus a synonym table. The columns hold tokens pre-split by
 * {@link ftsColumns} (see identifier-tokens.ts for why the split is not an FTS5
 * tokenizer); the rowid is `nodes.id`. Placeholder ('external') nodes are not indexed.
 */
export const v06SymbolSearch: Migration = {
  version: 6,
  name: 'FTS5 identifier index and synonyms',
  up: (db: Database.Database) => {
    db.exec(`
CREATE VIRTUAL TABLE node_fts USING fts5(name, qualified, path, doc, tokenize = 'unicode61');
CREATE TABLE synonyms (
  term TEXT NOT NULL,
  synonym TEXT NOT NULL,
  PRIMARY KEY (term, synonym)
);
CREATE INDEX idx_synonyms_synonym ON synonyms(synonym);
`);
    const rows = db.prepare("SELECT id, name, qualified_name, path, skeleton FROM nodes WHERE kind <> 'external'").all() as {
      id: number;
      name: string;
      qualified_name: string | null;
      path: string;
      skeleton: string | null;
    }[];
    const insert = db.prepare(INSERT_FTS_ROW);
    for (const r of rows) insert.run(r.id, ...ftsColumns(r.name, r.qualified_name, r.path, r.skeleton));
  },
};
