import type { Migration } from './migration.js';

/** v4: per-language package metadata (one row per package manifest in the repository). */
export const v04Packages: Migration = {
  version: 4,
  name: 'per-language package metadata',
  up: `
CREATE TABLE packages (
  language TEXT NOT NULL,
  manifest_path TEXT NOT NULL,       -- e.g. 'package.json', 'crates/core/Cargo.toml'
  name TEXT NOT NULL,
  version TEXT NOT NULL DEFAULT '',
  manager TEXT NOT NULL DEFAULT '',  -- 'npm', 'cargo', 'pip', 'go', ...
  data TEXT NOT NULL DEFAULT '{}',   -- JSON: dependencies, entry points, ...
  PRIMARY KEY (language, manifest_path, name)
);
`,
};
