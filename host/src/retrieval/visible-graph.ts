import { visibilityMask, type AccessPolicy } from './access-policy.js';
import type { CodeGraph } from './code-graph.js';
import { fileNodeIndex } from './file-nodes.js';
import type { GraphSnapshot } from './graph-snapshot.js';

/** The graph as one caller may see it: the snapshot a query runs on and the caller's visibility mask. */
export interface VisibleGraph {
  readonly cg: CodeGraph;
  readonly snap: GraphSnapshot;
  /** 1 for each dense node the caller may see ({@link visibilityMask}). */
  readonly visible: Uint8Array;
}

/** The current snapshot of `cg` seen through `policy`. */
export function visibleGraph(cg: CodeGraph, policy: AccessPolicy): VisibleGraph {
  const snap = cg.snapshot();
  return { cg, snap, visible: visibilityMask(snap, policy) };
}

/** True when `d` is a node of the snapshot the caller may see (an unknown id is not). */
export function isVisibleNode(g: VisibleGraph, d: number | undefined): d is number {
  return d !== undefined && g.visible[d] === 1;
}

/** True when the caller may see the file: its `file` node, or (without one) any node of it. */
export function isVisibleFile(g: VisibleGraph, path: string): boolean {
  const d = fileNodeIndex(g.snap).get(path);
  return d !== undefined ? g.visible[d] === 1 : g.cg.store.fileNodes(path).some((n) => g.visible[g.snap.denseOf(n.id) ?? -1] === 1);
}
