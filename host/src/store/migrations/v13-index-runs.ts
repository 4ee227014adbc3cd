import type { Migration } from './migration.js';

/**
 * v13: index runs and pending files, so that indexing is crash-consistent. A run is recorded
 * when it starts (`state` running) and completed by its last transaction; a file the run
 * analyzes carries `pending_run` until its last phase is stored, so it never counts as
 * unchanged with half its analysis. A run left `running` by a killed process is found and
 * completed by the next one (pending files analyzed again, every name match redone).
 *
 * A database left mid-run by an older travsr (meta `index_state` = running) cannot tell
 * which files that run finished: every file is made pending, so the next run redoes them.
 */
export const v13IndexRuns: Migration = {
  version: 13,
  name: 'index runs and pending files',
  up: (db) => {
    db.exec(`
CREATE TABLE index_runs (
  id INTEGER PRIMARY KEY,
  mode TEXT NOT NULL, -- 'full' | 'rebuild' | 'incremental' | 'unknown' (left by an older travsr)
  state TEXT NOT NULL CHECK (state IN ('running', 'complete', 'interrupted')),
  started_at INTEGER NOT NULL,
  ended_at INTEGER
);
ALTER TABLE files ADD COLUMN pending_run INTEGER;
CREATE INDEX idx_files_pending ON files(pending_run) WHERE pending_run IS NOT NULL;
`);
    const state = db.prepare("SELECT value FROM meta WHERE key = 'index_state'").get() as { value: string } | undefined;
    if (state?.value === 'running') {
      const run = db.prepare("INSERT INTO index_runs (mode, state, started_at) VALUES ('unknown', 'running', ?)").run(Date.now());
      db.prepare('UPDATE files SET pending_run = ?').run(run.lastInsertRowid);
    }
  },
};
