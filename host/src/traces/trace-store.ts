import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { openSqlite, SqliteNativeError } from '../paths/sqlite-native.js';
import { TravsrError } from '@travsr/protocol';
import { hasForeignHeader } from '../paths/sqlite-header.js';
import { repoTravsrDir, travsrHome } from '../paths/travsr-home.js';
import { TRACES_TABLE_SQL } from '../store/migrations/v10-traces.js';
import type { Trace, TraceKind, TraceStatus } from './trace.js';

const TRACE_COLUMNS = 'id, kind, started_at, subject, status, duration_ms, error_code, data';

/** Filters of {@link TraceStore.list}. */
export interface TraceQuery {
  limit?: number;
  kind?: TraceKind;
  status?: TraceStatus;
  /** Substring of the subject, e.g. a plugin id. */
  subject?: string;
}

/** A trace summary row. */
export interface TraceSummary {
  id: string;
  kind: TraceKind;
  startedAt: string;
  subject: string;
  status: TraceStatus;
  durationMs: number;
  error?: string;
}

/** Error raised when a trace cannot be found or the store cannot be opened. */
export class TraceStoreError extends TravsrError {
  override readonly name = 'TraceStoreError';
  constructor(
    readonly code: 'TRACE_NOT_FOUND' | 'TRACE_AMBIGUOUS' | 'TRACE_STORE_UNAVAILABLE',
    message: string,
  ) {
    super(message);
  }
}

/** The file a trace store keeps its traces in: `<repo>/.travsr/traces.db`, or `~/.travsr/traces.db`. */
export const TRACES_FILE = 'traces.db';

/**
 * Traces in SQLite: in the repository's `.travsr/traces.db` when there is a repository with a
 * `.travsr/` folder, otherwise in `~/.travsr/traces.db`. Never in the graph store: a trace is
 * written after every tool call, and a write to `graph.db` by one connection empties the page
 * cache of every other connection reading it (SQLite's WAL mode), so each question of a server
 * would start from a cold graph. Earlier builds kept a repository's traces in the graph store's
 * `traces` table; {@link forRepo} copies them over when it creates `traces.db`.
 */
export class TraceStore {
  private constructor(
    private readonly db: Database.Database,
    /** The database file holding the traces. */
    readonly path: string,
  ) {}

  /** Opens (creating if needed) the trace table in the SQLite file at `path`. */
  static open(path: string): TraceStore {
    // Never let SQLite touch a damaged file: closing it would delete the -wal a repair may still need.
    if (hasForeignHeader(path))
      throw new TraceStoreError(
        'TRACE_STORE_UNAVAILABLE',
        `cannot open the trace store ${path}: it is not an SQLite database (it was overwritten or is another kind of file); ${
          path.endsWith('graph.db')
            ? 'run `travsr index --rebuild` in the repository, which moves it aside'
            : 'move it aside; a new one is made'
        }`,
      );
    try {
      mkdirSync(dirname(path), { recursive: true });
      const db = openSqlite(path);
      db.pragma('journal_mode = WAL');
      // As the graph store: a commit is not synced to disk (a crash of the machine may lose the
      // last traces, never the file's consistency); a synced commit cost 0.4 ms of every call.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      // the table as the graph store's migration v10 makes it: traces.db has no migrations
      db.exec(TRACES_TABLE_SQL);
      return new TraceStore(db, path);
    } catch (e) {
      if (e instanceof SqliteNativeError) throw e;
      throw new TraceStoreError(
        'TRACE_STORE_UNAVAILABLE',
        `cannot open the trace store ${path}: ${(e as Error).message}; check that the directory is writable`,
      );
    }
  }

  /**
   * The store for work on `repoRoot` (its `.travsr/traces.db`), or the user-level one. Creating
   * a repository's store copies in the traces its graph store still holds (see the class).
   */
  static forRepo(repoRoot?: string): TraceStore {
    const path = TraceStore.locate(repoRoot);
    const created = !existsSync(path);
    const store = TraceStore.open(path);
    const inRepo = repoRoot !== undefined && dirname(path) === repoTravsrDir(repoRoot);
    if (created && inRepo) store.adoptGraphStoreTraces(join(dirname(path), 'graph.db'));
    return store;
  }

