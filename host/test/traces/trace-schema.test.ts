import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { v10Traces } from '../../src/store/migrations/v10-traces.js';
import { TraceStore } from '../../src/traces/trace-store.js';

/** Everything SQLite knows about the traces table of the database at `path`. */
function tracesSchema(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      objects: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name = 'traces' ORDER BY name").all(),
      columns: db.prepare('PRAGMA table_xinfo(traces)').all(),
      indexes: (db.prepare('PRAGMA index_list(traces)').all() as { name: string }[]).map((index) => ({
        ...index,
        columns: db.prepare(`PRAGMA index_xinfo(${index.name})`).all(),
      })),
    };
  } finally {
    db.close();
  }
}

describe('the traces table', () => {
  it('is the same, to the stored SQL, in a traces.db the trace store creates and a graph.db the migrations create', () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-trace-schema-'));
    const tracesDb = join(dir, 'traces.db');
    TraceStore.open(tracesDb).close();
    const graphDb = join(dir, 'graph.db');
    GraphStore.open(graphDb).close();

    const fromTraceStore = tracesSchema(tracesDb);
    expect(fromTraceStore.objects.map((o) => (o as { name: string }).name)).toEqual([
      'idx_traces_started',
      'idx_traces_subject',
      'sqlite_autoindex_traces_1',
      'traces',
    ]);
    expect(fromTraceStore.columns).toHaveLength(8);
    expect(tracesSchema(graphDb)).toEqual(fromTraceStore);
  });

  it('is created by the SQL migration v10 has always run (a migration is history)', () => {
    const sql = v10Traces.up;
    expect(typeof sql).toBe('string');
    // Databases migrated past v10 ran exactly this text. To change the table, add a migration
    // (and apply it in TraceStore.open too, for traces.db, which has no migrations).
    expect(
      createHash('sha256')
        .update(sql as string)
        .digest('hex'),
    ).toBe('9fd2be5d24e10534ae5ed709791b06f3a353e71ee77412c57fb583e2479d2834');
  });
});
