import type { ContextWeights } from './context-weights.js';
import type { FileRanking } from './file-ranking.js';
import { coreShells } from './kcore-cache.js';
import type { LexicalEvidence } from './lexical-evidence.js';
import { isVisibleNode, type VisibleGraph } from './visible-graph.js';

/** k-core shell numbers (dense order) and the largest among the relevant nodes (at least 1). */
export interface StructuralCore {
  shells: Uint32Array;
  maxShell: number;
}

/** Step 3 of get_context: the k-core shells (cached per graph version) that lift well-connected nodes, the "buried middle". */
export function structuralCore(g: VisibleGraph, relevance: ReadonlyMap<number, number>): StructuralCore {
  const shells = coreShells(g.cg, g.snap);
  let maxShell = 1;
  for (const d of relevance.keys()) maxShell = Math.max(maxShell, shells[d] ?? 0);
  return { shells, maxShell };
}

/** True when `d` is in the structural core: a shell of at least 80% of the largest, in a graph with real cores. */
export function inStructuralCore(core: StructuralCore, d: number): boolean {
  return (core.shells[d] ?? 0) >= core.maxShell * 0.8 && core.maxShell > 2;
}

/** The scored nodes of a question. */
export interface NodeScores {
  /** Best first, ties by dense index. */
  ranked: [number, number][];
  /** The same scores by dense node. */
  score: Map<number, number>;
  /** Nodes considered: with lexical evidence or relevance, hidden and external ones included. */
  candidates: number;
}

/**
 * The final score of every visible, non-external node with lexical evidence or relevance:
 * lexical evidence, graph relevance, its file's text match and rank, lifted by its k-shell.
 */
export function scoreNodes(
  g: VisibleGraph,
  evidence: LexicalEvidence,
  relevance: ReadonlyMap<number, number>,
  files: FileRanking,
  core: StructuralCore,
  W: ContextWeights,
): NodeScores {
  const { snap } = g;
  const candidates = new Set<number>([...evidence.nodes.keys(), ...relevance.keys()]);
  const score = new Map<number, number>();
  for (const d of candidates) {
    if (!isVisibleNode(g, d) || snap.kinds[d] === 'external') continue;
    const s = evidence.nodes.get(d);
    const path = snap.paths[d]!;
    const base =
      W.nodeLexical * (s?.lexical ?? 0) +
      W.nodeBody * (s?.body ?? 0) +
      W.nodeMention * Math.min(1, s?.mention ?? 0) +
      W.nodePpr * (relevance.get(d) ?? 0) +
      W.nodeFileText * (evidence.fileText.get(path) ?? 0) +
      (evidence.namedFiles.has(path) ? W.nodePathMention : 0) +
      W.nodeFileRank * (files.best > 0 ? (files.score.get(path) ?? 0) / files.best : 0);
    const lift = 1 + W.coreLift * ((core.shells[d] ?? 0) / core.maxShell);
    score.set(d, base * lift);
  }
  return { ranked: [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]), score, candidates: candidates.size };
}
