// A node's head (the columns an answer shows) names it as its whole row does.
import { describe, expect, it } from 'vitest';
import { headRef, nodeRef } from '../../src/retrieval/node-ref.js';
import { contextFixture } from './context-fixture.js';

describe('headRef', () => {
  it('is nodeRef of the same node, for every node of a repository, tombstoned ones included', () => {
    const fx = contextFixture();
    const ids = Array.from({ length: fx.g.snap.nodeCount }, (_, d) => fx.g.snap.storeIdOf(d));
    fx.store.removeFile('src/http/retry.ts'); // its nodes are tombstoned, still readable by id
    const rows = fx.store.nodesByIds(ids);
    const heads = new Map(fx.store.nodeHeads(ids).map((h) => [h.id, h]));
    expect(heads.size).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(8);
    for (const row of rows) expect(headRef(heads.get(row.id)!)).toEqual(nodeRef(row));
    expect(fx.store.nodeHeads([])).toEqual([]);
    expect(fx.store.nodeHeads([987654321])).toEqual([]);
  });
});
