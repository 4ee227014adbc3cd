import type Database from 'better-sqlite3';

/**
 * What the store's modules share: the connection, a cache of prepared statements (one per
 * SQL text, prepared on first use), and the clock.
 */
export class StoreContext {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly db: Database.Database,
    /** The database file, for messages. */
    readonly path: string,
    readonly now: () => number = Date.now,
  ) {}

  /** The prepared statement for `sql`, prepared once per store. */
  stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Marks the text indexes (file_fts, node_body_fts) as changed: every write to them calls it,
   * and caches of their search results compare this number ({@link textVersion}).
   */
  bumpTextVersion(): void {
    this.bumpCounter('text_version');
  }

  /** The text indexes' version (0 before their first write since it was kept). */
  textVersion(): number {
    return this.counter('text_version');
  }

  /** The graph's version ({@link bumpGraphVersion}). */
  graphVersion(): number {
    return this.counter('graph_version');
  }

  /** A version number kept in `meta` under `key` (0 before its first {@link bumpCounter}). */
  counter(key: string): number {
    return Number((this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? 0);
  }

  /** Adds one to the version number under `key` in `meta` (1 when it was not there). */
  bumpCounter(key: string): void {
    this.stmt(
      "INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
    ).run(key);
  }

  /** Marks the graph as changed; caches computed from it (k-core shells) compare this number. */
  bumpGraphVersion(): void {
    this.stmt("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'graph_version'").run();
  }
}
