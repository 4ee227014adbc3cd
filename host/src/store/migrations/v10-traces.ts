import type { Migration } from './migration.js';

/**
 * v10: structured traces. Exactly the DDL of host/src/traces/trace-store.ts, which creates
 * the same table with IF NOT EXISTS in the same graph.db: whichever runs first creates it,
 * the other keeps it. Change both together.
 */
export const v10Traces: Migration = {
  version: 10,
  name: 'traces',
  up: `
CREATE TABLE IF NOT EXISTS traces (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  started_at TEXT NOT NULL,
  subject TEXT NOT NULL,
  status TEXT NOT NULL,
  duration_ms REAL NOT NULL,
  error_code TEXT,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_traces_started ON traces(started_at);
CREATE INDEX IF NOT EXISTS idx_traces_subject ON traces(subject);
`,
};
