import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { nodeId } from '@travsr/protocol';
import { GraphStore } from '../../src/store/graph-store.js';
import { MigrationRunner } from '../../src/store/migration-runner.js';
import { GRAPH_MIGRATIONS } from '../../src/store/migrations/index.js';
import { TraceStore } from '../../src/traces/trace-store.js';
import { runChild } from './child-process.js';

/** The schema version this travsr migrates to. */
const LATEST = GraphStore.LATEST_SCHEMA_VERSION;
import { tempDbPath, vn } from './graph-fixtures.js';

// The seed's v1 DDL, typed in by hand as an older tool would have created it.
const SEED_V1 = `
CREATE TABLE nodes (id INTEGER PRIMARY KEY, corpus TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL,
  language TEXT NOT NULL, signature TEXT NOT NULL, kind TEXT NOT NULL);
CREATE UNIQUE INDEX idx_nodes_vname ON nodes(corpus, root, path, language, signature);
CREATE TABLE edges (src INTEGER NOT NULL, dst INTEGER NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (src, dst, kind));
CREATE INDEX idx_edges_src_kind ON edges(src, kind);
CREATE INDEX idx_edges_dst_kind ON edges(dst, kind);
CREATE TABLE files (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, last_indexed_at INTEGER NOT NULL);
`;

function tables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

function raw(path: string): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  return new Database(path);
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

