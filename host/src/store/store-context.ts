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
    this.stmt(
      "INSERT INTO meta (key, value) VALUES ('text_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
    ).run();
  }

  /** The text indexes' version (0 before their first write since it was kept). */
  textVersion(): number {
    return Number((this.stmt("SELECT value FROM meta WHERE key = 'text_version'").get() as { value: string } | undefined)?.value ?? 0);
  }

  /** The graph's version ({@link bumpGraphVersion}). */
  graphVersion(): number {
    return Number((this.stmt("SELECT value FROM meta WHERE key = 'graph_version'").get() as { value: string } | undefined)?.value ?? 0);
  }

  /** Marks the graph as changed; caches computed from it (k-core shells) compare this number. */
  bumpGraphVersion(): void {
    this.stmt("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'graph_version'").run();
  }
}
