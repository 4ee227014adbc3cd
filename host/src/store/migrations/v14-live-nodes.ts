import type { Migration } from './migration.js';

/**
 * v14: a partial index of the live nodes by language and kind, so that the graph's size (what
 * every index run reports) and `travsr status`'s counts per language are counted from a small
 * index instead of a scan of the whole nodes table with its skeletons (about 50 ms on a
 * 130k-line repository, more when the file is not in the OS cache). `IF NOT EXISTS`: a
 * database whose migration record was rewound still opens.
 */
export const v14LiveNodes: Migration = {
  version: 14,
  name: 'live nodes by language and kind',
  up: (db) => {
    db.exec('CREATE INDEX IF NOT EXISTS idx_nodes_live ON nodes(language, kind) WHERE tombstoned_at IS NULL');
  },
};
