import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { hasForeignHeader } from '../../src/paths/sqlite-header.js';
import { GraphStore } from '../../src/store/index.js';
import { TraceStore } from '../../src/traces/trace-store.js';

const nodeModules = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), '..');

/** Runs `code` in another Node process with better-sqlite3 at hand; `process.argv[1]` is `db`. */
function inOtherProcess(code: string, db: string): string {
  return execFileSync(process.execPath, ['-e', `const Database = require('better-sqlite3'); ${code}`, db], {
    env: { ...process.env, NODE_PATH: nodeModules },
    encoding: 'utf8',
  });
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a process with the graph open keeps its locks', () => {
  // POSIX locks belong to the process and the file: closing any descriptor of the database
  // drops all of them. Another process closing its connection then believes it is the last
  // one, checkpoints and deletes the -wal this process still commits to (the daemon's
  // updates were invisible to every other process, and lost when it stopped).
  test('opening the same database again in this process (stores, trace store, header check) leaves the -wal to this connection', () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-wal-locks-'));
    dirs.push(dir);
    const db = join(dir, 'graph.db');
    const store = GraphStore.open(db);
    try {
      store.setMeta('probe', 'before');
      // What the daemon does on every tool call: a read-only store, the trace store, the header check.
      GraphStore.open(db, { readonly: true }).close();
      TraceStore.open(db).close();
      expect(hasForeignHeader(db)).toBe(false);
      // Another process reads the database and closes its connection (the last one closing checkpoints and deletes the -wal).
      // (Python's sqlite3, like the sqlite3 shell, checkpoints when it closes the last connection.)
      execFileSync('python3', [
        '-c',
        'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("SELECT count(*) FROM meta").fetchone(); c.close()',
        db,
      ]);
      expect(existsSync(`${db}-wal`)).toBe(true);
      store.setMeta('probe', 'after');
      const seen = inOtherProcess(
        'const d = new Database(process.argv[1], { readonly: true }); process.stdout.write(d.prepare("SELECT value FROM meta WHERE key = \'probe\'").get().value)',
        db,
      );
      expect(seen).toBe('after');
    } finally {
      store.close();
    }
  });

  test('a file that is not SQLite is still told apart, without deleting its -wal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-wal-locks-'));
    dirs.push(dir);
    const db = join(dir, 'graph.db');
    inOtherProcess("const d = new Database(process.argv[1]); d.pragma('journal_mode = WAL'); d.exec('CREATE TABLE t (x)')", db);
    execFileSync('sh', ['-c', `printf 'not a database at all' | dd of=${db} conv=notrunc status=none`]);
    expect(hasForeignHeader(db)).toBe(true);
    expect(hasForeignHeader(join(dir, 'missing.db'))).toBe(false);
  });
});
