// The index-run record: a file stored during a run is not done until the run's last step, and
// a run a killed process left behind is found, with its files, by the next one. A process that
// stops without completing its run (here: closes the store) is what a kill -9 leaves in WAL
// mode, since every committed transaction is durable and an open one is rolled back.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { MigrationRunner } from '../../src/store/migration-runner.js';
import { GRAPH_MIGRATIONS } from '../../src/store/migrations/index.js';
import { analysis, def, tempDbPath } from './graph-fixtures.js';

describe('index runs', () => {
  it('files stored during a run stay pending until the run completes', () => {
    const path = tempDbPath();
    const store = GraphStore.open(path);
    const first = store.beginIndexRun('full');
    expect(first).toEqual({ id: first.id, interrupted: [], pendingFiles: [] });
    store.replaceFile(analysis('a.ts', { nodes: [def('a.ts', 'a')] }));
    store.replaceFile(analysis('b.ts', { nodes: [def('b.ts', 'b')] }));
    expect(store.pendingFiles()).toEqual(['a.ts', 'b.ts']);
    expect(store.lastIndexRun()).toMatchObject({ id: first.id, mode: 'full', state: 'running', endedAt: null, pendingFiles: 2 });
    expect(store.getMeta('index_state')).toBe('running');

    store.completeIndexRun(first.id, { commit: 'abc123' });
    expect(store.pendingFiles()).toEqual([]);
    expect(store.lastIndexRun()).toMatchObject({ id: first.id, state: 'complete', pendingFiles: 0 });
    expect(store.lastIndexRun()!.endedAt).toBeGreaterThanOrEqual(store.lastIndexRun()!.startedAt);
    expect(store.getMeta('index_state')).toBe('complete');
    expect(store.getMeta('last_indexed_commit')).toBe('abc123');
    expect(Date.parse(store.getMeta('last_indexed_at')!)).toBeGreaterThan(0);
    store.close();
  });

  it('a run that never completes is found by the next one, with what it stored and what it planned', () => {
    const path = tempDbPath();
    const store = GraphStore.open(path);
    const done = store.beginIndexRun('full');
    for (const p of ['a.ts', 'b.ts', 'c.ts']) store.replaceFile(analysis(p, { nodes: [def(p, p[0]!)] }));
    store.completeIndexRun(done.id);

    // The killed run: it planned b.ts and c.ts, stored Phase A of b.ts and a new d.ts, then died.
    const killed = store.beginIndexRun('rebuild');
    store.markFilesPending(killed.id, ['b.ts', 'c.ts', 'd.ts']);
    store.replaceFile(analysis('b.ts', { nodes: [def('b.ts', 'b')] }));
    store.replaceFile(analysis('d.ts', { nodes: [def('d.ts', 'd')] }));
    store.close();

    const again = GraphStore.open(path);
    expect(again.lastIndexRun()).toMatchObject({ id: killed.id, mode: 'rebuild', state: 'running', pendingFiles: 3 });
    const next = again.beginIndexRun('full');
    expect(next.interrupted).toEqual([expect.objectContaining({ id: killed.id, mode: 'rebuild', state: 'running' })]);
    expect(next.pendingFiles).toEqual(['b.ts', 'c.ts', 'd.ts']);
    // A file the new run has not finished yet is as pending as before; the old run is closed.
    again.replaceFile(analysis('a.ts', { nodes: [def('a.ts', 'a')] }));
    expect(again.pendingFiles()).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts']);
    again.completeIndexRun(next.id);
    expect(again.pendingFiles()).toEqual([]);
    expect(again.beginIndexRun('incremental').interrupted).toEqual([]);
    again.close();
  });

  it('a file whose last phase is stored is done at once; one with Phase A only stays pending', () => {
    const store = GraphStore.open(tempDbPath());
    const run = store.beginIndexRun('rebuild');
    store.replaceFile(analysis('a.ts', { nodes: [def('a.ts', 'a')] }));
    store.replaceFile(analysis('b.ts', { nodes: [def('b.ts', 'b')] }));
    store.replaceFile(analysis('a.ts', { phase: 'B', done: true }));
    store.replaceFile(analysis('c.py', { language: 'python', done: true }));
    expect(store.pendingFiles()).toEqual(['b.ts']);
    store.completeIndexRun(run.id);
    expect(store.pendingFiles()).toEqual([]);
    store.close();
  });

  it('text of other content is dropped when a file is stored without text, so a killed run leaves none stale', () => {
    const store = GraphStore.open(tempDbPath());
    store.replaceFile(analysis('a.py', { sha256: 'v1', text: 'alpha beta' }));
    store.replaceFile(analysis('a.py', { sha256: 'v1', phase: 'B' }));
    expect(store.filesWithoutText()).toEqual([]);
    store.beginIndexRun('incremental');
    store.replaceFile(analysis('a.py', { sha256: 'v2' }));
    expect(store.filesWithoutText()).toEqual(['a.py']);
    expect(store.searchFiles('alpha')).toEqual([]);
    store.close();
  });

  it('writes outside a run (library use) are not pending; marking skips paths without a row', () => {
    const store = GraphStore.open(tempDbPath());
    store.replaceFile(analysis('a.ts'));
    expect(store.pendingFiles()).toEqual([]);
    const run = store.beginIndexRun('full');
    store.markFilesPending(run.id, ['a.ts', 'not-stored.ts']);
    expect(store.pendingFiles()).toEqual(['a.ts']);
    store.completeIndexRun(run.id);
    store.replaceFile(analysis('b.ts'));
    expect(store.pendingFiles()).toEqual([]);
    store.close();
  });

  it('keeps the last 20 runs', () => {
    const store = GraphStore.open(tempDbPath());
    let last = 0;
    for (let i = 0; i < 30; i++) {
      last = store.beginIndexRun('full').id;
      store.completeIndexRun(last);
    }
    const db = new Database(store.path, { readonly: true });
    const ids = (db.prepare('SELECT id FROM index_runs ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    db.close();
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => last - 19 + i));
    store.close();
  });

  it('migrating a database an older travsr left mid-run makes every file pending', () => {
    const path = tempDbPath();
    const old = GraphStore.open(path);
    old.replaceFile(analysis('a.ts', { nodes: [def('a.ts', 'a')] }));
    old.replaceFile(analysis('b.ts', { nodes: [def('b.ts', 'b')] }));
    old.close();
    // Back to v12 as the older travsr wrote it, with its "running" flag left by a kill.
    const db = new Database(path);
    db.exec('DROP TABLE index_runs; DROP INDEX idx_files_pending; ALTER TABLE files DROP COLUMN pending_run');
    db.exec('DROP INDEX idx_nodes_live; DELETE FROM schema_migrations WHERE version >= 13; PRAGMA user_version = 12');
    db.prepare(
      "INSERT INTO meta (key, value) VALUES ('index_state', 'running') ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run();
    expect(new MigrationRunner(db, GRAPH_MIGRATIONS, path).currentVersion()).toBe(12);
    db.close();

    const store = GraphStore.open(path);
    expect(store.schemaVersion()).toBe(GraphStore.LATEST_SCHEMA_VERSION);
    expect(store.lastIndexRun()).toMatchObject({ mode: 'unknown', state: 'running', pendingFiles: 2 });
    expect(store.beginIndexRun('incremental').pendingFiles).toEqual(['a.ts', 'b.ts']);
    store.close();
  });
});
