import { closeSync, openSync, readSync } from 'node:fs';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * True when `path` is a non-empty file that does not start with the SQLite header. Check it
 * before SQLite opens the file: SQLite would fail too, but closing that connection deletes the
 * file's `-wal`, which may hold the last commits of a database whose first page alone was damaged.
 * A missing or unreadable file is false: opening it gives SQLite's own error, or creates it.
 */
export function hasForeignHeader(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const n = readSync(fd, head, 0, head.length, 0);
    return n > 0 && !head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}
