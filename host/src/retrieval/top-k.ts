import { kthLargest } from '../store/best-hits.js';

/**
 * The `limit` ids with the highest `score[id]`, highest first, ties by smaller id. With a limit
 * below the number of ids, a quickselect finds the cut-off score first, so only the kept ids
 * are sorted: O(n + k log k) instead of O(n log n).
 */
export function topByScore(ids: readonly number[], score: Float64Array, limit: number): Uint32Array {
  let kept: number[];
  if (limit >= ids.length) kept = [...ids];
  else if (limit <= 0) kept = [];
  else {
    const values = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) values[i] = score[ids[i]!]!;
    const cut = kthLargest(values, limit);
    kept = [];
    const ties: number[] = [];
    for (const v of ids) {
      const s = score[v]!;
      if (s > cut) kept.push(v);
      else if (s === cut) ties.push(v);
    }
    ties.sort((a, b) => a - b);
    for (const v of ties) {
      if (kept.length >= limit) break;
      kept.push(v);
    }
  }
  kept.sort((a, b) => score[b]! - score[a]! || a - b);
  return Uint32Array.from(kept);
}
