import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Edge, EdgeKind, Node, NodeKind, Provenance, UnresolvedRef, VName } from '@travsr/protocol';
import { GraphStore } from '../../src/store/graph-store.js';
import type { FileGraphInput } from '../../src/store/types.js';

export const CORPUS = 'github.com/acme/app';

/** A fresh database path in its own temp directory. */
export function tempDbPath(prefix = 'travsr-store-'): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), '.travsr', 'graph.db');
}

/** A store on a fresh temp database. */
export function tempStore(): GraphStore {
  return GraphStore.open(tempDbPath());
}

/** The VName of `signature` in `path`. */
export function vn(path: string, signature: string, language = 'typescript', corpus = CORPUS): VName {
  return { corpus, root: '', path, language, signature };
}

/** A node named after the last part of its signature. */
export function def(path: string, signature: string, kind: NodeKind = 'function', extra: Partial<Node> = {}): Node {
  const name = signature.split(/[#.]/).filter(Boolean).pop() ?? signature;
  return { vname: vn(path, signature), kind, name, range: { startLine: 1, startCol: 0, endLine: 2, endCol: 1 }, ...extra };
}

export function edge(src: VName, dst: VName, kind: EdgeKind = 'calls', provenance: Provenance = 'phase-a', confidence = 1): Edge {
  return { src, dst, kind, provenance, confidence };
}

export function ref(src: VName, name: string, kind: EdgeKind = 'calls'): UnresolvedRef {
  return { src, kind, name };
}

/** A Phase A, status ok analysis of `path`. */
export function analysis(path: string, parts: Partial<FileGraphInput> = {}): FileGraphInput {
  return {
    path,
    sha256: `sha-of-${path}`,
    language: 'typescript',
    phase: 'A',
    plugin: 'lang-typescript@0.1.0',
    status: 'ok',
    nodes: [],
    edges: [],
    refs: [],
    diagnostics: [],
    ...parts,
  };
}

/** The export as plain arrays. */
export function exported(store: GraphStore) {
  return store.snapshot(() => {
    const g = store.exportGraph();
    return { nodes: [...g.nodes], edges: [...g.edges] };
  });
}