  /** Where {@link forRepo} keeps traces, without opening anything. */
  static locate(repoRoot?: string): string {
    if (repoRoot && existsSync(repoTravsrDir(repoRoot))) return join(repoTravsrDir(repoRoot), TRACES_FILE);
    return join(travsrHome(), TRACES_FILE);
  }

  /**
   * Copies the traces of the graph store at `graphDb` (its `traces` table, written by older
   * versions) into this store, keeping any already here; returns how many it copied. The graph
   * store is only read, and only when it is an SQLite file. Best effort: traces are diagnostics,
   * so a graph store that cannot be read (locked, damaged, without the table) copies nothing.
   */
  adoptGraphStoreTraces(graphDb: string): number {
    if (!existsSync(graphDb) || hasForeignHeader(graphDb)) return 0;
    let source: Database.Database | undefined;
    try {
      source = openSqlite(graphDb, { readonly: true, fileMustExist: true });
      if (source.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'traces'").get() === undefined) return 0;
      const rows = source.prepare(`SELECT ${TRACE_COLUMNS} FROM traces`).raw(true).all() as unknown[][];
      const insert = this.db.prepare(`INSERT OR IGNORE INTO traces (${TRACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
      let copied = 0;
      this.db.transaction(() => {
        for (const r of rows) copied += insert.run(...r).changes;
      })();
      return copied;
    } catch {
      return 0;
    } finally {
      source?.close();
    }
  }

  /** Inserts or replaces a trace. */
  save(trace: Trace): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO traces (${TRACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        trace.id,
        trace.kind,
        trace.startedAt,
        trace.subject,
        trace.status,
        trace.durationMs,
        trace.error?.code ?? null,
        JSON.stringify(trace),
      );
  }

  /** Saves several traces in one transaction. */
  saveAll(traces: readonly Trace[]): void {
    if (traces.length === 1) this.save(traces[0]!);
    else if (traces.length > 1) this.db.transaction(() => traces.forEach((t) => this.save(t)))();
  }

  /** The newest traces first. */
  list(query: TraceQuery = {}): TraceSummary[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const filter = (clause: string, arg: unknown) => {
      where.push(clause);
      args.push(arg);
    };
    if (query.kind) filter('kind = ?', query.kind);
    if (query.status) filter('status = ?', query.status);
    if (query.subject) filter("subject LIKE ? ESCAPE '\\'", `%${query.subject.replace(/[\\%_]/g, '\\$&')}%`);
    const sql = `SELECT data FROM traces ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, rowid DESC LIMIT ?`;
    args.push(query.limit ?? 20);
    return (this.db.prepare(sql).all(...args) as { data: string }[]).map(({ data }) => {
      const t = JSON.parse(data) as Trace;
      const s: TraceSummary = {
        id: t.id,
        kind: t.kind,
        startedAt: t.startedAt,
        subject: t.subject,
        status: t.status,
        durationMs: t.durationMs,
      };
      if (t.error) s.error = `${t.error.code}: ${t.error.message}`;
      return s;
    });
  }

  /** One trace by id or unique id prefix (at least 4 characters). */
  get(idOrPrefix: string): Trace {
    const rows = this.db
      .prepare("SELECT data FROM traces WHERE id = ? OR (length(?) >= 4 AND id LIKE ? || '%') LIMIT 2")
      .all(idOrPrefix, idOrPrefix, idOrPrefix.replace(/[%_]/g, '')) as { data: string }[];
    if (rows.length === 0)
      throw new TraceStoreError('TRACE_NOT_FOUND', `no trace ${idOrPrefix} in ${this.path}; run \`travsr trace list\` to see the ids`);
    if (rows.length > 1) throw new TraceStoreError('TRACE_AMBIGUOUS', `${idOrPrefix} matches several traces; give more of the id`);
    return JSON.parse(rows[0]!.data) as Trace;
  }

  close(): void {
    this.db.close();
  }
}
