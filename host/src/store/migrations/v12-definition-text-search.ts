import type { Migration } from './migration.js';

/**
 * v12: lexical index over definitions' own source (`node_body_fts`, rowid = nodes.id): the
 * lines of a function or method, and of a class the lines not inside its members, as
 * identifier tokens. It finds the function whose code uses the words of a question, which
 * symbol names and file-level text alone miss.
 */
export const v12DefinitionTextSearch: Migration = {
  version: 12,
  name: 'definition text search index',
  up: `
CREATE VIRTUAL TABLE node_body_fts USING fts5(body, tokenize = 'unicode61');
CREATE VIRTUAL TABLE node_body_fts_vocab USING fts5vocab(node_body_fts, 'row');
`,
};
