import { EDGE_KINDS, NODE_KINDS, PROVENANCES, type VName } from '@travsr/protocol';
import { StoreError, StoreErrorCode } from './errors.js';
import { LineTokens, tokenDocument } from './identifier-tokens.js';
import { vnameKey, type NodeTable } from './node-table.js';
import type { StoreContext } from './store-context.js';
import type { FileGraphInput, ReplaceFileResult } from './types.js';

// Tokens of a file's text kept in file_fts: enough for any source file a person wrote;
// a huge generated file does not bloat the index.
const MAX_FILE_TOKENS = 50_000;
const MAX_DEFINITION_TOKENS = 4_000;

const NODE_KIND_SET = new Set<string>(NODE_KINDS);
const EDGE_KIND_SET = new Set<string>(EDGE_KINDS);
const PROVENANCE_SET = new Set<string>(PROVENANCES);

// The edges each phase owns (and so replaces). 'manual' edges belong to neither.
const DELETE_PHASE_EDGES = {
  A: "DELETE FROM edges WHERE origin_path = ? AND derived = 0 AND provenance = 'phase-a'",
  B: "DELETE FROM edges WHERE origin_path = ? AND derived = 0 AND provenance NOT IN ('phase-a', 'manual')",
} as const;

/** The last segment of a referenced name (`os.path.join` → `join`, `a::b` → `b`). */
export function refTargetName(name: string): string {
  const parts = name.split(/::|[.:/]/).filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? name;
}

/**
 * Per-file writes of the graph: replace one file's analysis, record a skipped file, remove a
 * file. Each method expects to run inside one transaction (the {@link GraphStore} opens it).
 */
export class FileGraphWriter {
  constructor(
    private readonly ctx: StoreContext,
    private readonly nodes: NodeTable,
  ) {}

