import type { Migration } from './migration.js';

/**
 * v11: lexical index over whole files (`file_fts`, rowid = files.rowid): the file's path and
 * its content as identifier tokens (same splitting as node_fts). File-level BM25 is the
 * strongest single lexical signal for "which file does this issue text concern", and a
 * seed source for retrieval next to the symbol index.
 */
export const v11FileTextSearch: Migration = {
  version: 11,
  name: 'file text search index',
  up: `
CREATE VIRTUAL TABLE file_fts USING fts5(path, body, tokenize = 'unicode61');
CREATE VIRTUAL TABLE file_fts_vocab USING fts5vocab(file_fts, 'row');
`,
};
