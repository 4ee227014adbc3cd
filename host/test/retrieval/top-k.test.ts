import { describe, expect, it } from 'vitest';
import { topByScore } from '../../src/retrieval/top-k.js';
import { below, prng } from './fixtures.js';

describe('topByScore', () => {
  it('returns the same prefix as a full sort by score then id, for any limit, with many ties', () => {
    const rand = prng(83);
    for (let trial = 0; trial < 100; trial++) {
      const n = below(rand, 300);
      const score = new Float64Array(400);
      const ids = Array.from({ length: n }, () => below(rand, 400)).filter((v, i, all) => all.indexOf(v) === i);
      for (const v of ids) score[v] = below(rand, trial % 2 === 0 ? 5 : 1000) / 7;
      const sorted = [...ids].sort((a, b) => score[b]! - score[a]! || a - b);
      for (const limit of [0, 1, 5, below(rand, n + 2), n, n + 10, Infinity])
        expect([...topByScore(ids, score, limit)]).toEqual(sorted.slice(0, limit));
    }
  });
});
