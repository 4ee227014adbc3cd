import type { Migration } from './migration.js';

/**
 * v9: node tombstones. A node whose file was reindexed without it keeps its row (and its
 * surrogate id) with `tombstoned_at` set (ms since the epoch); it is hidden from queries
 * and revived if a later analysis defines it again.
 */
export const v09Tombstones: Migration = {
  version: 9,
  name: 'node tombstones',
  up: `
ALTER TABLE nodes ADD COLUMN tombstoned_at INTEGER;
CREATE INDEX idx_nodes_tombstoned ON nodes(tombstoned_at) WHERE tombstoned_at IS NOT NULL;
`,
};
