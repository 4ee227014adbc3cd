// Step 2 of get_context: Personalized PageRank from the seeds, on a real store's graph.
import { describe, expect, it } from 'vitest';
import { spreadRelevance } from '../../src/retrieval/relevance-spread.js';
import { contextFixture } from './context-fixture.js';

describe('spreadRelevance', () => {
  it('reaches callers and callees of the seed, the best at 1, best first', () => {
    const { g, dense } = contextFixture();
    const r = spreadRelevance(g, new Map([[dense('verifyToken'), 1]]), 100);
    expect(r.get(dense('verifyToken'))).toBe(1);
    for (const name of ['decodeClaims', 'sendWithAuth', 'testVerifyToken']) expect(r.get(dense(name))).toBeGreaterThan(0);
    expect(r.has(dense('area'))).toBe(false); // not connected
    const scores = [...r.values()];
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('keeps at most `limit` nodes and never enters a hidden one', () => {
    const { g, seenBy, dense } = contextFixture();
    expect(spreadRelevance(g, new Map([[dense('verifyToken'), 1]]), 2).size).toBe(2);
    const finance = seenBy({ corpora: '*', groups: ['finance'] });
    const seeds = new Map([[dense('computeInvoiceTotal'), 1]]);
    expect(spreadRelevance(finance, seeds, 100).get(dense('computeInvoiceTotal'))).toBe(1);
    expect(spreadRelevance(g, seeds, 100).size).toBe(0);
  });
});
