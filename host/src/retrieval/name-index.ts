import type { GraphSnapshot } from './graph-snapshot.js';

/**
 * The definitions named `name`, or whose qualified name is `name` (files and external nodes
 * left out), as dense indexes: those qualified so first, then by path and line. At most `limit`.
 * The index of names is built once per snapshot (one pass over its nodes), so a question naming
 * hundreds of identifiers — an issue with its log — costs a map lookup each.
 */
export function definitionsNamed(snap: GraphSnapshot, name: string, limit: number): number[] {
  const hits = nameIndex(snap).get(name);
  if (!hits) return [];
  const qualified = (d: number) => (snap.qualifiedNames[d] === name ? 0 : 1);
  return [...hits]
    .sort(
      (a, b) =>
        qualified(a) - qualified(b) ||
        (snap.paths[a]! < snap.paths[b]! ? -1 : snap.paths[a]! > snap.paths[b]! ? 1 : 0) ||
        snap.startLines[a]! - snap.startLines[b]! ||
        a - b,
    )
    .slice(0, Math.max(0, limit));
}

function nameIndex(snap: GraphSnapshot): Map<string, number[]> {
  const cached = nameCache.get(snap);
  if (cached) return cached;
  const index = new Map<string, number[]>();
  const add = (key: string, d: number) => {
    const list = index.get(key);
    if (!list) index.set(key, [d]);
    else if (list[list.length - 1] !== d) list.push(d);
  };
  for (let d = 0; d < snap.nodeCount; d++) {
    const kind = snap.kinds[d];
    if (kind === 'file' || kind === 'external') continue;
    add(snap.names[d]!, d);
    const q = snap.qualifiedNames[d];
    if (q) add(q, d);
  }
  nameCache.set(snap, index);
  return index;
}
const nameCache = new WeakMap<GraphSnapshot, Map<string, number[]>>();
