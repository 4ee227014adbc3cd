import { addColumnIfMissing, type Migration } from './migration.js';

/**
 * v16: `synonyms.origin`, where a pair came from: `user` (`travsr synonym add|import|mine`,
 * the API) or `config` (the `retrieval.synonyms` setting, synced into the store whenever a
 * command opens the repository to write, so a pair taken out of the configuration goes too).
 */
export const v16SynonymOrigins: Migration = {
  version: 16,
  name: 'synonym origins',
  up: (db) => addColumnIfMissing(db, 'synonyms', 'origin', "TEXT NOT NULL DEFAULT 'user'"),
};
