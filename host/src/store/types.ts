import type { Diagnostic, Edge, Node, NodeKind, Provenance, UnresolvedRef, VName } from '@travsr/protocol';
import type { NodeId } from '@travsr/protocol';

/** One file's analysis as the indexer hands it to the store (a checked `graph/file`). */
export interface FileGraphInput {
  /** Path relative to the repository root, `/`-separated. */
  path: string;
  sha256: string;
  language: string;
  /**
   * Which pass produced it. Phase A owns the file's node set (nodes it omits are
   * tombstoned) and its `phase-a` edges; Phase B upserts nodes and owns the file's
   * non-`phase-a`, non-`manual` edges. A Phase A input may only carry `phase-a` edges and a
   * Phase B input none, so that re-running one phase never leaves or deletes the other's.
   */
  phase: 'A' | 'B';
  /** The plugin that produced it, `id@version`. */
  plugin: string;
  /** `failed`: nothing stored for this file is replaced; the failure is recorded. */
  status: 'ok' | 'failed';
  nodes: Node[];
  edges: Edge[];
  refs: UnresolvedRef[];
  diagnostics: Diagnostic[];
  /** Line count of the analyzed content, when the indexer knows it. */
  lines?: number;
  /**
   * What other files can observe of this one, per qualified name (protocol SPEC §9.11). A
   * Phase A input replaces the stored interface (none clears it); a Phase B input replaces it
   * only when it has one.
   */
  interface?: Readonly<Record<string, string>>;
  /** RBAC: who may see this file and its nodes; '' (the default) = every reader of the corpus. */
  acl?: string;
  /**
   * The file's content, for the file text index (`file_fts`, lexical retrieval). Omitted:
   * the index keeps what it had for the same content (Phase B sends none); text of other
   * content (another sha256) is dropped, so {@link GraphStore.filesWithoutText} finds the file.
   */
  text?: string;
  /**
   * During an index run, true on the last analysis the run stores for this file: the file
   * then counts as done. Otherwise a file stored while a run is open stays pending (not
   * "unchanged" to a later run) until the run completes. Outside a run it changes nothing.
   */
  done?: boolean;
}

/** A row of the files table (v1 columns plus what later migrations add). */
export interface FileRow {
  path: string;
  /** sha256 of the content the stored graph describes ('' when it never indexed successfully). */
  sha256: string;
  /** When the stored graph was written, ms since the epoch. */
  lastIndexedAt: number;
  language: string | null;
  /** `ok`, `failed` (analysis failed; older graph kept), `skipped` (see reason). */
  status: 'ok' | 'failed' | 'skipped';
  reason: string | null;
  plugin: string | null;
  /** The last phase whose graph is stored. */
  phase: 'A' | 'B' | null;
  lines: number | null;
  diagnostics: Diagnostic[];
  acl: string;
}

/** The columns of a node a tool answer shows ({@link GraphStore.nodeHeads}). */
export interface NodeHead {
  id: number;
  nodeId: NodeId;
  kind: string;
  name: string;
  qualifiedName: string | null;
  corpus: string;
  path: string;
  startLine: number | null;
  endLine: number | null;
  endCol: number | null;
}

/** A node as stored and exported. */
export interface NodeRow {
  /** Surrogate key (nodes.id), stable for the life of the database. */
  id: number;
  /** BLAKE3 of the canonical VName: the id other tools see. */
  nodeId: NodeId;
  vname: VName;
  /** `external`: a placeholder for the target of an edge whose definition is not indexed. */
  kind: NodeKind | 'external';
  name: string;
  qualifiedName: string | null;
  startLine: number | null;
  startCol: number | null;
  endLine: number | null;
  endCol: number | null;
  skeleton: string | null;
  acl: string;
  /** True once the node's file was reindexed without it (kept for history, hidden from queries). */
  tombstoned: boolean;
}

/** An edge as stored and exported. */
export interface EdgeRow {
  src: number;
  dst: number;
  kind: string;
  confidence: number;
  provenance: string;
  /** True for edges the host made by name matching ({@link GraphStore.resolveRefs}). */
  derived: boolean;
  /** The file whose analysis produced the edge. */
  originPath: string;
}

/** What {@link GraphStore.replaceFile} wrote. */
export interface ReplaceFileResult {
  nodes: number;
  edges: number;
  /** Nodes of the file that the new analysis no longer defines. */
  tombstoned: number;
}

