// The caller's view of the graph: nodes and files by access policy, on a real store.
import { describe, expect, it } from 'vitest';
import { showsEveryNode } from '../../src/retrieval/traversal-options.js';
import { isVisibleFile, isVisibleNode } from '../../src/retrieval/visible-graph.js';
import { contextFixture, ENGINEERS } from './context-fixture.js';

describe('visibleGraph', () => {
  it('shows a restricted file and its nodes only to its group', () => {
    const { seenBy, dense } = contextFixture();
    const eng = seenBy(ENGINEERS);
    const finance = seenBy({ corpora: '*', groups: ['finance'] });
    expect(isVisibleNode(eng, dense('computeInvoiceTotal'))).toBe(false);
    expect(isVisibleFile(eng, 'src/billing/invoice.ts')).toBe(false);
    expect(isVisibleNode(finance, dense('computeInvoiceTotal'))).toBe(true);
    expect(isVisibleFile(finance, 'src/billing/invoice.ts')).toBe(true);
    expect(isVisibleNode(eng, dense('verifyToken'))).toBe(true);
    expect(isVisibleFile(eng, 'src/auth/token.ts')).toBe(true);
  });

  it('shows nothing of a corpus the policy does not name, and no unknown node', () => {
    const { seenBy, dense } = contextFixture();
    const other = seenBy({ corpora: ['github.com/acme/other'], groups: [] });
    expect(isVisibleNode(other, dense('verifyToken'))).toBe(false);
    expect(isVisibleFile(other, 'src/auth/token.ts')).toBe(false);
    expect(isVisibleNode(seenBy(), undefined)).toBe(false);
    expect(isVisibleFile(seenBy(), 'src/not-indexed.ts')).toBe(false);
  });

  it('gives every policy that sees the whole graph one mask, so what is kept per mask is shared', () => {
    const { seenBy, g } = contextFixture();
    // The fixture's billing file is for the finance group only.
    const everyone = seenBy({ corpora: '*', groups: ['finance'] });
    const corpora = [...new Set(g.snap.corpora)];
    const named = seenBy({ corpora, groups: ['eng', 'finance'] });
    expect(showsEveryNode(everyone.visible)).toBe(true);
    expect(named.visible).toBe(everyone.visible);
    const eng = seenBy(ENGINEERS);
    expect(showsEveryNode(eng.visible)).toBe(false);
    expect(eng.visible).not.toBe(everyone.visible);
    // A mask made elsewhere is looked at once.
    expect(showsEveryNode(new Uint8Array([1, 1, 1]))).toBe(true);
    expect(showsEveryNode(new Uint8Array([1, 0, 1]))).toBe(false);
  });
});
