/**
 * The `limit` best of `score` (id → score), best first, ties by smaller id: a search's hits.
 * With more hits than `limit`, a quickselect finds the cut-off score first, so only the kept
 * hits are sorted: O(n + k log k) instead of sorting every hit (a frequent word scores thousands).
 */
export function bestHits(score: ReadonlyMap<number, number>, limit: number): [number, number][] {
  const k = Math.max(0, Math.floor(limit));
  let kept: [number, number][];
  if (k >= score.size) kept = [...score];
  else if (k === 0) kept = [];
  else {
    const values = new Float64Array(score.size);
    let i = 0;
    for (const v of score.values()) values[i++] = v;
    const cut = kthLargest(values, k);
    kept = [];
    const ties: number[] = [];
    for (const [id, s] of score) {
      if (s > cut) kept.push([id, s]);
      else if (s === cut) ties.push(id);
    }
    ties.sort((a, b) => a - b);
    for (const id of ties) {
      if (kept.length >= k) break;
      kept.push([id, cut]);
    }
  }
  return kept.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

/** The k-th largest value (1-based), by iterative quickselect; reorders `values`. */
export function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1;
  while (lo < hi) {
    // Median of three as the pivot, then a Hoare partition into ≥ pivot | ≤ pivot.
    const mid = (lo + hi) >> 1;
    const a = values[lo]!;
    const b = values[mid]!;
    const c = values[hi]!;
    const pivot = a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target]!;
  }
  return values[target]!;
}
