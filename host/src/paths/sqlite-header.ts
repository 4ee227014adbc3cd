import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openSqlite } from './sqlite-native.js';

/**
 * True when `path` is a non-empty file that SQLite does not recognize as a database (it does
 * not start with the SQLite header). Check it before opening the file for writing: SQLite
 * would fail too, but closing a writable connection deletes the file's `-wal`, which may hold
 * the last commits of a database whose first page alone was damaged. A missing or unreadable
 * file is false: opening it gives SQLite's own error, or creates it.
 *
 * The header is read by SQLite itself, through a read-only connection (which never
 * checkpoints nor deletes a `-wal`), never with `fs`: closing a plain file descriptor of the
 * database drops every POSIX lock this process holds on it, so another process closing its
 * connection would believe it was the last one, checkpoint and delete the `-wal` that this
 * process's connections still write to — their commits would be lost. SQLite keeps its own
 * descriptors open while any connection of the process holds a lock.
 */
export function hasForeignHeader(path: string): boolean {
  try {
    const s = statSync(path);
    if (!s.isFile() || s.size === 0) return false;
  } catch {
    return false;
  }
  let db: Database.Database | undefined;
  try {
    db = openSqlite(path, { readonly: true, fileMustExist: true });
    db.pragma('schema_version', { simple: true }); // reads page 1: a foreign header fails here
    return false;
  } catch (e) {
    return (e as { code?: unknown }).code === 'SQLITE_NOTADB';
  } finally {
    db?.close();
  }
}
