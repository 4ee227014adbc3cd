import { describe, expect, it } from 'vitest';
import { bestHits } from '../../src/store/best-hits.js';

/** The reference: every hit sorted (score down, id up), then cut. */
const sorted = (score: Map<number, number>, limit: number) => [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);

describe('bestHits', () => {
  it('keeps what sorting every hit keeps, ties at the cut included, for every limit', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 40; round++) {
      const score = new Map<number, number>();
      const n = Math.floor(rand() * 300);
      // Few distinct scores, so that ties straddle the cut.
      for (let i = 0; i < n; i++) score.set(Math.floor(rand() * 10_000), Math.floor(rand() * 12) / 4);
      for (const limit of [0, 1, 5, 50, n, n + 3]) expect(bestHits(score, limit)).toEqual(sorted(score, limit));
    }
  });
});
