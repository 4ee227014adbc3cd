// Step 3 of get_context for nodes: the k-core lift and the final scores.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../../src/retrieval/context-weights.js';
import { rankFiles } from '../../src/retrieval/file-ranking.js';
import { lexicalEvidence } from '../../src/retrieval/lexical-evidence.js';
import { inStructuralCore, scoreNodes, structuralCore } from '../../src/retrieval/node-scoring.js';
import { contextFixture, ENGINEERS } from './context-fixture.js';

describe('structuralCore', () => {
  it('reads the shells of the snapshot; the largest among the relevant nodes is at least 1', () => {
    const { g, dense } = contextFixture();
    const none = structuralCore(g, new Map());
    expect(none.maxShell).toBe(1);
    expect(none.shells.length).toBe(g.snap.nodeCount);
    const some = structuralCore(g, new Map([[dense('verifyToken'), 1]]));
    expect(some.maxShell).toBe(Math.max(1, some.shells[dense('verifyToken')]!));
    // A small graph has no real core: nothing is called structural.
    expect(inStructuralCore(some, dense('verifyToken'))).toBe(false);
    expect(inStructuralCore({ shells: Uint32Array.from([5, 3]), maxShell: 5 }, 0)).toBe(true);
    expect(inStructuralCore({ shells: Uint32Array.from([5, 3]), maxShell: 5 }, 1)).toBe(false);
  });
});

describe('scoreNodes', () => {
  it('ranks the node the question is about first, and counts every candidate', () => {
    const { g, dense } = contextFixture();
    const evidence = lexicalEvidence(g, 'where is `decodeClaims`');
    const relevance = new Map([
      [dense('decodeClaims'), 1],
      [dense('verifyToken'), 0.4],
    ]);
    const files = rankFiles(g, evidence, relevance, DEFAULT_WEIGHTS);
    const s = scoreNodes(g, evidence, relevance, files, structuralCore(g, relevance), DEFAULT_WEIGHTS);
    expect(s.ranked[0]![0]).toBe(dense('decodeClaims'));
    expect(s.ranked.map(([, v]) => v)).toEqual([...s.score.values()].sort((a, b) => b - a));
    expect(s.candidates).toBe(new Set([...evidence.nodes.keys(), ...relevance.keys()]).size);
  });

  it('scores no node the caller may not see, even when handed one', () => {
    const { seenBy, dense } = contextFixture();
    const eng = seenBy(ENGINEERS);
    const evidence = lexicalEvidence(eng, 'computeInvoiceTotal');
    const relevance = new Map([[dense('computeInvoiceTotal'), 1]]);
    const s = scoreNodes(
      eng,
      evidence,
      relevance,
      rankFiles(eng, evidence, relevance, DEFAULT_WEIGHTS),
      structuralCore(eng, relevance),
      DEFAULT_WEIGHTS,
    );
    expect(s.score.has(dense('computeInvoiceTotal'))).toBe(false);
    expect(s.candidates).toBe(1);
  });

  it('follows the weights: with only graph relevance weighed, the order is the relevance order', () => {
    const { g, dense } = contextFixture();
    const zero = Object.fromEntries(Object.keys(DEFAULT_WEIGHTS).map((k) => [k, 0])) as unknown as typeof DEFAULT_WEIGHTS;
    const relevance = new Map([
      [dense('sendWithAuth'), 1],
      [dense('verifyToken'), 0.5],
      [dense('decodeClaims'), 0.25],
    ]);
    const evidence = lexicalEvidence(g, 'decodeClaims');
    const W = { ...zero, nodePpr: 1, auxiliaryFactor: 1 };
    const s = scoreNodes(g, evidence, relevance, rankFiles(g, evidence, relevance, W), structuralCore(g, relevance), W);
    expect(s.ranked.filter(([, v]) => v > 0)).toEqual([
      [dense('sendWithAuth'), 1],
      [dense('verifyToken'), 0.5],
      [dense('decodeClaims'), 0.25],
    ]);
  });
});
