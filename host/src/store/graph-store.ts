import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { PROVENANCES, type VName } from '@travsr/protocol';
import { hasForeignHeader } from '../paths/sqlite-header.js';
import { openSqlite } from '../paths/sqlite-native.js';
import { repoTravsrDir } from '../paths/travsr-home.js';
import { rebuildAdvice, StoreError, StoreErrorCode, translateSqliteError } from './errors.js';
import { FileGraphWriter } from './file-graph-writer.js';
import { GraphChangeTracker } from './graph-change-tracker.js';
import { FileTextIndex, type DefinitionHit, type FileHit, type FileSearchOptions } from './file-text-index.js';
import { exportGraph } from './graph-export.js';
import { MigrationRunner } from './migration-runner.js';
import { IndexRunLedger, type IndexRunMode, type IndexRunStart, type IndexRunStatus } from './index-runs.js';
import { GRAPH_MIGRATIONS } from './migrations/index.js';
import { NodeTable } from './node-table.js';
import { RefResolver } from './ref-resolver.js';
import { FILE_COLUMNS, NODE_COLUMNS, toFileRow, toNodeRow, type RawFile, type RawNode } from './rows.js';
import { StoreContext } from './store-context.js';
import { SymbolIndex, type SynonymOrigin, type SynonymPair } from './symbol-index.js';
import { VectorTable, type VectorEntry, type VectorHit, type VectorModelInfo } from './vector-table.js';
import type {
  EdgeRow,
  EdgeTuple,
  EmbeddableDefinition,
  GraphChanges,
  OriginEdgeTuple,
  FileGraphInput,
  FileRow,
  FileSummary,
  GraphCounts,
  GraphExport,
  GraphStoreOpenOptions,
  LiveNodeTuple,
  NodeHead,
  NodeRow,
  ReplaceFileResult,
  ResolveRefsResult,
  ResolveScope,
  SymbolHit,
  SymbolSearchOptions,
} from './types.js';

interface RawEdge {
  src: number;
  dst: number;
  kind: string;
  confidence: number;
  provenance: string;
  derived: number;
  origin_path: string;
}

/**
 * The repository's code graph in SQLite (`.travsr/graph.db`, WAL): nodes addressed by VName,
 * edges with provenance and confidence, per-file status, unresolved refs, an FTS5 symbol
 * index. Every write is one transaction; a reader opened with `{ readonly: true }` keeps
 * working, on a consistent snapshot inside {@link snapshot}, while another process writes.
 *
 * @example
 * ```ts
 * const store = GraphStore.forRepo('/path/to/repo');
 * store.replaceFile({ path: 'src/a.ts', sha256, language: 'typescript', phase: 'A', plugin: 'lang-typescript@0.1.0',
 *   status: 'ok', nodes, edges, refs, diagnostics: [] });
 * store.resolveRefs({ paths: ['src/a.ts'] });
 * store.close();
 * ```
 */
/** The provenances of plugins' Phase B edges (name matches and manual edges are not). */
const PHASE_B_PROVENANCES = PROVENANCES.filter((p) => p !== 'phase-a' && p !== 'manual');

export class GraphStore {
  /** The schema version this code writes (the number of migrations). */
  static readonly LATEST_SCHEMA_VERSION = GRAPH_MIGRATIONS.length;

