// Step 4 of get_context: the Steiner tree that connects the best candidates, on a real store's graph.
import { describe, expect, it } from 'vitest';
import { connectCandidates } from '../../src/retrieval/candidate-tree.js';
import { contextFixture, ENGINEERS } from './context-fixture.js';

describe('connectCandidates', () => {
  it('connects candidates through the edges between them', () => {
    const { g, dense } = contextFixture();
    const tree = connectCandidates(g, [
      [dense('retryRequest'), 1],
      [dense('sendWithAuth'), 0.5],
      [dense('verifyToken'), 0.9],
    ]);
    expect([...tree].sort()).toEqual([dense('retryRequest'), dense('sendWithAuth'), dense('verifyToken')].sort());
  });

  it('gives one candidate back as its own tree, and no tree when no edge joins the candidates', () => {
    const { g, dense } = contextFixture();
    expect([...connectCandidates(g, [[dense('area'), 1]])]).toEqual([dense('area')]);
    expect(
      connectCandidates(g, [
        [dense('area'), 1],
        [dense('decodeClaims'), 1],
      ]).size,
    ).toBe(0);
  });

  it('never joins candidates through an edge into a node the caller may not see', () => {
    const { seenBy, dense } = contextFixture([
      {
        path: 'a.ts',
        lines: ['a', 'b'],
        defs: [
          { name: 'open', lines: [1, 1], calls: ['secret'] },
          { name: 'other', lines: [2, 2] },
        ],
      },
      { path: 'b.ts', lines: ['c'], defs: [{ name: 'secret', lines: [1, 1] }], acl: 'finance' },
    ]);
    const top: [number, number][] = [
      [dense('open'), 1],
      [dense('secret'), 1],
    ];
    expect(connectCandidates(seenBy({ corpora: '*', groups: ['finance'] }), top).size).toBe(2);
    expect(connectCandidates(seenBy(ENGINEERS), top).size).toBe(0);
  });
});
