import type { GraphSnapshot } from './graph-snapshot.js';

/** Dense index of each file's `file` node (cached per snapshot). */
export function fileNodeIndex(snap: GraphSnapshot): Map<string, number> {
  const cached = fileNodeCache.get(snap);
  if (cached) return cached;
  const m = new Map<string, number>();
  for (let d = 0; d < snap.nodeCount; d++) if (snap.kinds[d] === 'file') m.set(snap.paths[d]!, d);
  fileNodeCache.set(snap, m);
  return m;
}
const fileNodeCache = new WeakMap<GraphSnapshot, Map<string, number>>();

/** Indexed files a mentioned path names (exact, or the mention is a suffix: `models.py` → `requests/models.py`). */
export function filesMatching(snap: GraphSnapshot, mention: string): string[] {
  const files = [...fileNodeIndex(snap).keys()];
  const exact = files.filter((f) => f === mention);
  if (exact.length > 0) return exact;
  const parts = mention.split('/');
  // Try ever shorter suffixes of the mention (a stack frame's absolute path ends in the repo path).
  for (let i = 0; i < parts.length; i++) {
    const suffix = parts.slice(i).join('/');
    const hits = files.filter((f) => f === suffix || f.endsWith(`/${suffix}`));
    if (hits.length > 0 && hits.length <= 3) return hits;
    if (hits.length > 3) return [];
  }
  return [];
}

/** Visible files by the number of edges into their nodes from other files, most first (cached per visibility mask, itself cached per snapshot and policy). */
export function filesByDependents(snap: GraphSnapshot, visible: Uint8Array): string[] {
  const cached = dependentsCache.get(visible);
  if (cached) return cached;
  const g = snap.graph;
  const count = new Map<string, number>();
  for (let d = 0; d < snap.nodeCount; d++) {
    if (visible[d] !== 1 || snap.kinds[d] === 'external') continue;
    const path = snap.paths[d]!;
    let n = count.get(path) ?? 0;
    for (let e = g.inOffsets[d]!; e < g.inOffsets[d + 1]!; e++) if (snap.paths[g.inSources[e]!] !== path) n++;
    count.set(path, n);
  }
  const ranked = [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
  dependentsCache.set(visible, ranked);
  return ranked;
}
const dependentsCache = new WeakMap<Uint8Array, string[]>();
