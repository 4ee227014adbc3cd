import type { Diagnostic, NodeKind } from '@travsr/protocol';
import type { FileRow, NodeRow } from './types.js';

/** The columns {@link toNodeRow} reads, qualified with the alias `n`. */
export const NODE_COLUMNS =
  'n.id, n.node_id, n.corpus, n.root, n.path, n.language, n.signature, n.kind, n.name, n.qualified_name, ' +
  'n.start_line, n.start_col, n.end_line, n.end_col, n.skeleton, n.acl, n.tombstoned_at';

/** A nodes row as SQLite returns it. */
export interface RawNode {
  id: number;
  node_id: string;
  corpus: string;
  root: string;
  path: string;
  language: string;
  signature: string;
  kind: string;
  name: string;
  qualified_name: string | null;
  start_line: number | null;
  start_col: number | null;
  end_line: number | null;
  end_col: number | null;
  skeleton: string | null;
  acl: string;
  tombstoned_at: number | null;
}

/** Maps a {@link RawNode} to the public {@link NodeRow}. */
export function toNodeRow(r: RawNode): NodeRow {
  return {
    id: r.id,
    nodeId: r.node_id,
    vname: { corpus: r.corpus, root: r.root, path: r.path, language: r.language, signature: r.signature },
    kind: r.kind as NodeKind | 'external',
    name: r.name,
    qualifiedName: r.qualified_name,
    startLine: r.start_line,
    startCol: r.start_col,
    endLine: r.end_line,
    endCol: r.end_col,
    skeleton: r.skeleton,
    acl: r.acl,
    tombstoned: r.tombstoned_at !== null,
  };
}

/** The columns {@link toFileRow} reads. */
export const FILE_COLUMNS = 'path, sha256, last_indexed_at, language, status, reason, plugin, phase, lines, diagnostics, acl';

/** A files row as SQLite returns it. */
export interface RawFile {
  path: string;
  sha256: string;
  last_indexed_at: number;
  language: string | null;
  status: FileRow['status'];
  reason: string | null;
  plugin: string | null;
  phase: FileRow['phase'];
  lines: number | null;
  diagnostics: string;
  acl: string;
}

/** Maps a {@link RawFile} to the public {@link FileRow}. */
export function toFileRow(r: RawFile): FileRow {
  return {
    path: r.path,
    sha256: r.sha256,
    lastIndexedAt: r.last_indexed_at,
    language: r.language,
    status: r.status,
    reason: r.reason,
    plugin: r.plugin,
    phase: r.phase,
    lines: r.lines,
    diagnostics: JSON.parse(r.diagnostics) as Diagnostic[],
    acl: r.acl,
  };
}
