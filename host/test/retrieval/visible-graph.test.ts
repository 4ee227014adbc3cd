// The caller's view of the graph: nodes and files by access policy, on a real store.
import { describe, expect, it } from 'vitest';
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
});
