import type Database from 'better-sqlite3';
import { rebuildAdvice, StoreError, StoreErrorCode } from './errors.js';
import type { Migration } from './migrations/migration.js';

/** What {@link MigrationRunner.run} did. */
export interface MigrationReport {
  from: number;
  to: number;
  applied: { version: number; name: string }[];
}

const BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at INTEGER NOT NULL
)`;

/**
 * Runs numbered forward migrations, each in its own IMMEDIATE transaction that also records
 * it in `schema_migrations(version, name, applied_at)` and in `PRAGMA user_version`; a
 * migration that fails (or a process killed halfway) leaves the previous version intact.
 * Two processes opening the same database at once are safe: the version is re-read once the
 * write lock is held.
 */
export class MigrationRunner {
  constructor(
    private readonly db: Database.Database,
    private readonly migrations: readonly Migration[],
    /** The database file, for messages. */
    private readonly dbPath: string,
  ) {
    migrations.forEach((m, i) => {
      if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1} (no gaps, in order)`);
    });
  }

  /** The newest version these migrations reach. */
  get latestVersion(): number {
    return this.migrations.length;
  }

  /**
   * The version the database is at: the highest recorded migration; 1 for a database made
   * from the seed's v1 DDL without bookkeeping; 0 for an empty one. Tables of another
   * schema are a {@link StoreErrorCode.SchemaUnknown} error.
   */
  currentVersion(): number {
    if (this.hasTable('schema_migrations')) {
      const row = this.db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null };
      return row.v ?? 0;
    }
    const userVersion = this.db.pragma('user_version', { simple: true }) as number;
    const v1Tables = ['nodes', 'edges', 'files'].filter((t) => this.hasTable(t));
    if (userVersion <= 1 && v1Tables.length === 3) return 1;
    // `traces` may come first: TraceStore creates it in the same file.
    const others = (
      this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
        name: string;
      }[]
    )
      .map((r) => r.name)
      .filter((t) => t !== 'traces');
    if (userVersion === 0 && others.length === 0) return 0;
    throw new StoreError(
      StoreErrorCode.SchemaUnknown,
      `${this.dbPath} has tables (${others.join(', ')}; user_version ${userVersion}) that match no Travsr schema version, so it was probably written by another tool; ${rebuildAdvice(this.dbPath)}`,
      this.dbPath,
    );
  }

  /** Throws {@link StoreErrorCode.TooNew} when the database is newer than these migrations. */
  assertNotTooNew(version = this.currentVersion()): void {
    if (version > this.latestVersion)
      throw new StoreError(
        StoreErrorCode.TooNew,
        `${this.dbPath} is at schema v${version} but this travsr only knows up to v${this.latestVersion}: it was written by a newer travsr; upgrade travsr, or ${rebuildAdvice(this.dbPath)}`,
        this.dbPath,
      );
  }

  /** Applies every pending migration in order, one transaction each. */
  run(now: () => number = Date.now): MigrationReport {
    const from = this.currentVersion();
    this.assertNotTooNew(from);
    const applied: MigrationReport['applied'] = [];
    const step = this.db.transaction((): Migration | undefined => {
      const version = this.currentVersion(); // again, under the write lock
      this.assertNotTooNew(version);
      const next = this.migrations[version];
      if (!next) return undefined;
      this.db.exec(BOOKKEEPING);
      if (version === 1 && !this.db.prepare('SELECT 1 FROM schema_migrations WHERE version = 1').get())
        this.record(this.migrations[0]!, now());
      try {
        if (typeof next.up === 'string') this.db.exec(next.up);
        else next.up(this.db);
      } catch (e) {
        throw new StoreError(
          StoreErrorCode.MigrationFailed,
          `migrating ${this.dbPath} to schema v${next.version} (${next.name}) failed: ${(e as Error).message}; the database is unchanged at v${version}. ${rebuildAdvice(this.dbPath)} if this persists`,
          this.dbPath,
          { cause: e },
        );
      }
      this.record(next, now());
      return next;
    });
    for (;;) {
      const m = step.immediate();
      if (!m) break;
      applied.push({ version: m.version, name: m.name });
    }
    return { from, to: this.currentVersion(), applied };
  }

  private record(m: Migration, at: number): void {
    this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, at);
    this.db.pragma(`user_version = ${m.version}`);
  }

  private hasTable(name: string): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }
}
