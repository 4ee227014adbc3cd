import type { Migration } from './migration.js';

/** v7: embedding vectors per node and model, as little-endian float32 arrays. */
export const v07Vectors: Migration = {
  version: 7,
  name: 'embedding vectors',
  up: `
CREATE TABLE vectors (
  node_id TEXT NOT NULL,   -- NodeId hex: survives surrogate id changes
  model TEXT NOT NULL,
  dim INTEGER NOT NULL CHECK (dim > 0),
  vector BLOB NOT NULL CHECK (length(vector) = dim * 4),
  PRIMARY KEY (node_id, model)
);
`,
};