/** What {@link GraphStore.resolveRefs} did. */
export interface ResolveRefsResult {
  /** Derived edges written. */
  edges: number;
  /** Refs with several candidates: no edge ("no edge is better than a wrong one"). */
  ambiguous: number;
  /** Refs with no candidate. */
  unresolved: number;
}

/** Which refs {@link GraphStore.resolveRefs} re-resolves; omitted = all. */
export interface ResolveScope {
  /** Refs reported by these files. */
  paths?: readonly string[];
  /** Refs whose target name (last segment) is one of these. */
  names?: readonly string[];
}

/** Per-language totals of {@link GraphStore.counts}. */
export interface LanguageCounts {
  files: number;
  /** Live nodes, placeholders excluded. */
  nodes: number;
  failed: number;
  skipped: number;
}

/** What `travsr status` says of the files ({@link GraphStore.fileSummary}). */
export interface FileSummary {
  /** Per language, over its analyzed (status ok) files. */
  byLanguage: Record<string, { analyzed: number; phaseB: number; parseErrors: number }>;
  failed: { path: string; plugin: string | null; reason: string | null }[];
  skipped: { path: string; reason: string | null }[];
}

/** Totals for `travsr status`. */
export interface GraphCounts {
  files: number;
  /** Live nodes, placeholders excluded. */
  nodes: number;
  /** Live placeholder ('external') nodes. */
  externals: number;
  /**
   * Stored edge rows: derived ones included, and plugin edges into nodes tombstoned since
   * (until their files are reanalyzed). The export shows fewer.
   */
  edges: number;
  tombstones: number;
  refs: number;
  /** Keyed by language; files without a language under 'unknown'. */
  byLanguage: Record<string, LanguageCounts>;
}

/** A symbol search hit: the node and its BM25 score (higher is better). */
export interface SymbolHit {
  node: NodeRow;
  score: number;
}

/** Options of {@link GraphStore.searchSymbols}. */
export interface SymbolSearchOptions {
  /** At most this many hits (default 20). */
  limit?: number;
  /** Only nodes of these kinds. */
  kinds?: readonly NodeKind[];
}

/** One node line of `travsr graph export --format jsonl`. */
export interface ExportNode {
  type: 'node';
  /** NodeId hex. */
  id: NodeId;
  kind: NodeKind | 'external';
  name: string;
  qualified_name: string | null;
  /** Relative to the repository (corpus) root. */
  path: string;
  language: string;
  signature: string;
  /** 1-based. */
  start_line: number | null;
  /** 0-based UTF-8 byte column, as the protocol's ranges. */
  start_col: number | null;
  end_line: number | null;
  end_col: number | null;
}

/** One edge line of `travsr graph export --format jsonl`. */
export interface ExportEdge {
  type: 'edge';
  src: NodeId;
  dst: NodeId;
  kind: string;
  confidence: number;
  provenance: Provenance;
}

/** The graph as {@link GraphStore.exportGraph} streams it. */
export interface GraphExport {
  nodes: Iterable<ExportNode>;
  edges: Iterable<ExportEdge>;
}

/** Options of {@link GraphStore.open}. */
export interface GraphStoreOpenOptions {
  /** Open read-only: no migrations, no writes; the database must exist at the latest version. */
  readonly?: boolean;
}

/** A live node for in-memory loading: [id, kind, name, qualified_name, path, start_line, end_line, corpus, acl]. */
export type LiveNodeTuple = [number, string, string, string | null, string, number | null, number | null, string, string];

/** An edge for in-memory loading: [src, dst, kind, confidence]. */
export type EdgeTuple = [number, number, string, number];

/** An edge with the file whose analysis made it: [origin_path, src, dst, kind, confidence]. */
export type OriginEdgeTuple = [string, number, number, string, number];

/**
 * What {@link GraphStore.takeGraphChanges} reports: the paths whose live nodes (by path) or
 * edges (by origin path) changed, each with the graph version it changed at — a change at
 * version `v` is seen by a reader at any version above `v`. Complete for `from ≤ v < to`: a
 * writer on another connection moved the version in between when `from` equals `to`.
 */
export interface GraphChanges {
  from: number;
  /** The graph version when they were taken. */
  to: number;
  changes: [version: number, path: string][];
}

/** A definition as `travsr embed` reads it (GraphStore.definitionsToEmbed). */
export interface EmbeddableDefinition {
  /** NodeId hex: the key of its vectors. */
  nodeId: string;
  path: string;
  kind: string;
  name: string;
  qualifiedName: string | null;
  skeleton: string | null;
  startLine: number;
  endLine: number;
}
