import type { NodeHead, NodeRow } from '../store/index.js';

/** A node as every result names it: what it is and exactly where. */
export interface NodeRef {
  /** The node id (BLAKE3 of its VName, hex): stable across runs, accepted by every tool. */
  id: string;
  kind: string;
  name: string;
  qualifiedName: string | null;
  corpus: string;
  path: string;
  /** 1-based, inclusive; null when the analyzer gave no range. */
  startLine: number | null;
  endLine: number | null;
}

/** The {@link NodeRef} of a stored node. */
export function nodeRef(row: NodeRow): NodeRef {
  return {
    id: row.nodeId,
    kind: row.kind,
    name: row.name,
    qualifiedName: row.qualifiedName,
    corpus: row.vname.corpus,
    path: row.vname.path,
    startLine: row.startLine,
    endLine: lastLine(row),
  };
}

/** The {@link NodeRef} of a node's head (`GraphStore.nodeHeads`): the same as {@link nodeRef} of its row. */
export function headRef(head: NodeHead): NodeRef {
  return {
    id: head.nodeId,
    kind: head.kind,
    name: head.name,
    qualifiedName: head.qualifiedName,
    corpus: head.corpus,
    path: head.path,
    startLine: head.startLine,
    endLine: lastLine(head),
  };
}

/** The last line a node covers, inclusive (ranges end exclusive: column 0 of the next line). */
export function lastLine(row: { startLine: number | null; endLine: number | null; endCol?: number | null }): number | null {
  if (row.endLine === null) return null;
  if (row.endCol === 0 && row.startLine !== null && row.endLine > row.startLine) return row.endLine - 1;
  return row.endLine;
}

/** `path:start-end` for a reader. */
export function location(ref: Pick<NodeRef, 'path' | 'startLine' | 'endLine'>): string {
  if (ref.startLine === null) return ref.path;
  return ref.endLine !== null && ref.endLine !== ref.startLine
    ? `${ref.path}:${ref.startLine}-${ref.endLine}`
    : `${ref.path}:${ref.startLine}`;
}
