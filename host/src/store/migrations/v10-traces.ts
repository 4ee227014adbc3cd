import type { Migration } from './migration.js';

/**
 * The traces table and its indexes as v10 creates them, the only definition: `TraceStore` runs
 * the same statements, since it also opens `~/.travsr/traces.db`, which has no migrations, and
 * may open a graph.db before the graph store has migrated it (hence IF NOT EXISTS: whichever
 * runs first creates the table, the other keeps it). A migration's SQL is history, so this text
 * never changes; a change to the table is a new migration, which `TraceStore` must then apply too.
 */
export const TRACES_TABLE_SQL = `
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
`;

/** v10: structured traces (see {@link TRACES_TABLE_SQL}). */
export const v10Traces: Migration = {
  version: 10,
  name: 'traces',
  up: TRACES_TABLE_SQL,
};
