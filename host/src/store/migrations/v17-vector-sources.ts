import { addColumnIfMissing, type Migration } from './migration.js';

/**
 * v17: `vectors.source`, a digest of the text a vector was made from (a definition's signature
 * and the start of its body): `travsr embed` embeds again only the definitions whose text
 * changed. Vectors written before have none and are made again once.
 */
export const v17VectorSources: Migration = {
  version: 17,
  name: 'vector sources',
  up: (db) => addColumnIfMissing(db, 'vectors', 'source', 'TEXT'),
};
