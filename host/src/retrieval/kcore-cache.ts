import { EDGE_KINDS } from '@travsr/protocol';
import type { GraphStore } from '../store/index.js';
import type { CodeGraph } from './code-graph.js';
import { GraphSnapshot } from './graph-snapshot.js';
import { coreNumbers } from './kcore.js';
import { edgeKindMask } from './traversal-options.js';

// Containment links a file to everything in it: it would make every big file a "core".
const SHELL_EDGE_KINDS = edgeKindMask(EDGE_KINDS.filter((k) => k !== 'contains'));

const perSnapshot = new WeakMap<GraphSnapshot, Uint32Array>();

/**
 * k-core shell numbers of the snapshot's nodes (dense order). Read from the store's cache
 * when it was computed at this graph version (the indexer writes it after each run,
 * {@link storeCoreShells}); computed in memory otherwise. Computed over the whole graph,
 * so a shell number is a property of the code base, not of a caller.
 */
export function coreShells(cg: CodeGraph, snap: GraphSnapshot): Uint32Array {
  const hit = perSnapshot.get(snap);
  if (hit) return hit;
  let shells: Uint32Array;
  const cached = cg.store.readCoreShells(snap.graphVersion);
  if (cached && cached.length > 0) {
    shells = new Uint32Array(snap.nodeCount);
    for (const [id, shell] of cached) {
      const d = snap.denseOf(id);
      if (d !== undefined) shells[d] = shell;
    }
  } else {
    shells = coreNumbers(snap.graph, { edgeKinds: SHELL_EDGE_KINDS });
  }
  perSnapshot.set(snap, shells);
  return shells;
}

/** Computes the k-core shells of `store`'s current graph and caches them in the store. Returns the largest shell. */
export function storeCoreShells(store: GraphStore): { nodes: number; maxShell: number } {
  const snap = GraphSnapshot.load(store);
  const shells = coreNumbers(snap.graph, { edgeKinds: SHELL_EDGE_KINDS });
  const rows: [number, number][] = [];
  let maxShell = 0;
  for (let d = 0; d < shells.length; d++) {
    maxShell = Math.max(maxShell, shells[d]!);
    rows.push([snap.storeIdOf(d), shells[d]!]);
  }
  store.writeCoreShells(rows, snap.graphVersion);
  perSnapshot.set(snap, shells);
  return { nodes: rows.length, maxShell };
}
