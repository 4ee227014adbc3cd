import type Database from 'better-sqlite3';

/**
 * One forward schema migration. `version` is its position (1, 2, …, no gaps); `up` runs
 * inside the transaction the {@link MigrationRunner} opens for it, so a failure leaves the
 * previous version intact. `up` may only rely on the schema as of `version - 1`.
 */
export interface Migration {
  readonly version: number;
  /** Short description recorded in `schema_migrations`. */
  readonly name: string;
  /** SQL to execute, or a function for steps SQL cannot express (computing BLAKE3 ids, FTS rows). */
  readonly up: string | ((db: Database.Database) => void);
}

/**
 * `ALTER TABLE table ADD COLUMN column declaration` unless the table has the column already
 * (a database that a newer build migrated and an older one opened again).
 */
export function addColumnIfMissing(db: Database.Database, table: string, column: string, declaration: string): void {
  const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${declaration}`);
}
