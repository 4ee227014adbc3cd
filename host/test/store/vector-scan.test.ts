import { describe, expect, it } from 'vitest';
import { EXACT_SCAN_MAX_ROWS, nearestRows, vectorMatrix } from '../../src/store/vector-scan.js';

/** `n` unit vectors of `dim` dimensions around `clusters` random centres (as embeddings of related code cluster). */
function clustered(n: number, dim: number, clusters: number, seed: number) {
  let s = seed;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const unit = (v: Float32Array) => {
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const centres = Array.from({ length: clusters }, () => unit(Float32Array.from({ length: dim }, rand)));
  const rows = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) {
    const c = centres[r % clusters]!;
    rows.set(unit(c.map((x) => x + 0.35 * rand())), r * dim);
  }
  const ids = Array.from({ length: n }, (_, r) => r.toString(16).padStart(8, '0'));
  const query = () => unit(centres[Math.floor(((rand() + 1) / 2) * clusters)]!.map((x) => x + 0.35 * rand()));
  return { matrix: vectorMatrix(dim, ids, rows), query };
}

describe('nearestRows', () => {
  it('scans every row exactly up to the limit: best first, ties by node id', () => {
    const m = vectorMatrix(2, ['b', 'a', 'c'], Float32Array.from([1, 0, 1, 0, 0, 1]));
    expect(nearestRows(m, Float32Array.from([1, 0]), 3)).toEqual([
      [1, 1],
      [0, 1],
      [2, 0],
    ]);
  });

  it('above the limit, prefilters by sign codes and finds nearly every exact top-10', () => {
    const n = EXACT_SCAN_MAX_ROWS + 20_000;
    const { matrix, query } = clustered(n, 32, 400, 7);
    let found = 0;
    let total = 0;
    for (let q = 0; q < 20; q++) {
      const v = query();
      const exact = nearestRows(matrix, v, 10, true).map(([r]) => r);
      const approx = nearestRows(matrix, v, 10);
      // What it returns is scored exactly, best first.
      for (let i = 1; i < approx.length; i++) expect(approx[i - 1]![1]).toBeGreaterThanOrEqual(approx[i]![1]);
      found += approx.filter(([r]) => exact.includes(r)).length;
      total += exact.length;
    }
    expect(found / total).toBeGreaterThanOrEqual(0.9);
  });
});