describe('migrations', () => {
  it('bring an empty database to the latest version, one recorded step per migration', () => {
    const path = tempDbPath();
    const store = GraphStore.open(path);
    expect(GraphStore.LATEST_SCHEMA_VERSION).toBe(17);
    expect(store.schemaVersion()).toBe(LATEST);
    store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const steps = db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as {
      version: number;
      name: string;
      applied_at: number;
    }[];
    expect(steps.map((s) => s.version)).toEqual(Array.from({ length: LATEST }, (_, i) => i + 1));
    expect(steps.every((s) => s.name.length > 0 && s.applied_at > 0)).toBe(true);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'nodes',
        'edges',
        'files',
        'meta',
        'refs',
        'packages',
        'node_fts',
        'synonyms',
        'vectors',
        'kcore_shells',
        'traces',
      ]),
    );
    const nodeCols = (db.prepare('PRAGMA table_info(nodes)').all() as { name: string }[]).map((c) => c.name);
    expect(nodeCols).toEqual(
      expect.arrayContaining(['node_id', 'name', 'qualified_name', 'start_line', 'end_col', 'skeleton', 'acl', 'tombstoned_at']),
    );
    const edgeCols = (db.prepare('PRAGMA table_info(edges)').all() as { name: string }[]).map((c) => c.name);
    expect(edgeCols).toEqual(['src', 'dst', 'kind', 'provenance', 'confidence', 'derived', 'origin_path']);
    db.close();
    // Opening again applies nothing.
    const again = GraphStore.open(path);
    expect(again.schemaVersion()).toBe(LATEST);
    again.close();
  });

  it('migrate a v1 database made from the seed DDL and keep its rows', () => {
    const path = tempDbPath();
    const db = raw(path);
    db.exec(SEED_V1);
    db.prepare('INSERT INTO nodes VALUES (1, ?, ?, ?, ?, ?, ?)').run(
      'github.com/acme/app',
      '',
      'src/auth/jwt.ts',
      'typescript',
      '#sign(string,Claims):string',
      'function',
    );
    db.prepare('INSERT INTO nodes VALUES (2, ?, ?, ?, ?, ?, ?)').run(
      'github.com/acme/app',
      '',
      'src/main.ts',
      'typescript',
      '#main',
      'function',
    );
    db.prepare('INSERT INTO edges VALUES (2, 1, ?)').run('calls');
    db.prepare('INSERT INTO files VALUES (?, ?, ?)').run('src/auth/jwt.ts', 'abc123', 1700000000);
    db.close();

    const store = GraphStore.open(path);
    expect(store.schemaVersion()).toBe(LATEST);
    const sign = store.findNode(vn('src/auth/jwt.ts', '#sign(string,Claims):string'));
    expect(sign).toMatchObject({ id: 1, kind: 'function', tombstoned: false, acl: '' });
    expect(sign?.nodeId).toBe(nodeId(vn('src/auth/jwt.ts', '#sign(string,Claims):string')));
    expect(store.edgesTo(1)).toEqual([
      { src: 2, dst: 1, kind: 'calls', confidence: 1, provenance: 'phase-a', derived: false, originPath: 'src/main.ts' },
    ]);
    expect(store.getFile('src/auth/jwt.ts')).toMatchObject({ sha256: 'abc123', lastIndexedAt: 1700000000, status: 'ok', diagnostics: [] });
    // The FTS index was filled from the old rows (their paths: v1 had no names).
    expect(store.searchSymbols('jwt').map((h) => h.node.id)).toEqual([1]);
    store.close();
    const check = new Database(path, { readonly: true });
    expect(
      (check.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version),
    ).toEqual(Array.from({ length: LATEST }, (_, i) => i + 1));
    check.close();
  });

  it('create the same traces table as TraceStore, whichever opens the database first', () => {
    const ddl = (path: string) => {
      const db = new Database(path, { readonly: true });
      const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'traces' ORDER BY name").all();
      db.close();
      return rows;
    };
    const tracesFirst = tempDbPath();
    mkdirSync(dirname(tracesFirst), { recursive: true });
    TraceStore.open(tracesFirst).close();
    const fromTraceStore = ddl(tracesFirst);
    GraphStore.open(tracesFirst).close(); // migrates a database that already has traces
    expect(ddl(tracesFirst)).toEqual(fromTraceStore);

    const graphFirst = tempDbPath();
    GraphStore.open(graphFirst).close();
    const fromGraphStore = ddl(graphFirst);
    expect(fromGraphStore.map((r) => (r as { name: string }).name)).toEqual(fromTraceStore.map((r) => (r as { name: string }).name));
    // Same columns, types and constraints (only whitespace may differ in the stored SQL).
    const norm = (rows: unknown[]) =>
      rows.map((r) => ({ ...(r as object), sql: ((r as { sql: string | null }).sql ?? '').replace(/\s+/g, ' ') }));
    expect(norm(fromGraphStore)).toEqual(norm(fromTraceStore));
    const traces = TraceStore.open(graphFirst);
    expect(traces.list()).toEqual([]);
    traces.close();
  });

  it('leave the previous version intact when a migration fails', () => {
    const path = tempDbPath();
    GraphStore.open(path).close();
    const db = new Database(path);
    const failing = new MigrationRunner(
      db,
      [
        ...GRAPH_MIGRATIONS,
        {
          version: LATEST + 1,
          name: 'breaks halfway',
          up: (d) => {
            d.exec('CREATE TABLE half_done (x INTEGER); ALTER TABLE nodes ADD COLUMN half_done INTEGER;');
            throw new Error('disk on fire');
          },
        },
      ],
      path,
    );
    expect(() => failing.run()).toThrow(
      new RegExp(`to schema v${LATEST + 1} \\(breaks halfway\\) failed: disk on fire; the database is unchanged at v${LATEST}`),
    );
    expect(codeOf(() => failing.run())).toBe('STORE_MIGRATION_FAILED');
    expect(failing.currentVersion()).toBe(LATEST);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(tables(db)).not.toContain('half_done');
    expect((db.prepare('PRAGMA table_info(nodes)').all() as { name: string }[]).map((c) => c.name)).not.toContain('half_done');
    db.close();
  });

  it('leave the previous version intact when the process is killed halfway through a migration', async () => {
    const path = tempDbPath();
    GraphStore.open(path).close();
    const { signal } = await runChild(['crash-migration', path]);
    expect(signal).toBe('SIGKILL');
    const store = GraphStore.open(path); // recovers the WAL, still at the latest version
    expect(store.schemaVersion()).toBe(LATEST);
    store.close();
    const db = new Database(path, { readonly: true });
    expect(tables(db)).not.toContain('half_done');
    db.close();
  });

  it('refuse a database written by a newer travsr, read-write or read-only', () => {
    const path = tempDbPath();
    GraphStore.open(path).close();
    const db = new Database(path);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(LATEST + 1, 'from the future');
    db.close();
    expect(() => GraphStore.open(path)).toThrow(
      new RegExp(`is at schema v${LATEST + 1} but this travsr only knows up to v${LATEST}.*upgrade travsr`),
    );
    expect(codeOf(() => GraphStore.open(path))).toBe('STORE_TOO_NEW');
    expect(codeOf(() => GraphStore.open(path, { readonly: true }))).toBe('STORE_TOO_NEW');
  });

  it('refuse a read-only open that would need migrating, and a missing file', () => {
    const path = tempDbPath();
    const db = raw(path);
    db.exec(SEED_V1);
    db.close();
    expect(() => GraphStore.open(path, { readonly: true })).toThrow(
      new RegExp(`is at schema v1 and needs migrating to v${LATEST}.*run \`travsr index\``),
    );
    expect(codeOf(() => GraphStore.open(path, { readonly: true }))).toBe('STORE_OUTDATED');
    expect(codeOf(() => GraphStore.open(tempDbPath(), { readonly: true }))).toBe('STORE_NOT_FOUND');
  });

  it("refuse tables of an unknown schema instead of guessing or adding to another tool's database", () => {
    const path = tempDbPath();
    const db = raw(path);
    db.exec('CREATE TABLE nodes (x); CREATE TABLE edges (y);');
    db.close();
    expect(() => GraphStore.open(path)).toThrow(/match no Travsr schema version/);
    expect(codeOf(() => GraphStore.open(path))).toBe('STORE_SCHEMA_UNKNOWN');
    const other = tempDbPath();
    const odb = raw(other);
    odb.exec('CREATE TABLE recipes (name TEXT)');
    odb.close();
    expect(() => GraphStore.open(other)).toThrow(/has tables \(recipes; user_version 0\) that match no Travsr schema/);
    const check = new Database(other, { readonly: true });
    expect(tables(check)).toEqual(['recipes']);
    check.close();
  });

  it('say when another writer holds the database too long', () => {
    const path = tempDbPath();
    const store = GraphStore.open(path);
    const blocker = new Database(path);
    blocker.pragma('busy_timeout = 0');
    blocker.exec('BEGIN IMMEDIATE');
    expect(
      codeOf(() =>
        store.replaceFile({
          path: 'a.ts',
          sha256: 'x',
          language: 'typescript',
          phase: 'A',
          plugin: 'p@1',
          status: 'ok',
          nodes: [],
          edges: [],
          refs: [],
          diagnostics: [],
        }),
      ),
    ).toBe('STORE_BUSY');
    blocker.exec('ROLLBACK');
    blocker.close();
    store.close();
  });

  it('say which file is not a database and how to rebuild it', () => {
    const path = tempDbPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'this is not a database, it is a shopping list\n'.repeat(200));
    expect(() => GraphStore.open(path)).toThrow(
      new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a usable Travsr graph database.*travsr index --rebuild`),
    );
    expect(codeOf(() => GraphStore.open(path))).toBe('STORE_CORRUPT');
    expect(codeOf(() => GraphStore.open(path, { readonly: true }))).toBe('STORE_CORRUPT');
  });

  it('report corruption found after opening with the same error', () => {
    const path = tempDbPath();
    const store = GraphStore.open(path);
    store.close();
    // Keep the header, wreck every page after the first.
    const db = new Database(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(path);
    const wrecked = Buffer.concat([bytes.subarray(0, 4096), Buffer.alloc(bytes.length - 4096, 0xa5)]);
    writeFileSync(path, wrecked);
    let code: string | undefined;
    try {
      const s = GraphStore.open(path);
      s.counts();
      s.close();
    } catch (e) {
      code = (e as { code?: string }).code;
    }
    expect(code).toBe('STORE_CORRUPT');
  });
});
