import { EDGE_KINDS } from '@travsr/protocol';
import { describe, expect, it } from 'vitest';
import { inducedSubgraph } from '../../src/retrieval/induced-subgraph.js';
import { edgeKindMask } from '../../src/retrieval/traversal-options.js';
import { graphOf } from './fixtures.js';

const g = () =>
  graphOf(5, [
    [0, 1, 'calls'],
    [1, 2, 'calls', 0.5],
    [2, 0, 'references'],
    [2, 2, 'calls'],
    [3, 4, 'calls'],
    [1, 3, 'imports'],
  ]);

describe('inducedSubgraph', () => {
  it('renumbers the chosen nodes in the order given and keeps the edges between them', () => {
    const sub = inducedSubgraph(g(), [2, 1, 0, 2]);
    expect([...sub.nodes]).toEqual([2, 1, 0]);
    // 2 → 0 (references), 1 → 2 (calls, 0.5), 0 → 1 (calls); the self-loop on 2 is dropped
    expect([...sub.src].map((s, i) => [sub.nodes[s], sub.nodes[sub.dst[i]!], EDGE_KINDS[sub.kind[i]!], sub.confidence[i]])).toEqual([
      [2, 0, 'references', 1],
      [1, 2, 'calls', 0.5],
      [0, 1, 'calls', 1],
    ]);
  });

  it('leaves out hidden nodes and filtered kinds', () => {
    const sub = inducedSubgraph(g(), [0, 1, 2, 3], { visible: new Uint8Array([1, 1, 0, 1, 1]), edgeKinds: edgeKindMask(['calls']) });
    expect([...sub.nodes]).toEqual([0, 1, 3]);
    expect([...sub.src]).toEqual([0]);
    expect([...sub.dst]).toEqual([1]);
  });

  it('rejects ids outside the graph', () => {
    expect(() => inducedSubgraph(g(), [5])).toThrow(expect.objectContaining({ code: 'NODE_OUT_OF_RANGE' }));
  });
});
