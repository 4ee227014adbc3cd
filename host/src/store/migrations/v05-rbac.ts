import type { Migration } from './migration.js';

/**
 * v5: RBAC columns. `acl` names who may see a node or file; '' means everyone who may read
 * the corpus. Retrieval checks it during traversal, never as a post-filter.
 */
export const v05Rbac: Migration = {
  version: 5,
  name: 'RBAC columns on nodes and files',
  up: `
ALTER TABLE nodes ADD COLUMN acl TEXT NOT NULL DEFAULT '';
ALTER TABLE files ADD COLUMN acl TEXT NOT NULL DEFAULT '';
`,
};
