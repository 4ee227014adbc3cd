import type { StoreContext } from './store-context.js';
import type { GraphChanges } from './types.js';

// Temporary objects: they live in this connection only, nothing is written to the database file.
// No INSERT OR IGNORE in the triggers: a trigger takes the conflict policy of the statement that
// fires it (an upsert's is ABORT), so a repeated row is skipped with NOT EXISTS instead.
const SETUP = `
CREATE TEMP TABLE IF NOT EXISTS graph_changes (version INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (version, path)) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS graph_bumps (version INTEGER PRIMARY KEY);
${[
  ['nodes_insert', 'AFTER INSERT ON nodes', ['NEW.path']],
  ['nodes_update', 'AFTER UPDATE ON nodes', ['NEW.path', 'OLD.path']],
  ['nodes_delete', 'AFTER DELETE ON nodes', ['OLD.path']],
  ['edges_insert', 'AFTER INSERT ON edges', ['NEW.origin_path']],
  ['edges_update', 'AFTER UPDATE ON edges', ['NEW.origin_path', 'OLD.origin_path']],
  ['edges_delete', 'AFTER DELETE ON edges', ['OLD.origin_path']],
]
  .map(
    ([name, when, paths]) =>
      `CREATE TEMP TRIGGER IF NOT EXISTS graph_changes_${name as string} ${when as string} BEGIN
${(paths as string[])
  .map(
    (p) =>
      `  INSERT INTO graph_changes SELECT v, ${p} FROM (SELECT CAST(value AS INTEGER) AS v FROM meta WHERE key = 'graph_version')
     WHERE NOT EXISTS (SELECT 1 FROM graph_changes WHERE version = v AND path = ${p});`,
  )
  .join('\n')}
END;`,
  )
  .join('\n')}
CREATE TEMP TRIGGER IF NOT EXISTS graph_changes_bump AFTER UPDATE ON meta WHEN NEW.key = 'graph_version' BEGIN
  INSERT INTO graph_bumps SELECT CAST(NEW.value AS INTEGER) WHERE NOT EXISTS (SELECT 1 FROM graph_bumps WHERE version = CAST(NEW.value AS INTEGER));
END;
`;

/**
 * Records, on one connection, which paths each of its writes changes — live nodes by path,
 * edges by origin path — and at which graph version, so a process that keeps snapshots of the
 * graph in memory can patch them instead of reading the whole graph again (the daemon's tool
 * workers). Writes by other connections are not seen: they show as graph versions this
 * connection did not make, and the changes then start again from the current version.
 */
export class GraphChangeTracker {
  private from: number | undefined;

  constructor(private readonly ctx: StoreContext) {}

  /** Starts recording (idempotent). */
  start(): void {
    if (this.from !== undefined) return;
    this.ctx.db.exec(SETUP);
    this.from = this.version();
  }

  /** The changes recorded since the last call (or {@link start}), then forgotten. */
  take(): GraphChanges {
    if (this.from === undefined) throw new Error('GraphChangeTracker.take() before start()');
    const from = this.from;
    const to = this.version();
    const changes = this.ctx.stmt('SELECT version, path FROM graph_changes ORDER BY version, path').raw(true).all() as [number, string][];
    const bumps = (this.ctx.stmt('SELECT count(*) AS n FROM graph_bumps WHERE version > ? AND version <= ?').get(from, to) as { n: number })
      .n;
    this.ctx.stmt('DELETE FROM graph_changes').run();
    this.ctx.stmt('DELETE FROM graph_bumps').run();
    this.from = to;
    // Every version between was made here: the record is complete. Otherwise another writer's
    // changes are missing, and what is known starts at `to`.
    return bumps === to - from ? { from, to, changes } : { from: to, to, changes: [] };
  }

  private version(): number {
    const row = this.ctx.stmt("SELECT value FROM meta WHERE key = 'graph_version'").get() as { value: string } | undefined;
    return Number(row?.value ?? 0);
  }
}
