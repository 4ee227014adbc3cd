import { addColumnIfMissing, type Migration } from './migration.js';

/**
 * v15: `files.interface`, the file's interface as its plugin last reported it (protocol SPEC
 * §9.11: qualified name → digest of what other files can observe through it, as JSON; NULL
 * when the plugin sent none). An incremental run compares a changed file's new interface with
 * this one to re-analyze only the dependents that name what changed.
 */
export const v15FileInterfaces: Migration = {
  version: 15,
  name: 'file interfaces',
  up: (db) => addColumnIfMissing(db, 'files', 'interface', 'TEXT'),
};
