import { errorCode, TravsrError } from '@travsr/protocol';

/**
 * Errors of the graph store. Each carries a SCREAMING_SNAKE `code`; recognise them by
 * `code`, not `instanceof`. Messages say what happened, why, and what to do.
 */

/** String codes of graph store errors. */
export const StoreErrorCode = {
  /** The directory or file cannot be created or opened (permissions, missing parent). */
  Unavailable: 'STORE_UNAVAILABLE',
  /** A read-only open of a database that does not exist. */
  NotFound: 'STORE_NOT_FOUND',
  /** The file is not SQLite, or SQLite reports corruption. */
  Corrupt: 'STORE_CORRUPT',
  /** The database was written by a newer Travsr (schema version above the one this code knows). */
  TooNew: 'STORE_TOO_NEW',
  /** A read-only open of a database that still needs migrations. */
  Outdated: 'STORE_OUTDATED',
  /** The tables present match no schema version this code knows. */
  SchemaUnknown: 'STORE_SCHEMA_UNKNOWN',
  /** A migration failed; the database stays at the previous version. */
  MigrationFailed: 'STORE_MIGRATION_FAILED',
  /** A write on a store opened read-only. */
  ReadOnly: 'STORE_READONLY',
  /** A graph write with input that breaks the store's rules; nothing was written. */
  InvalidInput: 'STORE_INVALID_INPUT',
  /** Another connection held the write lock for longer than busy_timeout (5 s). */
  Busy: 'STORE_BUSY',
  /** The store was used after `close()`. */
  Closed: 'STORE_CLOSED',
} as const;
/** One of {@link StoreErrorCode}. */
export type StoreErrorCode = (typeof StoreErrorCode)[keyof typeof StoreErrorCode];

/** An error of the graph store; `path` names the database file when one is involved. */
export class StoreError extends TravsrError {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The advice every "the database itself is unusable" error ends with. `--rebuild` does what it
 * says: a file it cannot open or check is moved aside (nothing is deleted) before it indexes.
 */
export function rebuildAdvice(dbPath: string): string {
  return `run \`travsr index --rebuild\` to rebuild it from the repository (a file it cannot use is first moved aside next to it, as ${dbPath}.corrupt-<time> or .unusable-<time>, with the traces stored in it)`;
}

/** SQLite error codes that mean the file is not a usable database. */
function isCorruption(code: string): boolean {
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

/**
 * Turns an error thrown by better-sqlite3 into a {@link StoreError} when it means something to
 * the user (corruption, read-only, missing file); other errors pass through unchanged.
 */
export function translateSqliteError(e: unknown, dbPath: string): unknown {
  if (e instanceof StoreError) return e;
  const code = errorCode(e);
  if (code === undefined) return e;
  const detail = (e as Error).message;
  if (isCorruption(code))
    return new StoreError(
      StoreErrorCode.Corrupt,
      `${dbPath} is not a usable Travsr graph database (SQLite says: ${detail}); ${rebuildAdvice(dbPath)}`,
      dbPath,
      { cause: e },
    );
  if (code === 'SQLITE_READONLY')
    return new StoreError(
      StoreErrorCode.ReadOnly,
      `cannot write to ${dbPath}: ${detail}; open the store without { readonly: true } and check the file is writable`,
      dbPath,
      { cause: e },
    );
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED')
    return new StoreError(
      StoreErrorCode.Busy,
      `${dbPath} stayed locked by another writer for more than 5 s (${detail}); another travsr process is probably indexing — wait for it to finish and try again`,
      dbPath,
      { cause: e },
    );
  if (code === 'SQLITE_CANTOPEN')
    return new StoreError(
      StoreErrorCode.Unavailable,
      `cannot open ${dbPath}: ${detail}; check that the directory exists and is writable`,
      dbPath,
      { cause: e },
    );
  return e;
}