  private readonly ctx: StoreContext;
  private readonly symbols: SymbolIndex;
  private readonly fileText: FileTextIndex;
  private readonly writer: FileGraphWriter;
  private readonly resolver: RefResolver;
  private readonly runs: IndexRunLedger;
  private readonly vectors: VectorTable;
  private changeTracker: GraphChangeTracker | undefined;
  private changeListener: ((changes: GraphChanges) => void) | undefined;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    /** The database file. */
    readonly path: string,
    /** True when opened with `{ readonly: true }`. */
    readonly readonly: boolean,
    private readonly runner: MigrationRunner,
  ) {
    this.ctx = new StoreContext(db, path);
    this.symbols = new SymbolIndex(this.ctx);
    this.fileText = new FileTextIndex(this.ctx);
    this.writer = new FileGraphWriter(this.ctx, new NodeTable(this.ctx, this.symbols));
    this.resolver = new RefResolver(this.ctx);
    this.runs = new IndexRunLedger(this.ctx);
    this.vectors = new VectorTable(this.ctx);
  }

  /**
   * Opens (creating it and its directory if needed) the graph database at `dbPath`: WAL,
   * busy_timeout 5000 ms, synchronous NORMAL, then pending migrations. With
   * `{ readonly: true }` nothing is created or migrated: the file must exist at
   * {@link LATEST_SCHEMA_VERSION}. Errors: STORE_CORRUPT (not SQLite or damaged),
   * STORE_TOO_NEW, STORE_OUTDATED (read-only open of an older schema), STORE_NOT_FOUND,
   * STORE_UNAVAILABLE, STORE_SCHEMA_UNKNOWN, STORE_MIGRATION_FAILED.
   */
  static open(dbPath: string, options: GraphStoreOpenOptions = {}): GraphStore {
    const readonly = options.readonly === true;
    if (readonly && !existsSync(dbPath))
      throw new StoreError(
        StoreErrorCode.NotFound,
        `there is no graph database at ${dbPath}; run \`travsr index\` in the repository first`,
        dbPath,
      );
    if (!readonly)
      try {
        mkdirSync(dirname(dbPath), { recursive: true });
      } catch (e) {
        throw new StoreError(
          StoreErrorCode.Unavailable,
          `cannot create the directory of ${dbPath}: ${(e as Error).message}; check the permissions of ${dirname(dbPath)}`,
          dbPath,
          { cause: e },
        );
      }
    assertSqliteHeader(dbPath);
    let db: Database.Database;
    try {
      db = openSqlite(dbPath, readonly ? { readonly: true, fileMustExist: true } : {});
    } catch (e) {
      throw translateSqliteError(e, dbPath);
    }
    try {
      db.pragma('busy_timeout = 5000');
      if (!readonly) {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
      }
      db.pragma('cache_size = -32768'); // KiB: 32 MiB of page cache per connection
      db.pragma('temp_store = MEMORY');
      const runner = new MigrationRunner(db, GRAPH_MIGRATIONS, dbPath);
      const version = runner.currentVersion();
      runner.assertNotTooNew(version);
      if (!readonly) runner.run();
      else if (version < GraphStore.LATEST_SCHEMA_VERSION)
        throw new StoreError(
          StoreErrorCode.Outdated,
          `${dbPath} is at schema v${version} and needs migrating to v${GraphStore.LATEST_SCHEMA_VERSION}, which a read-only open cannot do; run \`travsr index\` (or open it read-write) first`,
          dbPath,
        );
      return new GraphStore(db, dbPath, readonly, runner);
    } catch (e) {
      db.close();
      throw translateSqliteError(e, dbPath);
    }
  }

  /** Where the graph of the repository at `repoRoot` lives: `<repo>/.travsr/graph.db`. */
  static pathForRepo(repoRoot: string): string {
    return join(repoTravsrDir(repoRoot), 'graph.db');
  }

  /** Opens the graph of the repository at `repoRoot` (see {@link open}). */
  static forRepo(repoRoot: string, options: GraphStoreOpenOptions = {}): GraphStore {
    return GraphStore.open(GraphStore.pathForRepo(repoRoot), options);
  }

  /** The schema version of the database (as `travsr status` reports it). */
  schemaVersion(): number {
    return this.read(() => this.runner.currentVersion());
  }

  /** Closes the connection; later calls fail with STORE_CLOSED. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE): everything or nothing. Store
   * writes inside it join it (as savepoints), so a batch of files can commit at once.
   */
  transaction<T>(fn: () => T): T {
    return this.write(() => this.db.transaction(fn).immediate());
  }

  /**
   * Runs `fn` in one read transaction: every read inside sees the same snapshot, however
   * much another connection writes meanwhile. Wrap {@link exportGraph} iteration in it.
   */
  snapshot<T>(fn: () => T): T {
    return this.read(() => this.db.transaction(fn).deferred());
  }

  /**
   * Starts a read transaction that lasts until `end()`: like {@link snapshot}, for reads that
   * span awaits (streaming an export to a slow sink). Meant for read-only stores; on a
   * writable one, writes made before `end()` would join this transaction.
   */
  beginSnapshot(): { end(): void } {
    return this.read(() => {
      if (this.db.inTransaction)
        throw new StoreError(
          StoreErrorCode.InvalidInput,
          `a transaction is already open on ${this.path}; end it before starting a snapshot`,
          this.path,
        );
      this.db.exec('BEGIN');
      this.ctx.stmt("SELECT value FROM meta WHERE key = 'graph_version'").get(); // the first read fixes the snapshot
      return {
        end: () => {
          if (!this.closed && this.db.inTransaction) this.db.exec('COMMIT');
        },
      };
    });
  }

  /** The files row of `path`. */
  getFile(path: string): FileRow | undefined {
    return this.read(() => {
      const r = this.ctx.stmt(`SELECT ${FILE_COLUMNS} FROM files WHERE path = ?`).get(path) as RawFile | undefined;
      return r && toFileRow(r);
    });
  }

  /** Every files row, sorted by path. */
  listFiles(): FileRow[] {
    return this.read(() => (this.ctx.stmt(`SELECT ${FILE_COLUMNS} FROM files ORDER BY path`).all() as RawFile[]).map(toFileRow));
  }

  /**
   * Stores one file's analysis in ONE transaction. For status `ok`: upserts the nodes by
   * VName (reviving tombstones, turning placeholders into definitions); for Phase A,
   * tombstones the file's nodes the analysis no longer has; deletes this file's plugin
   * edges of the same phase (Phase A: provenance phase-a; Phase B: the others but manual)
   * and inserts the new ones (an endpoint with no node gets an 'external' placeholder);
   * replaces the file's refs of this phase (dropping the file's derived edges: call
   * {@link resolveRefs} afterwards); updates the files row. For status `failed`: the stored
   * graph and sha256 stay, only the failure is recorded, so the next run retries.
   * Bad input is STORE_INVALID_INPUT and writes nothing.
   */
  replaceFile(input: FileGraphInput): ReplaceFileResult {
    return this.write(() => this.inTransaction(() => this.writer.replaceFile(input), input.path));
  }

  /**
   * {@link replaceFile} for many files in one outer transaction (one commit instead of one
   * per file: about twice the write rate). Each file still gets its own savepoint, so a file
   * with bad input is rolled back alone and comes back as its STORE_INVALID_INPUT error while
   * the others are stored. Any other error rolls back the whole call.
   */
  replaceFiles(inputs: readonly FileGraphInput[]): Array<ReplaceFileResult | StoreError> {
    return this.write(() =>
      this.db
        .transaction(() =>
          inputs.map((input) => {
            try {
              return this.inTransaction(() => this.writer.replaceFile(input), input.path);
            } catch (e) {
              if (e instanceof StoreError && e.code === StoreErrorCode.InvalidInput) return e;
              throw e;
            }
          }),
        )
        .immediate(),
    );
  }

  /**
   * Records that `path` (content `sha256`) was not analyzed, and why (binary, generated,
   * too large, no plugin). Any older graph of the file is removed (nodes tombstoned), since
   * it no longer describes the content.
   */
  markSkipped(path: string, sha256: string, reason: string, language?: string): { tombstoned: number } {
    return this.write(() => this.inTransaction(() => this.writer.markSkipped(path, sha256, reason, language), path));
  }

  /**
   * Forgets a deleted file: tombstones its nodes, deletes the derived edges from and to
   * them, the edges and refs its analysis produced, and its files row. Plugin edges of other
   * files pointing into it stay until those files are reanalyzed ({@link dependentsOf}).
   */
  removeFile(path: string): { tombstoned: number } {
    return this.write(() => this.inTransaction(() => this.writer.removeFile(path), path));
  }

  /**
   * Phase A name matching: turns refs into derived edges (provenance phase-a, derived 1).
   * Candidates are live nodes (not file nodes, not placeholders) of the ref source's corpus
   * and language whose name is the ref's last segment (split on `.`, `:`, `/`, `::`):
   * exactly one in the ref's file → confidence 0.5; otherwise exactly one in the
   * repository → 0.35; several → no edge (ambiguous); none → unresolved.
   *
   * Without `scope`, every ref is re-resolved. With one, the refs from `scope.paths` or
   * with a target name in `scope.names` (and the other refs of their source nodes) are.
   * After an incremental update pass the changed and reanalyzed paths, and as names the
   * {@link definedNames} of the changed files before and after the update.
   */
  resolveRefs(scope?: ResolveScope): ResolveRefsResult {
    return this.write(() => this.inTransaction(() => this.resolver.resolve(scope)));
  }

  /**
   * Files other than `paths` whose plugin (non-derived) edges point into nodes of `paths`
   * (tombstoned ones included): what must be reanalyzed when `paths` change. Sorted.
   */
  dependentsOf(paths: readonly string[]): string[] {
    return [...this.dependentsWithCauses(paths).keys()];
  }

  /**
   * {@link dependentsOf}, with the files of `paths` each dependent's edges point into (its
   * causes): dependent → sorted causes, dependents sorted.
   */
  dependentsWithCauses(paths: readonly string[]): Map<string, string[]> {
    const rows = this.read(
      () =>
        this.ctx
          .stmt(
            `SELECT DISTINCT e.origin_path AS path, n.path AS cause FROM nodes n JOIN edges e ON e.dst = n.id
             WHERE n.path IN (SELECT value FROM json_each(@p)) AND e.derived = 0 AND e.origin_path <> ''
               AND e.origin_path NOT IN (SELECT value FROM json_each(@p))
             ORDER BY 1, 2`,
          )
          .all({ p: JSON.stringify(paths) }) as { path: string; cause: string }[],
    );
    const out = new Map<string, string[]>();
    for (const r of rows) {
      const causes = out.get(r.path);
      if (causes) causes.push(r.cause);
      else out.set(r.path, [r.cause]);
    }
    return out;
  }

  /**
   * The stored interfaces (protocol SPEC §9.11) of `paths` that have one: path → name → digest.
   * An interface that does not decode counts as none.
   */
  interfacesOf(paths: readonly string[]): Map<string, Record<string, string>> {
    const rows = this.read(
      () =>
        this.ctx
          .stmt('SELECT path, interface FROM files WHERE path IN (SELECT value FROM json_each(?)) AND interface IS NOT NULL')
          .all(JSON.stringify(paths)) as { path: string; interface: string }[],
    );
    const out = new Map<string, Record<string, string>>();
    for (const r of rows) {
      try {
        const value = JSON.parse(r.interface) as unknown;
        if (value && typeof value === 'object' && !Array.isArray(value)) out.set(r.path, value as Record<string, string>);
      } catch {
        // Not JSON: as if the plugin had sent none (every dependent is analyzed again).
      }
    }
    return out;
  }

  /**
   * Files with a plugin edge into a node of `path` called by one of `names` (tombstoned nodes
   * included), other than `path` itself, sorted: with {@link referrersOf}, the files a change of
   * those names in `path` can reach.
   */
  pointingInto(path: string, names: readonly string[]): string[] {
    if (names.length === 0) return [];
    return this.read(() =>
      (
        this.ctx
          .stmt(
            `SELECT DISTINCT e.origin_path AS path FROM nodes d JOIN edges e ON e.dst = d.id
             WHERE d.path = ? AND d.name IN (SELECT value FROM json_each(?)) AND e.derived = 0
               AND e.origin_path <> '' AND e.origin_path <> d.path
             ORDER BY 1`,
          )
          .all(path, JSON.stringify(names)) as { path: string }[]
      ).map((r) => r.path),
    );
  }

  /**
   * Files whose refs name one of `names` (by last segment), sorted. With {@link dependentsOf}:
   * a file whose call could not be resolved before may resolve now that a changed file
   * defines the name (or become ambiguous because a second file does), so its Phase B
   * analysis must be redone too.
   */
  referrersOf(names: readonly string[]): string[] {
    return this.read(() =>
      (
        this.ctx
          .stmt('SELECT DISTINCT path FROM refs WHERE target_name IN (SELECT value FROM json_each(?)) ORDER BY 1')
          .all(JSON.stringify(names)) as { path: string }[]
      ).map((r) => r.path),
    );
  }

  /** Names of the live definitions in `paths` (file nodes and placeholders excluded), sorted. */
  definedNames(paths: readonly string[]): string[] {
    return this.read(() =>
      (
        this.ctx
          .stmt(
            `SELECT DISTINCT name FROM nodes
             WHERE path IN (SELECT value FROM json_each(?)) AND tombstoned_at IS NULL
               AND kind NOT IN ('file', 'external') AND name <> ''
             ORDER BY 1`,
          )
          .all(JSON.stringify(paths)) as { name: string }[]
      ).map((r) => r.name),
    );
  }

  /**
   * What produced the resolved edges of each language: `{ language → { provenance → edges } }`
   * over the plugin edges of its files that Phase B owns (not `phase-a`, not `manual`, not
   * name-matched), so `travsr status` can say which Phase B ran (`phase-b`: the plugin's own
   * resolver; `scip`: an indexer it ran).
   */
  phaseBProvenance(): Record<string, Record<string, number>> {
    return this.read(() => {
      const rows = this.ctx
        .stmt(
          // Counted per file first (from the covering index), then joined: one files lookup per
          // file instead of one per edge.
          `SELECT f.language AS language, x.provenance AS provenance, sum(x.n) AS edges
           FROM (SELECT origin_path, provenance, count(*) AS n FROM edges
                 WHERE derived = 0 AND provenance NOT IN ('phase-a', 'manual') GROUP BY origin_path, provenance) x
           JOIN files f ON f.path = x.origin_path
           WHERE f.language IS NOT NULL
           GROUP BY 1, 2`,
        )
        .all() as { language: string; provenance: string; edges: number }[];
      const out: Record<string, Record<string, number>> = {};
      for (const r of rows) (out[r.language] ??= {})[r.provenance] = r.edges;
      return out;
    });
  }

  /**
   * The provenances of each language's Phase B edges (those of the files whose last phase is B),
   * as {@link phaseBProvenance} has them but without counting: for each language and provenance
   * the first file that has one such edge settles it, so `travsr status` reads a few index
   * entries instead of every edge.
   */
  phaseBProvenances(): Record<string, string[]> {
    return this.read(() => {
      const languages = (
        this.ctx.stmt("SELECT DISTINCT language FROM files WHERE phase = 'B' AND language IS NOT NULL ORDER BY language").all() as {
          language: string;
        }[]
      ).map((r) => r.language);
      const has = this.ctx.stmt(
        `SELECT 1 FROM files f WHERE f.language = ? AND f.phase = 'B'
           AND EXISTS (SELECT 1 FROM edges e WHERE e.origin_path = f.path AND e.derived = 0 AND e.provenance = ?) LIMIT 1`,
      );
      const out: Record<string, string[]> = {};
      for (const language of languages)
        for (const provenance of PHASE_B_PROVENANCES)
          if (has.get(language, provenance) !== undefined) (out[language] ??= []).push(provenance);
      return out;
    });
  }

  /**
   * What `travsr status` says of the files, read with a few aggregates instead of every row:
   * per language the analyzed files, those whose last phase is B and those with parse errors
   * (a `PARSE_ERRORS` diagnostic); and the failed and skipped files, sorted by path.
   */
  fileSummary(): FileSummary {
    return this.read(() => {
      const rows = this.ctx
        .stmt(
          `SELECT language, count(*) AS analyzed, sum(phase = 'B') AS phaseB,
             sum(diagnostics <> '[]' AND EXISTS (SELECT 1 FROM json_each(diagnostics) d WHERE d.value ->> 'code' = 'PARSE_ERRORS')) AS parseErrors
           FROM files WHERE status = 'ok' AND language IS NOT NULL GROUP BY language ORDER BY language`,
        )
        .all() as { language: string; analyzed: number; phaseB: number; parseErrors: number }[];
      return {
        byLanguage: Object.fromEntries(
          rows.map((r) => [r.language, { analyzed: r.analyzed, phaseB: r.phaseB, parseErrors: r.parseErrors }]),
        ),
        failed: this.ctx
          .stmt("SELECT path, plugin, reason FROM files WHERE status = 'failed' ORDER BY path")
          .all() as FileSummary['failed'],
        skipped: this.ctx.stmt("SELECT path, reason FROM files WHERE status = 'skipped' ORDER BY path").all() as FileSummary['skipped'],
      };
    });
  }

  /** Live definitions (externals left out) and edges: the totals an index run reports, without {@link counts}' breakdowns. */
  graphSize(): { nodes: number; edges: number } {
    return this.read(() => ({
      nodes: (this.ctx.stmt("SELECT count(*) AS c FROM nodes WHERE tombstoned_at IS NULL AND kind <> 'external'").get() as { c: number }).c,
      edges: (this.ctx.stmt('SELECT count(*) AS c FROM edges').get() as { c: number }).c,
    }));
  }

  /** Totals for `travsr status`. */
  counts(): GraphCounts {
    return this.read(() => {
      const one = (sql: string) => (this.ctx.stmt(sql).get() as { c: number }).c;
      const counts: GraphCounts = {
        files: one('SELECT count(*) AS c FROM files'),
        nodes: one("SELECT count(*) AS c FROM nodes WHERE tombstoned_at IS NULL AND kind <> 'external'"),
        externals: one("SELECT count(*) AS c FROM nodes WHERE tombstoned_at IS NULL AND kind = 'external'"),
        edges: one('SELECT count(*) AS c FROM edges'),
        tombstones: one('SELECT count(*) AS c FROM nodes WHERE tombstoned_at IS NOT NULL'),
        refs: one('SELECT count(*) AS c FROM refs'),
        byLanguage: {},
      };
      const entry = (language: string) => (counts.byLanguage[language] ??= { files: 0, nodes: 0, failed: 0, skipped: 0 });
      const files = this.ctx
        .stmt(
          `SELECT COALESCE(language, 'unknown') AS language, count(*) AS files,
             sum(status = 'failed') AS failed, sum(status = 'skipped') AS skipped
           FROM files GROUP BY 1`,
        )
        .all() as { language: string; files: number; failed: number; skipped: number }[];
      for (const f of files) Object.assign(entry(f.language), { files: f.files, failed: f.failed, skipped: f.skipped });
      const nodes = this.ctx
        .stmt("SELECT language, count(*) AS nodes FROM nodes WHERE tombstoned_at IS NULL AND kind <> 'external' GROUP BY language")
        .all() as { language: string; nodes: number }[];
      for (const n of nodes) entry(n.language).nodes = n.nodes;
      return counts;
    });
  }

  /**
   * The graph for `travsr graph export --format jsonl`: live nodes sorted by NodeId
   * (placeholders only when an exported edge touches them) and edges between live nodes
   * sorted by (src, dst, kind, provenance), one line per distinct edge with its highest
   * confidence. The iterables read lazily: iterate `nodes` to the end before `edges`, do
   * not use the store in between, and wrap both in {@link snapshot} when another process
   * may write meanwhile.
   */
  exportGraph(): GraphExport {
    this.read(() => undefined); // fails now, not at the first iteration, when closed
    return exportGraph(this.ctx);
  }

  /**
   * BM25 search over identifiers: the query is split like the indexed names
   * (`parseHttpResponse` finds `parse_http_response`), expanded through the synonyms,
   * and matched against names, qualified names, paths and skeletons of live nodes.
   */
  searchSymbols(query: string, options: SymbolSearchOptions = {}): SymbolHit[] {
    return this.read(() => this.symbols.search(query, options));
  }

  /** {@link searchSymbols} of every kind as [node id, score] pairs, best first: for ranking, which needs no rows. */
  searchSymbolIds(query: string, limit = 20): [number, number][] {
    return this.read(() => this.symbols.searchIds(query, limit));
  }

  /**
   * Every live node as a compact tuple, for loading the graph into memory:
   * [id, kind, name, qualified_name, path, start_line, end_line, corpus, acl], ordered by id;
   * only those of `paths` when given (a snapshot patched after an edit).
   */
  liveNodeColumns(paths?: readonly string[]): LiveNodeTuple[] {
    const columns = 'SELECT id, kind, name, qualified_name, path, start_line, end_line, corpus, acl FROM nodes';
    return this.read(
      () =>
        (paths === undefined
          ? this.ctx.stmt(`${columns} WHERE tombstoned_at IS NULL ORDER BY id`).raw(true).all()
          : this.ctx
              .stmt(`${columns} WHERE path IN (SELECT value FROM json_each(?)) AND tombstoned_at IS NULL ORDER BY id`)
              .raw(true)
              .all(JSON.stringify(paths))) as LiveNodeTuple[],
    );
  }

  /**
   * What a tool answer shows of the nodes with these store ids (any order; unknown ids are left
   * out): {@link nodesByIds} without the long columns (signature, skeleton), for many nodes at once.
   */
  nodeHeads(ids: readonly number[]): NodeHead[] {
    if (ids.length === 0) return [];
    return this.read(
      () =>
        this.ctx
          .stmt(
            `SELECT id, node_id AS nodeId, kind, name, qualified_name AS qualifiedName, corpus, path, start_line AS startLine,
               end_line AS endLine, end_col AS endCol FROM nodes WHERE id IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify(ids)) as NodeHead[],
    );
  }

  /** The nodes with these store ids (in the order given; unknown ids are left out). */
  nodesByIds(ids: readonly number[]): NodeRow[] {
    if (ids.length === 0) return [];
    return this.read(() => {
      const rows = this.ctx
        .stmt(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id IN (SELECT value FROM json_each(?))`)
        .all(JSON.stringify(ids)) as RawNode[];
      const byId = new Map(rows.map((r) => [r.id, toNodeRow(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    });
  }

  /** Live nodes whose node id (hex) starts with `prefix` (at most `limit`). */
  nodesByNodeIdPrefix(prefix: string, limit = 10): NodeRow[] {
    const p = prefix.toLowerCase().replace(/[^0-9a-f]/g, '');
    if (p.length === 0) return [];
    return this.read(() =>
      (
        this.ctx
          .stmt(
            `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.node_id >= ? AND n.node_id < ? AND tombstoned_at IS NULL ORDER BY n.node_id LIMIT ?`,
          )
          .all(p, `${p}g`, limit) as RawNode[]
      ).map(toNodeRow),
    );
  }

  /** Live nodes named `name` (exact) or whose qualified name is `name`, at most `limit`. */
  nodesNamed(name: string, limit = 50): NodeRow[] {
    return this.read(() =>
      (
        this.ctx
          .stmt(
            `SELECT ${NODE_COLUMNS} FROM nodes n WHERE (n.name = ? OR n.qualified_name = ?) AND tombstoned_at IS NULL
             AND kind NOT IN ('external', 'file') ORDER BY (n.qualified_name = ?) DESC, n.path, n.start_line LIMIT ?`,
          )
          .all(name, name, name, limit) as RawNode[]
      ).map(toNodeRow),
    );
  }

  /**
   * Replaces the cached k-core shells with `shells` ([store id, shell]) computed at graph
   * version `graphVersion`. Does not change the graph version.
   */
  writeCoreShells(shells: readonly (readonly [number, number])[], graphVersion: number): void {
    this.write(() =>
      this.inTransaction(() => {
        this.ctx.stmt('DELETE FROM kcore_shells').run();
        const insert = this.ctx.stmt(
          'INSERT INTO kcore_shells (node_id, shell, graph_version) SELECT node_id, ?, ? FROM nodes WHERE id = ?',
        );
        for (const [id, shell] of shells) insert.run(shell, graphVersion, id);
      }),
    );
  }

  /** The cached k-core shells ([store id, shell]) if they were computed at `graphVersion`, else undefined. */
  readCoreShells(graphVersion: number): [number, number][] | undefined {
    return this.read(() => {
      const any = this.ctx.stmt('SELECT graph_version AS v FROM kcore_shells LIMIT 1').get() as { v: number } | undefined;
      if (any?.v !== graphVersion) return undefined;
      return this.ctx
        .stmt('SELECT n.id, k.shell FROM kcore_shells k JOIN nodes n ON n.node_id = k.node_id WHERE k.graph_version = ?')
        .raw(true)
        .all(graphVersion) as [number, number][];
    });
  }

  /** Every edge as [src, dst, kind, confidence] (store ids), for loading the graph into memory. */
  edgeColumns(): EdgeTuple[] {
    return this.read(() => this.ctx.stmt('SELECT src, dst, kind, confidence FROM edges').raw(true).all() as EdgeTuple[]);
  }

  /**
   * Edges as [origin_path, src, dst, kind, confidence], in the order they were stored (rowid):
   * every edge, or those made by the analysis of `origins`. For snapshots kept per origin file.
   */
  originEdgeColumns(origins?: readonly string[]): OriginEdgeTuple[] {
    return this.read(
      () =>
        (origins === undefined
          ? this.ctx.stmt('SELECT origin_path, src, dst, kind, confidence FROM edges').raw(true).all()
          : this.ctx
              .stmt(
                'SELECT origin_path, src, dst, kind, confidence FROM edges WHERE origin_path IN (SELECT value FROM json_each(?)) ORDER BY rowid',
              )
              .raw(true)
              .all(JSON.stringify(origins))) as OriginEdgeTuple[],
    );
  }

  /**
   * Starts recording which paths this connection's writes change ({@link takeGraphChanges}):
   * temporary triggers, nothing is written to the file and other connections are unaffected.
   * With `listener`, each write's changes are taken and given to it as soon as the write is
   * committed. The daemon does it, so its tool workers patch their snapshots after an edit.
   */
  trackGraphChanges(listener?: (changes: GraphChanges) => void): void {
    this.read(() => (this.changeTracker ??= new GraphChangeTracker(this.ctx)).start());
    if (listener) this.changeListener = listener;
  }

  /** The changes recorded since the last call ({@link GraphChanges}); undefined when not tracking. */
  takeGraphChanges(): GraphChanges | undefined {
    return this.changeTracker ? this.read(() => this.changeTracker!.take()) : undefined;
  }

  /**
   * Files ranked by BM25 of `query` over their path and content (identifier tokens), best
   * first. Only files analyzed since schema v11 have text indexed; `travsr index --rebuild`
   * fills in older ones.
   */
  searchFiles(query: string, options: FileSearchOptions = {}): FileHit[] {
    return this.read(() => this.fileText.search(query, options));
  }

  /**
   * Writes the text indexes (file_fts, node_body_fts) of stored files from their text, each
   * file in the one transaction; files not stored as analyzed are left out. Returns how many
   * were indexed. The indexer calls this off the analysis path, so text indexing overlaps
   * the plugins' work.
   */
  indexFileTexts(entries: readonly { path: string; text: string }[]): number {
    return this.write(() => this.inTransaction(() => entries.filter((e) => this.writer.indexText(e.path, e.text)).length));
  }

  /** Analyzed files (status ok) whose text is not in the text index yet. */
  filesWithoutText(): string[] {
    return this.read(() =>
      (
        this.ctx
          .stmt("SELECT path FROM files f WHERE status = 'ok' AND NOT EXISTS (SELECT 1 FROM file_fts WHERE rowid = f.rowid) ORDER BY path")
          .all() as { path: string }[]
      ).map((r) => r.path),
    );
  }

  /** Files whose text contains the token sequence `tokens` (identifier tokens, in order), at most `limit`. */
  filesWithPhrase(tokens: readonly string[], limit = 8): string[] {
    return this.read(() => this.fileText.filesWithPhrase(tokens, limit));
  }

  /**
   * Definitions whose own source lines contain the token sequence `tokens` (an identifier such
   * as `min_similarity_lines` as its identifier tokens), at most `limit` nodes.id, in id order.
   */
  definitionsWithPhrase(tokens: readonly string[], limit = 64): number[] {
    return this.read(() => this.fileText.definitionsWithPhrase(tokens, limit));
  }

  /**
   * Definitions ranked by BM25 of `query` over their own source lines (a class without its
   * methods), best first; ids are nodes.id. Filled by analyses that carry the file's text.
   */
  searchDefinitions(query: string, options: FileSearchOptions = {}): DefinitionHit[] {
    return this.read(() => this.fileText.searchDefinitions(query, options));
  }

  /**
   * BM25 of `query` over every definition's own source lines that matches it, by node id,
   * unsorted and without checking that each node is still live: for ranking against a graph
   * snapshot (which holds live nodes only), where every candidate's score is looked up.
   */
  definitionScores(query: string, options: FileSearchOptions = {}): Map<number, number> {
    return this.read(() => this.fileText.definitionScores(query, options));
  }

  /**
   * Adds synonym pairs, used in both directions by {@link searchSymbols} and by every BM25 of
   * the text indexes (below the word itself); returns how many were new. Answers change with
   * them, so a change moves the graph version (caches of answers keyed by it are dropped).
   * All or none: a pair that is not two different words fails the whole call.
   */
  addSynonyms(pairs: readonly SynonymPair[]): number {
    return this.write(() =>
      this.inTransaction(() => {
        let added = 0;
        for (const p of pairs) if (this.symbols.addSynonym(p.term, p.synonym)) added++;
        if (added > 0) this.ctx.bumpGraphVersion();
        return added;
      }),
    );
  }

  /**
   * Makes the synonym pairs of the `retrieval.synonyms` setting exactly `pairs` (origin
   * `config`; a pair also added by a user stays), moving the graph version when anything
   * changed; true then. All or none, like {@link addSynonyms}. Every command that opens the
   * repository to write calls it: when nothing changed it only reads, and takes no write lock.
   */
  syncConfigSynonyms(pairs: readonly SynonymPair[]): boolean {
    if (!this.read(() => this.symbols.configSynonymsDiffer(pairs))) return false;
    return this.write(() =>
      this.inTransaction(() => {
        // Again under the lock: another process may have synced meanwhile.
        if (!this.symbols.configSynonymsDiffer(pairs)) return false;
        this.symbols.replaceConfigSynonyms(pairs);
        this.ctx.bumpGraphVersion();
        return true;
      }),
    );
  }

  /**
   * Stores `entries` (node id hex → vector) as `model`'s embeddings, replacing earlier ones of
   * the same nodes; all or none. A model's vectors share one dimension (see {@link VectorTable}).
   */
  putVectors(model: string, entries: readonly VectorEntry[]): number {
    return this.write(() => this.inTransaction(() => this.vectors.put(model, entries)));
  }

  /** Removes the vectors of `nodeIds` under `model` (under every model when undefined). */
  removeVectors(nodeIds: readonly string[], model?: string): number {
    return this.write(() => this.inTransaction(() => this.vectors.remove(nodeIds, model)));
  }

  /** Removes every vector of `model`. */
  dropVectorModel(model: string): number {
    return this.write(() => this.inTransaction(() => this.vectors.dropModel(model)));
  }

  /** A number that moves with every write to the vectors table (a query cache keys on it). */
  vectorVersion(): number {
    return this.read(() => this.vectors.version());
  }

  /** The models with stored vectors: name, dimension, count. */
  vectorModels(): VectorModelInfo[] {
    return this.read(() => this.vectors.models());
  }

  /**
   * The live definitions of `kinds` with a line range, by path and start: what `travsr embed`
   * turns into vectors.
   */
  definitionsToEmbed(kinds: readonly string[]): EmbeddableDefinition[] {
    return this.read(
      () =>
        this.ctx
          .stmt(
            `SELECT node_id AS nodeId, path, kind, name, qualified_name AS qualifiedName, skeleton, start_line AS startLine, end_line AS endLine
             FROM nodes WHERE tombstoned_at IS NULL AND kind IN (SELECT value FROM json_each(?)) AND start_line IS NOT NULL AND end_line IS NOT NULL
             ORDER BY path, start_line, id`,
          )
          .all(JSON.stringify(kinds)) as EmbeddableDefinition[],
    );
  }

  /** The store ids of the live nodes with these NodeIds (hex), by NodeId; unknown ones are left out. */
  idsOfNodeIds(nodeIds: readonly string[]): Map<string, number> {
    if (nodeIds.length === 0) return new Map();
    return this.read(
      () =>
        new Map(
          this.ctx
            .stmt('SELECT node_id, id FROM nodes WHERE node_id IN (SELECT value FROM json_each(?)) AND tombstoned_at IS NULL')
            .raw(true)
            .all(JSON.stringify(nodeIds)) as [string, number][],
        ),
    );
  }

  /** The source digest of each of `model`'s vectors, by node id (see VectorEntry.source). */
  vectorSources(model: string): Map<string, string | null> {
    return this.read(() => this.vectors.sources(model));
  }

  /** The vector of `nodeId` under `model`, if stored. */
  getVector(nodeId: string, model: string): Float32Array | undefined {
    return this.read(() => this.vectors.get(nodeId, model));
  }

  /**
   * The `k` nodes whose `model` vectors are most similar to `query` (cosine), best first;
   * approximate above 100,000 vectors unless `exact` (see {@link VectorTable.nearest}).
   */
  nearestVectors(model: string, query: Float32Array, k: number, options: { exact?: boolean } = {}): VectorHit[] {
    return this.read(() => this.vectors.nearest(model, query, k, options));
  }

  /** Adds a synonym pair (see {@link addSynonyms}); false when it was known already. */
  addSynonym(term: string, synonym: string): boolean {
    return this.addSynonyms([{ term, synonym }]) > 0;
  }

  /** Removes a synonym pair (either direction); true when it existed (the graph version then moves). */
  removeSynonym(term: string, synonym: string): boolean {
    return this.write(() =>
      this.inTransaction(() => {
        const removed = this.symbols.removeSynonym(term, synonym);
        if (removed) this.ctx.bumpGraphVersion();
        return removed;
      }),
    );
  }

  /** Where the synonym pair came from (`user` or `config`), either order; undefined when it is no pair. */
  synonymOrigin(term: string, synonym: string): SynonymOrigin | undefined {
    return this.read(() => this.symbols.synonymOrigin(term, synonym));
  }

  /** Every synonym pair, sorted. */
  listSynonyms(): SynonymPair[] {
    return this.read(() => this.symbols.listSynonyms());
  }

  /**
   * Calls `fn` with the identifier tokens of every definition's own text (as the definition
   * BM25 indexes them: name, signature, doc comment and body, lowercased, space-separated),
   * one definition at a time, from one snapshot: what `travsr synonym mine` reads.
   */
  forEachDefinitionText(fn: (tokens: string) => void): void {
    this.read(() => {
      for (const r of this.ctx.stmt('SELECT body FROM node_body_fts').raw(true).iterate() as Iterable<[string]>) fn(r[0]);
    });
  }

  /** The node with this VName, tombstoned or not. */
  findNode(vname: VName): NodeRow | undefined {
    return this.read(() => {
      const r = this.ctx
        .stmt(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE corpus = ? AND root = ? AND path = ? AND language = ? AND signature = ?`)
        .get(vname.corpus, vname.root, vname.path, vname.language, vname.signature) as RawNode | undefined;
      return r && toNodeRow(r);
    });
  }

  /** The nodes whose VName path is `path`, by surrogate id; live ones unless asked otherwise. */
  fileNodes(path: string, options: { includeTombstoned?: boolean } = {}): NodeRow[] {
    return this.read(() =>
      (
        this.ctx
          .stmt(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE path = ? AND (? OR tombstoned_at IS NULL) ORDER BY id`)
          .all(path, options.includeTombstoned ? 1 : 0) as RawNode[]
      ).map(toNodeRow),
    );
  }

  /** Stored edges leaving node `id` (surrogate), tombstoned endpoints included. */
  edgesFrom(id: number): EdgeRow[] {
    return this.read(() =>
      (this.ctx.stmt(`SELECT * FROM edges WHERE src = ? ORDER BY dst, kind, provenance, derived, origin_path`).all(id) as RawEdge[]).map(
        toEdgeRow,
      ),
    );
  }

  /** Stored edges arriving at node `id` (surrogate), tombstoned endpoints included. */
  edgesTo(id: number): EdgeRow[] {
    return this.read(() =>
      (this.ctx.stmt(`SELECT * FROM edges WHERE dst = ? ORDER BY src, kind, provenance, derived, origin_path`).all(id) as RawEdge[]).map(
        toEdgeRow,
      ),
    );
  }

  /**
   * Records the start of an index run. Runs that never completed (a process killed or
   * cancelled mid-run) become `interrupted`; the files they left pending are returned, and
   * the new run must analyze them again. Until {@link completeIndexRun}, a file the run stores
   * is pending — not done, so never "unchanged" to a later run — unless the input says `done`.
   */
  beginIndexRun(mode: IndexRunMode): IndexRunStart {
    return this.write(() => this.inTransaction(() => this.runs.begin(mode)));
  }

  /**
   * Marks the stored files among `paths` pending for run `runId`, in one transaction. The
   * indexer calls it with everything it is going to analyze before it changes any of it, so
   * a kill before the run completes leaves those files to the next run.
   */
  markFilesPending(runId: number, paths: readonly string[]): void {
    this.write(() => this.inTransaction(() => this.runs.markPending(runId, paths)));
  }

  /**
   * Files whose later phase (Phase B) the last complete run put off, sorted: they hold their
   * first phase's graph, and the next run analyzes them again whatever their hash.
   */
  deferredFiles(): string[] {
    return this.read(() => this.runs.deferredFiles());
  }

  /** Files an unfinished index run stored or was going to analyze, sorted. */
  pendingFiles(): string[] {
    return this.read(() => this.runs.pendingFiles());
  }

  /**
   * The last step of index run `runId`, in one transaction: every pending file counts as done,
   * the run is complete, and `last_indexed_at` (and `last_indexed_commit` when given) are set.
   */
  completeIndexRun(runId: number, opts: { commit?: string; deferred?: readonly string[] } = {}): void {
    this.write(() => this.inTransaction(() => this.runs.complete(runId, opts)));
  }

  /** The newest index run and how many files are pending; undefined before the first run. */
  lastIndexRun(): IndexRunStatus | undefined {
    return this.read(() => this.runs.last());
  }

  /**
   * SQLite's `quick_check`: the problems it finds (an empty list when the database is sound).
   * Reads every page, so it takes time proportional to the file; `travsr index --rebuild` runs it.
   */
  quickCheck(): string[] {
    return this.read(() => {
      const rows = (this.db.pragma('quick_check') as { quick_check: string }[]).map((r) => r.quick_check);
      return rows.length === 1 && rows[0] === 'ok' ? [] : rows;
    });
  }

  /** A value of the meta table. */
  getMeta(key: string): string | undefined {
    return this.read(() => (this.ctx.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value);
  }

  /** Sets a value of the meta table. */
  setMeta(key: string, value: string): void {
    this.write(() => {
      this.ctx.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    });
  }

  /** A counter bumped by every graph write; caches derived from the graph record it. */
  graphVersion(): number {
    return Number(this.getMeta('graph_version') ?? 0);
  }

  private read<T>(fn: () => T): T {
    if (this.closed)
      throw new StoreError(StoreErrorCode.Closed, `the graph store ${this.path} was used after close(); open it again`, this.path);
    try {
      return fn();
    } catch (e) {
      throw translateSqliteError(e, this.path);
    }
  }

  private write<T>(fn: () => T): T {
    if (this.readonly)
      throw new StoreError(
        StoreErrorCode.ReadOnly,
        `the graph store ${this.path} was opened read-only and cannot be written; open it without { readonly: true }`,
        this.path,
      );
    const result = this.read(fn);
    if (this.changeListener && !this.db.inTransaction) {
      const changes = this.read(() => this.changeTracker!.take());
      if (changes.to > changes.from || changes.changes.length > 0) this.changeListener(changes);
    }
    return result;
  }

  // One IMMEDIATE transaction (a savepoint when nested); constraint violations become
  // STORE_INVALID_INPUT naming the file, after the rollback.
  private inTransaction<T>(fn: () => T, path?: string): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'))
        throw new StoreError(
          StoreErrorCode.InvalidInput,
          `cannot store ${path ? `the analysis of ${path}` : 'the graph update'}: ${(e as Error).message}; nothing was written. Fix the input (a plugin or indexer bug), or ${rebuildAdvice(this.path)} if the database is at fault`,
          this.path,
          { cause: e },
        );
      throw e;
    }
  }
}

/** Refuses a file that is not SQLite before SQLite opens it (see {@link hasForeignHeader}: the `-wal` is kept). */
function assertSqliteHeader(dbPath: string): void {
  if (!hasForeignHeader(dbPath)) return;
  throw new StoreError(
    StoreErrorCode.Corrupt,
    `${dbPath} is not a usable Travsr graph database (it does not start with the SQLite header: it was overwritten or is another kind of file); ${rebuildAdvice(dbPath)}`,
    dbPath,
  );
}

function toEdgeRow(r: RawEdge): EdgeRow {
  return {
    src: r.src,
    dst: r.dst,
    kind: r.kind,
    confidence: r.confidence,
    provenance: r.provenance,
    derived: r.derived === 1,
    originPath: r.origin_path,
  };
}