  /** See {@link GraphStore.replaceFile}. */
  replaceFile(input: FileGraphInput): ReplaceFileResult {
    validate(input);
    if (input.status === 'failed') {
      this.recordFailure(input);
      return { nodes: 0, edges: 0, tombstoned: 0 };
    }
    const { path } = input;
    const now = this.ctx.now();
    const acl = input.acl ?? '';
    const ids = new Map<string, number>();
    const kept = new Set<number>();
    for (const node of input.nodes) {
      const id = this.nodes.upsertDefinition(node, acl);
      ids.set(vnameKey(node.vname), id);
      kept.add(id);
    }

    // Phase A owns the file's node set; Phase B only adds to it.
    let tombstoned = 0;
    if (input.phase === 'A')
      for (const id of this.nodes.liveIdsOfFile(path))
        if (!kept.has(id)) {
          this.nodes.tombstone(id, now);
          tombstoned++;
        }

    const held = this.nodes.placeholdersHeldBy(path);
    this.ctx.stmt(DELETE_PHASE_EDGES[input.phase]).run(path);
    // New refs invalidate the name matches made from the old ones; resolveRefs remakes them.
    const hadRefs = this.ctx.stmt('SELECT 1 FROM refs WHERE path = ? AND phase = ? LIMIT 1').get(path, input.phase) !== undefined;
    if (hadRefs || input.refs.length > 0) {
      this.ctx.stmt('DELETE FROM edges WHERE origin_path = ? AND derived = 1').run(path);
      this.ctx.stmt('DELETE FROM refs WHERE path = ? AND phase = ?').run(path, input.phase);
    }

    const idOf = (v: VName): number => {
      const key = vnameKey(v);
      let id = ids.get(key);
      if (id === undefined) {
        id = this.nodes.ensureReferenced(v);
        ids.set(key, id);
      }
      return id;
    };
    const insertEdge = this.ctx.stmt(
      `INSERT INTO edges (src, dst, kind, provenance, confidence, derived, origin_path) VALUES (?, ?, ?, ?, ?, 0, ?)
       ON CONFLICT (src, dst, kind, provenance, derived, origin_path) DO UPDATE SET confidence = max(confidence, excluded.confidence)`,
    );
    for (const e of input.edges) insertEdge.run(idOf(e.src), idOf(e.dst), e.kind, e.provenance, e.confidence, path);

    const insertRef = this.ctx.stmt(
      `INSERT INTO refs (path, phase, src, kind, name, target_name, start_line, start_col, end_line, end_col)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of input.refs)
      insertRef.run(
        path,
        input.phase,
        idOf(r.src),
        r.kind,
        r.name,
        refTargetName(r.name),
        r.range?.startLine ?? null,
        r.range?.startCol ?? null,
        r.range?.endLine ?? null,
        r.range?.endCol ?? null,
      );
    this.nodes.dropOrphanPlaceholders(held);

    // Text of other content would be found for words the file no longer has: dropped, the
    // text queue (or the next run, through filesWithoutText) writes it anew.
    if (input.text === undefined) {
      const old = this.ctx.stmt('SELECT sha256 FROM files WHERE path = ?').get(path) as { sha256: string } | undefined;
      if (old && old.sha256 !== input.sha256) this.dropTexts(path);
    }
    // Stored during an index run, the file stays pending (not done, so not "unchanged" to the
    // next run) until its last phase is stored (`done`) or the run completes.
    this.ctx
      .stmt(
        `INSERT INTO files (path, sha256, last_indexed_at, language, status, reason, plugin, phase, lines, diagnostics, acl, interface, pending_run)
         VALUES (?, ?, ?, ?, 'ok', NULL, ?, ?, ?, ?, ?, ?, (SELECT max(id) FROM index_runs WHERE state = 'running'))
         ON CONFLICT (path) DO UPDATE SET
           lines = CASE WHEN excluded.lines IS NOT NULL THEN excluded.lines
                        WHEN files.sha256 = excluded.sha256 THEN files.lines END,
           sha256 = excluded.sha256, last_indexed_at = excluded.last_indexed_at, language = excluded.language,
           status = 'ok', reason = NULL, plugin = excluded.plugin, phase = excluded.phase,
           diagnostics = excluded.diagnostics, acl = excluded.acl, pending_run = COALESCE(excluded.pending_run, files.pending_run),
           interface = CASE WHEN excluded.phase = 'A' THEN excluded.interface ELSE COALESCE(excluded.interface, files.interface) END`,
      )
      .run(
        path,
        input.sha256,
        now,
        input.language,
        input.plugin,
        input.phase,
        input.lines ?? null,
        JSON.stringify(input.diagnostics),
        acl,
        input.interface ? JSON.stringify(input.interface) : null,
      );
    if (input.done === true) this.ctx.stmt('UPDATE files SET pending_run = NULL WHERE path = ?').run(path);
    if (input.text !== undefined) this.writeTexts(path, input.text);
    this.ctx.bumpGraphVersion();
    return { nodes: input.nodes.length, edges: input.edges.length, tombstoned };
  }

  /** See {@link GraphStore.markSkipped}. */
  markSkipped(path: string, sha256: string, reason: string, language?: string): { tombstoned: number } {
    const tombstoned = this.dropFileGraph(path);
    this.ctx
      .stmt(
        `INSERT INTO files (path, sha256, last_indexed_at, language, status, reason, plugin, phase, lines, diagnostics)
         VALUES (?, ?, ?, ?, 'skipped', ?, NULL, NULL, NULL, '[]')
         ON CONFLICT (path) DO UPDATE SET sha256 = excluded.sha256, last_indexed_at = excluded.last_indexed_at,
           language = COALESCE(excluded.language, files.language), status = 'skipped', reason = excluded.reason,
           plugin = NULL, phase = NULL, lines = NULL, diagnostics = '[]', interface = NULL`,
      )
      .run(path, sha256, this.ctx.now(), language ?? null, reason);
    this.ctx.bumpGraphVersion();
    return { tombstoned };
  }

  /** See {@link GraphStore.removeFile}. */
  removeFile(path: string): { tombstoned: number } {
    const tombstoned = this.dropFileGraph(path);
    this.ctx.stmt('DELETE FROM files WHERE path = ?').run(path);
    this.ctx.bumpGraphVersion();
    return { tombstoned };
  }

  /** (Re)indexes a file's text: the whole file and each definition's own lines. */
  private writeTexts(path: string, text: string): void {
    this.ctx.bumpTextVersion();
    const lines = new LineTokens(text);
    this.writeFileText(path, lines);
    this.writeDefinitionText(path, lines);
  }

  /** (Re)indexes the file's path and content tokens in file_fts (rowid = the files row). */
  private writeFileText(path: string, lines: LineTokens): void {
    const row = this.ctx.stmt('SELECT rowid AS id FROM files WHERE path = ?').get(path) as { id: number };
    this.ctx.stmt('DELETE FROM file_fts WHERE rowid = ?').run(row.id);
    this.ctx
      .stmt('INSERT INTO file_fts (rowid, path, body) VALUES (?, ?, ?)')
      .run(row.id, tokenDocument(path), lines.document(0, lines.count - 1, MAX_FILE_TOKENS));
  }

  /**
   * (Re)indexes the own source of the file's live definitions in node_body_fts: a
   * definition's lines minus the lines of definitions nested in it (a class without its methods).
   */
  private writeDefinitionText(path: string, lines: LineTokens): void {
    this.ctx.stmt('DELETE FROM node_body_fts WHERE rowid IN (SELECT id FROM nodes WHERE path = ?)').run(path);
    // By start, the longest first: the definitions nested in one follow it, up to its end.
    const defs = (
      this.ctx
        .stmt(
          `SELECT id, start_line AS start, end_line AS "end" FROM nodes
           WHERE path = ? AND tombstoned_at IS NULL AND kind NOT IN ('file', 'module', 'external') AND start_line IS NOT NULL AND end_line IS NOT NULL
           ORDER BY start_line, end_line DESC`,
        )
        .all(path) as { id: number; start: number; end: number }[]
    )
      .map((d) => ({ ...d, end: Math.min(d.end, lines.count) }))
      .filter((d) => d.end >= d.start);
    const insert = this.ctx.stmt('INSERT INTO node_body_fts (rowid, body) VALUES (?, ?)');
    defs.forEach((d, k) => {
      // Lines (1-based, from d.start) of the definitions inside d, other than d's own range.
      const nested = new Uint8Array(d.end - d.start + 1);
      for (let j = k + 1; j < defs.length && defs[j]!.start <= d.end; j++) {
        const o = defs[j]!;
        if (o.end <= d.end && (o.start > d.start || o.end < d.end)) nested.fill(1, o.start - d.start, o.end - d.start + 1);
      }
      insert.run(
        d.id,
        lines.document(d.start - 1, d.end - 1, MAX_DEFINITION_TOKENS, (i) => nested[i + 1 - d.start] === 0),
      );
    });
  }

  /**
   * See {@link GraphStore.indexFileTexts}: the text indexes of a stored file (status ok);
   * false when the file is not stored as analyzed.
   */
  indexText(path: string, text: string): boolean {
    const row = this.ctx.stmt("SELECT 1 FROM files WHERE path = ? AND status = 'ok'").get(path);
    if (!row) return false;
    this.writeTexts(path, text);
    return true;
  }

  /** Deletes the file's text index rows (file_fts, node_body_fts). */
  private dropTexts(path: string): void {
    this.ctx.bumpTextVersion();
    this.ctx.stmt('DELETE FROM file_fts WHERE rowid = (SELECT rowid FROM files WHERE path = ?)').run(path);
    this.ctx.stmt('DELETE FROM node_body_fts WHERE rowid IN (SELECT id FROM nodes WHERE path = ?)').run(path);
  }

  /** Tombstones the file's nodes and deletes the edges and refs its analysis produced. */
  private dropFileGraph(path: string): number {
    this.dropTexts(path);
    const now = this.ctx.now();
    const ids = this.nodes.liveIdsOfFile(path);
    for (const id of ids) this.nodes.tombstone(id, now);
    const held = this.nodes.placeholdersHeldBy(path);
    this.ctx.stmt('DELETE FROM edges WHERE origin_path = ?').run(path);
    this.ctx.stmt('DELETE FROM refs WHERE path = ?').run(path);
    this.nodes.dropOrphanPlaceholders(held);
    return ids.length;
  }

  /** A failed analysis: the stored graph and sha256 stay, so the next run retries the file. */
  private recordFailure(input: FileGraphInput): void {
    const reason = input.diagnostics.find((d) => d.severity === 'error')?.message ?? 'analysis failed';
    this.ctx
      .stmt(
        `INSERT INTO files (path, sha256, last_indexed_at, language, status, reason, plugin, phase, lines, diagnostics, acl)
         VALUES (?, '', ?, ?, 'failed', ?, ?, NULL, NULL, ?, ?)
         ON CONFLICT (path) DO UPDATE SET language = COALESCE(files.language, excluded.language), status = 'failed',
           reason = excluded.reason, plugin = excluded.plugin, diagnostics = excluded.diagnostics`,
      )
      .run(input.path, this.ctx.now(), input.language, reason, input.plugin, JSON.stringify(input.diagnostics), input.acl ?? '');
  }
}

/** Checks the rules the store relies on; a violation is {@link StoreErrorCode.InvalidInput}. */
function validate(input: FileGraphInput): void {
  const bad = (why: string): never => {
    throw new StoreError(
      StoreErrorCode.InvalidInput,
      `cannot store the analysis of ${input.path || '(no path)'} by ${input.plugin || '(no plugin)'}: ${why}; nothing was written. ` +
        'The plugin or the indexer sent a graph the store cannot keep consistent; fix the sender',
    );
  };
  if (!input.path) bad('the path is empty');
  if (input.phase !== 'A' && input.phase !== 'B') bad(`phase ${String(input.phase)} is not A or B`);
  if (input.status !== 'ok' && input.status !== 'failed') bad(`status ${String(input.status)} is not ok or failed`);
  if (input.status === 'failed') return;
  for (const n of input.nodes) if (!NODE_KIND_SET.has(n.kind)) bad(`node kind ${String(n.kind)} is not one of ${NODE_KINDS.join(', ')}`);
  for (const e of input.edges) {
    if (!EDGE_KIND_SET.has(e.kind)) bad(`edge kind ${String(e.kind)} is not one of ${EDGE_KINDS.join(', ')}`);
    if (!PROVENANCE_SET.has(e.provenance)) bad(`edge provenance ${String(e.provenance)} is not one of ${PROVENANCES.join(', ')}`);
    if (!(typeof e.confidence === 'number' && e.confidence >= 0 && e.confidence <= 1))
      bad(`edge confidence ${String(e.confidence)} is not a number between 0 and 1`);
    if (input.phase === 'A' && e.provenance !== 'phase-a')
      bad(`a Phase A analysis sent a ${e.provenance} edge; Phase A edges must have provenance phase-a`);
    if (input.phase === 'B' && (e.provenance === 'phase-a' || e.provenance === 'manual'))
      bad(`a Phase B analysis sent a ${e.provenance} edge; Phase B edges must have provenance phase-b, scip or lsif`);
  }
  for (const r of input.refs) if (!EDGE_KIND_SET.has(r.kind)) bad(`ref kind ${String(r.kind)} is not one of ${EDGE_KINDS.join(', ')}`);
}
