import type { Migration } from './migration.js';

/**
 * v8: cached k-core shell numbers. `graph_version` is the meta `graph_version` the shells
 * were computed at; a reader treats rows of another version as stale.
 */
export const v08KcoreShells: Migration = {
  version: 8,
  name: 'k-core shell cache',
  up: `
CREATE TABLE kcore_shells (
  node_id TEXT PRIMARY KEY,
  shell INTEGER NOT NULL CHECK (shell >= 0),
  graph_version INTEGER NOT NULL
);
`,
};
