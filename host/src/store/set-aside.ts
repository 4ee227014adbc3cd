import { existsSync, renameSync } from 'node:fs';
import { StoreError, StoreErrorCode } from './errors.js';

/** Codes after which the database file itself cannot be used: only a new file helps. */
const UNUSABLE: ReadonlySet<string> = new Set([
  StoreErrorCode.Corrupt,
  StoreErrorCode.SchemaUnknown,
  StoreErrorCode.TooNew,
  StoreErrorCode.MigrationFailed,
]);

/** True for a {@link StoreError} that says the database file cannot be used (and names it). */
export function isUnusableStoreError(e: unknown): e is StoreError & { path: string } {
  return e instanceof StoreError && UNUSABLE.has(e.code) && typeof e.path === 'string';
}

/** What only a graph database holds, and so stays behind in a file moved aside. */
export const LOST_WITH_DATABASE =
  'synonyms added through the API, and the traces an earlier build kept in the graph store (`travsr trace` reads `.travsr/traces.db`), stay in the moved file';

/**
 * Moves the database at `dbPath` out of the way, with its `-wal` and `-shm` files, as
 * `<name>.<label>-<time>` (`graph.db.corrupt-2026-12-01T16-20-05-123Z`, `…-wal`, `…-shm`: SQLite
 * still opens the moved copy with its log, for inspection or salvage). Nothing is deleted.
 * The log files go first: a new database must never start next to the old one's WAL, which
 * SQLite would replay into it. Returns the new paths, the main file first.
 */
export function setAsideDatabase(dbPath: string, label: 'corrupt' | 'unusable', now = new Date()): string[] {
  const target = `${dbPath}.${label}-${now.toISOString().replace(/[:.]/g, '-')}`;
  const moved: string[] = [];
  for (const suffix of ['-wal', '-shm', '']) {
    if (!existsSync(dbPath + suffix)) continue;
    try {
      renameSync(dbPath + suffix, target + suffix);
    } catch (e) {
      throw new StoreError(
        StoreErrorCode.Unavailable,
        `cannot move ${dbPath + suffix} aside to ${target + suffix}: ${(e as Error).message}; check the permissions of its directory, or move it yourself`,
        dbPath,
        { cause: e },
      );
    }
    moved.push(target + suffix);
  }
  return [...moved.filter((p) => p === target), ...moved.filter((p) => p !== target)];
}
