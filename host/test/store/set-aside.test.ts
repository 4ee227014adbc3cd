// A damaged graph database is refused without losing anything, and can be moved aside whole.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { StoreError } from '../../src/store/errors.js';
import { isUnusableStoreError, setAsideDatabase } from '../../src/store/set-aside.js';
import { tempDbPath } from './graph-fixtures.js';

function openError(path: string): unknown {
  try {
    GraphStore.open(path).close();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('a damaged graph database', () => {
  it('that is not SQLite is refused before SQLite opens it, so its -wal stays', () => {
    const path = tempDbPath();
    GraphStore.open(path).close();
    const garbage = Buffer.concat([Buffer.from('not sqlite at all, overwritten'), readFileSync(path).subarray(30)]);
    writeFileSync(path, garbage);
    const wal = Buffer.from('the last commits would be here');
    writeFileSync(`${path}-wal`, wal);
    const e = openError(path);
    expect(e).toMatchObject({ code: 'STORE_CORRUPT', path });
    expect((e as Error).message).toMatch(/does not start with the SQLite header.*run `travsr index --rebuild`.*moved aside/);
    expect(isUnusableStoreError(e)).toBe(true);
    expect(readFileSync(path).equals(garbage)).toBe(true);
    expect(readFileSync(`${path}-wal`).equals(wal)).toBe(true);
  });

  it('is moved aside with its -wal and -shm, log files first named after the main file', () => {
    const path = tempDbPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'main');
    writeFileSync(`${path}-wal`, 'wal');
    writeFileSync(`${path}-shm`, 'shm');
    const moved = setAsideDatabase(path, 'corrupt', new Date('2026-12-01T16:20:05.123Z'));
    const target = `${path}.corrupt-2026-12-01T16-20-05-123Z`;
    expect(moved).toEqual([target, `${target}-wal`, `${target}-shm`]);
    expect(readdirSync(dirname(path)).sort()).toEqual([
      'graph.db.corrupt-2026-12-01T16-20-05-123Z',
      'graph.db.corrupt-2026-12-01T16-20-05-123Z-shm',
      'graph.db.corrupt-2026-12-01T16-20-05-123Z-wal',
    ]);
    expect(readFileSync(`${target}-wal`, 'utf8')).toBe('wal');
    // A new store starts empty where the old one was.
    const store = GraphStore.open(path);
    expect(store.counts().files).toBe(0);
    store.close();
    expect(existsSync(join(dirname(path), 'graph.db'))).toBe(true);
  });

  it('errors that a new file cannot fix are not "unusable"', () => {
    expect(isUnusableStoreError(new StoreError('STORE_BUSY', 'locked', '/x/graph.db'))).toBe(false);
    expect(isUnusableStoreError(new StoreError('STORE_CORRUPT', 'no path'))).toBe(false);
    expect(isUnusableStoreError(new StoreError('STORE_TOO_NEW', 'newer', '/x/graph.db'))).toBe(true);
  });
});
