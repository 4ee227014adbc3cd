import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { tempDbPath, tempStore } from './graph-fixtures.js';

const v = (...xs: number[]) => Float32Array.from(xs);
const id = (n: number) => n.toString(16).padStart(32, '0');

describe('vectors in the graph store', () => {
  it('stores vectors per node and model, replaces them, and lists each model with its dimension and count', () => {
    const store = tempStore();
    expect(
      store.putVectors('mini', [
        { nodeId: id(1), vector: v(1, 0, 0) },
        { nodeId: id(2), vector: v(0, 1, 0) },
      ]),
    ).toBe(2);
    store.putVectors('other', [{ nodeId: id(1), vector: v(0.5, 0.5) }]);
    store.putVectors('mini', [{ nodeId: id(1), vector: v(0, 0, 1) }]);
    expect([...store.getVector(id(1), 'mini')!]).toEqual([0, 0, 1]);
    expect([...store.getVector(id(1), 'other')!]).toEqual([0.5, 0.5]);
    expect(store.getVector(id(3), 'mini')).toBeUndefined();
    expect(store.vectorModels()).toEqual([
      { model: 'mini', dim: 3, count: 2 },
      { model: 'other', dim: 2, count: 1 },
    ]);
    store.close();
  });

  it('finds the nearest vectors by cosine, best first, ties by node id, and follows every write', () => {
    const store = tempStore();
    store.putVectors('mini', [
      { nodeId: id(1), vector: v(1, 0, 0) },
      { nodeId: id(2), vector: v(2, 2, 0) },
      { nodeId: id(3), vector: v(0, 3, 0) },
      { nodeId: id(4), vector: v(0, 0, -1) },
      { nodeId: id(5), vector: v(0, 5, 0) },
    ]);
    const hits = store.nearestVectors('mini', v(0, 1, 0), 3);
    expect(hits.map((h) => h.nodeId)).toEqual([id(3), id(5), id(2)]);
    expect(hits.map((h) => +h.score.toFixed(4))).toEqual([1, 1, 0.7071]);
    // A write after the first search is seen by the next.
    store.putVectors('mini', [{ nodeId: id(6), vector: v(0, 1, 0.001) }]);
    store.removeVectors([id(3)]);
    expect(store.nearestVectors('mini', v(0, 1, 0), 2).map((h) => h.nodeId)).toEqual([id(5), id(6)]);
    expect(store.nearestVectors('mini', v(0, 1, 0), 0)).toEqual([]);
    expect(store.nearestVectors('none', v(0, 1, 0), 3)).toEqual([]);
    expect(store.dropVectorModel('mini')).toBe(5);
    expect(store.nearestVectors('mini', v(0, 1, 0), 3)).toEqual([]);
    store.close();
  });

  it('agrees with a plain scan on random vectors', () => {
    const store = tempStore();
    let s = 12345;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const entries = Array.from({ length: 500 }, (_, i) => ({ nodeId: id(i + 1), vector: Float32Array.from({ length: 16 }, rnd) }));
    store.putVectors('rand', entries);
    const q = Float32Array.from({ length: 16 }, rnd);
    const cos = (a: Float32Array, b: Float32Array) => a.reduce((t, x, i) => t + x * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b));
    const expected = entries
      .map((e) => ({ nodeId: e.nodeId, score: cos(e.vector, q) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const got = store.nearestVectors('rand', q, 10);
    expect(got.map((h) => h.nodeId)).toEqual(expected.map((e) => e.nodeId));
    for (let i = 0; i < 10; i++) expect(got[i]!.score).toBeCloseTo(expected[i]!.score, 5);
    store.close();
  });

  it('refuses a vector of another dimension or with a value that is not finite, writing nothing; and a query of another dimension', () => {
    const store = tempStore();
    store.putVectors('mini', [{ nodeId: id(1), vector: v(1, 0, 0) }]);
    expect(() =>
      store.putVectors('mini', [
        { nodeId: id(2), vector: v(1, 0, 0) },
        { nodeId: id(3), vector: v(1, 0) },
      ]),
    ).toThrow(
      expect.objectContaining({ code: 'STORE_INVALID_INPUT', message: expect.stringMatching(/has 2 dimensions; mini's vectors have 3/) }),
    );
    expect(() => store.putVectors('mini', [{ nodeId: id(4), vector: v(1, Number.NaN, 0) }])).toThrow(
      expect.objectContaining({ code: 'STORE_INVALID_INPUT', message: expect.stringMatching(/NaN/) }),
    );
    expect(store.vectorModels()).toEqual([{ model: 'mini', dim: 3, count: 1 }]);
    expect(() => store.nearestVectors('mini', v(1, 0), 3)).toThrow(expect.objectContaining({ code: 'STORE_INVALID_INPUT' }));
    store.close();
  });

  it('keeps vectors across a reopen, and a read-only store searches them but cannot write', () => {
    const path = tempDbPath();
    const store = GraphStore.open(path);
    store.putVectors('mini', [{ nodeId: id(1), vector: v(0.25, -1.5, 3) }]);
    store.close();
    const ro = GraphStore.open(path, { readonly: true });
    expect([...ro.getVector(id(1), 'mini')!]).toEqual([0.25, -1.5, 3]);
    expect(ro.nearestVectors('mini', v(0, 0, 1), 1).map((h) => h.nodeId)).toEqual([id(1)]);
    expect(() => ro.putVectors('mini', [{ nodeId: id(2), vector: v(1, 1, 1) }])).toThrow(
      expect.objectContaining({ code: 'STORE_READONLY' }),
    );
    ro.close();
  });
});
