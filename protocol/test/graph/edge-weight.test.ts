import { describe, expect, it } from 'vitest';
import { pprWeight } from '../../src/graph/edge-weight.js';
import { EDGE_KINDS } from '../../src/schema/kinds.js';

describe('pprWeight', () => {
  it('gives every edge kind a weight in (0, 1]', () => {
    for (const kind of EDGE_KINDS) {
      const w = pprWeight(kind);
      expect(w, kind).toBeGreaterThan(0);
      expect(w, kind).toBeLessThanOrEqual(1);
    }
  });

  it('lets relevance flow most along calls and least along containment', () => {
    const sorted = [...EDGE_KINDS].sort((a, b) => pprWeight(b) - pprWeight(a));
    expect(sorted[0]).toBe('calls');
    expect(sorted.at(-1)).toBe('contains');
    expect(pprWeight('inherits')).toBe(pprWeight('implements'));
    expect(pprWeight('imports')).toBeGreaterThan(pprWeight('references'));
    expect(pprWeight('types')).toBeGreaterThan(pprWeight('imports'));
  });
});
