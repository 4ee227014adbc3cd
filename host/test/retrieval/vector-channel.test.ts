import { describe, expect, it } from 'vitest';
import { getContext } from '../../src/retrieval/context-assembly.js';
import { FULL_ACCESS } from '../../src/retrieval/access-policy.js';
import { vectorChannel } from '../../src/retrieval/vector-channel.js';
import { contextFixture } from './context-fixture.js';

/** Vectors for the fixture's definitions under `model`: retryRequest along x, the rest along y. */
function embedFixture(f: ReturnType<typeof contextFixture>, model = 'm@1+abc') {
  const rows = f.store.definitionsToEmbed(['function', 'method', 'class']);
  f.store.putVectors(
    model,
    rows.map((r) => ({
      nodeId: r.nodeId,
      vector: r.name === 'retryRequest' ? Float32Array.of(1, 0.05) : Float32Array.of(0.05, 1),
      source: 's',
    })),
  );
}

describe('the vector channel', () => {
  it('finds the nearest definitions, relative to the best, only positive similarity', () => {
    const f = contextFixture();
    embedFixture(f);
    const c = vectorChannel(f.g, { model: 'm@1+abc', vector: Float32Array.of(1, 0) });
    expect(c.note).toBeUndefined();
    const best = [...c.hits].sort((a, b) => b[1] - a[1])[0]!;
    expect(f.g.snap.names[best[0]]).toBe('retryRequest');
    expect(best[1]).toBe(1);
    for (const [d, s] of c.hits) if (d !== best[0]) expect(s).toBeLessThan(0.1);
  });

  it('never compares vectors of another model: a note, no hits', () => {
    const f = contextFixture();
    expect(vectorChannel(f.g, { model: 'm@1+abc', vector: Float32Array.of(1, 0) }).note).toMatch(/no vectors in this repository/);
    embedFixture(f, 'other@2+def');
    const c = vectorChannel(f.g, { model: 'm@1+abc', vector: Float32Array.of(1, 0) });
    expect(c.hits.size).toBe(0);
    expect(c.note).toMatch(/made by other@2\+def, not by the registered m@1\+abc: run `travsr embed`/);
  });

  it('says when the question vector has another dimension, instead of failing the answer', () => {
    const f = contextFixture();
    embedFixture(f);
    const c = vectorChannel(f.g, { model: 'm@1+abc', vector: Float32Array.of(1, 0, 0) });
    expect(c.note).toMatch(/the query vector has 3 dimensions; m@1\+abc's vectors have 2/);
  });

  it('lifts in get_context a definition the question shares no word with, and says why', () => {
    const f = contextFixture();
    embedFixture(f);
    const question = 'attempt once more after a failure';
    const without = getContext(f.cg, question, { policy: FULL_ACCESS });
    expect(without.functions[0]?.node.name).not.toBe('retryRequest');
    expect(without.semantic).toBeUndefined();
    const withVector = getContext(f.cg, question, {
      policy: FULL_ACCESS,
      queryVector: { model: 'm@1+abc', vector: Float32Array.of(1, 0) },
    });
    expect(withVector.functions[0]!.node.name).toBe('retryRequest');
    expect(withVector.functions[0]!.why).toContain('its code is close in meaning to the query (vector channel)');
    expect(withVector.files.slice(0, 3).map((x) => x.path)).toContain('src/http/retry.ts');
    expect(withVector.semantic?.vector).toMatchObject({ model: 'm@1+abc' });
    // Deterministic.
    const again = getContext(f.cg, question, { policy: FULL_ACCESS, queryVector: { model: 'm@1+abc', vector: Float32Array.of(1, 0) } });
    expect(again.functions.map((x) => x.node.id)).toEqual(withVector.functions.map((x) => x.node.id));
  });

  it('a definition the caller may not see is not a hit (computeInvoiceTotal is for the finance group)', () => {
    const f = contextFixture();
    const rows = f.store.definitionsToEmbed(['function', 'method', 'class']);
    f.store.putVectors(
      'm',
      rows.map((r) => ({ nodeId: r.nodeId, vector: r.name === 'computeInvoiceTotal' ? Float32Array.of(1, 0) : Float32Array.of(0, 1) })),
    );
    const names = (g: typeof f.g) =>
      [...vectorChannel(g, { model: 'm', vector: Float32Array.of(1, 0) }).hits.keys()].map((d) => g.snap.names[d]);
    expect(names(f.g)).not.toContain('computeInvoiceTotal');
    expect(names(f.seenBy({ corpora: '*', groups: ['finance'] }))).toEqual(['computeInvoiceTotal']);
  });
});
