import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, SqliteNativeError } from '../../src/paths/sqlite-native.js';

describe('openSqlite', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('opens a database as better-sqlite3 does', () => {
    dir = mkdtempSync(join(tmpdir(), 'travsr-sqlite-native-'));
    const db = openSqlite(join(dir, 'a.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    db.close();
  });

  it('says how to get the native module when it cannot be loaded', () => {
    dir = mkdtempSync(join(tmpdir(), 'travsr-sqlite-native-'));
    // Not a shared object: the loader refuses it as it refuses a binary built for another platform.
    const binding = join(dir, 'better_sqlite3.node');
    writeFileSync(binding, 'not an ELF file\n');
    let thrown: unknown;
    try {
      openSqlite(join(dir, 'a.db'), { nativeBinding: binding });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SqliteNativeError);
    const err = thrown as SqliteNativeError;
    expect(err.code).toBe('SQLITE_NATIVE_UNAVAILABLE');
    expect(err.message).toContain(`${process.platform}-${process.arch}`);
    expect(err.message).toContain('--allow-scripts=better-sqlite3');
    expect(err.message).toContain('python3, make and a C++ compiler');
  });

  it('lets SQLite errors through for the caller to translate', () => {
    dir = mkdtempSync(join(tmpdir(), 'travsr-sqlite-native-'));
    expect(() => openSqlite(join(dir as string, 'missing.db'), { readonly: true, fileMustExist: true })).toThrow(
      expect.objectContaining({ code: 'SQLITE_CANTOPEN' }) as Error,
    );
  });
});
