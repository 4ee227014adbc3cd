import Database from 'better-sqlite3';
import { TravsrError } from '@travsr/protocol';

/**
 * better-sqlite3's native module cannot be loaded: it was never built (no prebuilt binary for
 * this platform and Node.js, and the build from source did not run or failed), or it was built
 * for another Node.js. Code `SQLITE_NATIVE_UNAVAILABLE`; the message says how to get one.
 */
export class SqliteNativeError extends TravsrError {
  override readonly name = 'SqliteNativeError';
  readonly code = 'SQLITE_NATIVE_UNAVAILABLE';
}

/** What the binding loader says when the `.node` file is missing, or is not one this Node.js can load. */
const BINDING_FAILURE =
  /Could not locate the bindings file|NODE_MODULE_VERSION|invalid ELF header|wrong ELF class|cannot open shared object file|not a valid Win32 application|incompatible architecture/;

function isBindingFailure(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return err?.code === 'ERR_DLOPEN_FAILED' || (typeof err?.message === 'string' && BINDING_FAILURE.test(err.message));
}

/**
 * `new Database(path, options)`, with a failure to load better-sqlite3's native module (which
 * happens at the first open) turned into a {@link SqliteNativeError} that says what to do. Other
 * errors (SQLITE_CANTOPEN, SQLITE_NOTADB, …) pass through for the caller to translate.
 *
 * @throws SqliteNativeError `SQLITE_NATIVE_UNAVAILABLE`
 */
export function openSqlite(path: string, options?: Database.Options): Database.Database {
  try {
    return new Database(path, options);
  } catch (e) {
    if (!isBindingFailure(e)) throw e;
    const detail = ((e as Error).message.split('\n')[0] ?? '').trim();
    const platform = `${process.platform}-${process.arch}, Node.js ${process.versions.node} (ABI ${process.versions.modules})`;
    throw new SqliteNativeError(
      `the SQLite driver's native module (better-sqlite3) cannot be loaded for ${platform}: ${detail}. ` +
        'npm installs it from a prebuilt binary where one is published for this platform and Node.js, and otherwise builds it ' +
        'from source, which needs python3, make and a C++ compiler; newer npm versions run that step only where install scripts are allowed. ' +
        'Install those tools, then reinstall: `npm i -g travsr --allow-scripts=better-sqlite3` (a global install), or ' +
        '`npm rebuild better-sqlite3` in a checkout; after switching Node.js versions, reinstall the same way',
      { cause: e },
    );
  }
}
