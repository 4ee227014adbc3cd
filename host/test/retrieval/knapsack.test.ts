import { describe, expect, it } from 'vitest';
import { knapsack, type KnapsackItem, type KnapsackResult } from '../../src/retrieval/knapsack.js';
import { below, prng } from './fixtures.js';

/** The best value over every subset that fits. */
function exhaustive(items: KnapsackItem[], capacity: number): number {
  let best = 0;
  for (let set = 0; set < 1 << items.length; set++) {
    let value = 0;
    let weight = 0;
    items.forEach((it, i) => {
      if (((set >> i) & 1) === 0) return;
      value += it.value;
      weight += it.weight;
    });
    if (weight <= capacity) best = Math.max(best, value);
  }
  return best;
}

/** The result adds up, holds no repeats and fits the capacity. */
function expectConsistent(items: KnapsackItem[], capacity: number, r: KnapsackResult): void {
  expect(new Set(r.chosen).size).toBe(r.chosen.length);
  expect([...r.chosen].sort((a, b) => a - b)).toEqual(r.chosen);
  expect(r.weight).toBe(r.chosen.reduce((a, i) => a + items[i]!.weight, 0));
  expect(r.value).toBeCloseTo(
    r.chosen.reduce((a, i) => a + items[i]!.value, 0),
    9,
  );
  expect(r.weight).toBeLessThanOrEqual(capacity);
}

function randomItems(rand: () => number, n: number, maxWeight: number, correlated = false): KnapsackItem[] {
  return Array.from({ length: n }, () => {
    const weight = 1 + below(rand, maxWeight);
    return { value: correlated ? weight + maxWeight / 10 : rand() * 10, weight };
  });
}

describe('knapsack', () => {
  it('matches exhaustive search on small random instances', () => {
    const rand = prng(61);
    for (let trial = 0; trial < 300; trial++) {
      const n = below(rand, 13);
      const items = randomItems(rand, n, 40);
      if (trial % 3 === 0) for (const it of items) if (rand() < 0.2) it.value = -rand();
      const capacity = below(rand, 120);
      const r = knapsack(items, capacity);
      expectConsistent(items, capacity, r);
      expect(r.exact).toBe(true);
      expect(r.epsilon).toBe(0);
      expect(r.value).toBeCloseTo(exhaustive(items, capacity), 9);
    }
  });

  it('stays within (1 − ε) of the optimum on the approximate path, and never over capacity', () => {
    const rand = prng(67);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + below(rand, 12);
      const items = randomItems(rand, n, 40, trial % 2 === 0);
      const capacity = below(rand, 120);
      const epsilon = [0.05, 0.2, 0.5][trial % 3]!;
      const r = knapsack(items, capacity, { cellLimit: 0, epsilon });
      expectConsistent(items, capacity, r);
      expect(r.value).toBeGreaterThanOrEqual((1 - epsilon) * exhaustive(items, capacity) - 1e-9);
    }
  });

  it('on a mid-size budget forced through the approximation, loses at most ε against the exact programme', () => {
    const rand = prng(71);
    for (let trial = 0; trial < 6; trial++) {
      const items = randomItems(rand, 300, 400, trial % 2 === 0);
      const capacity = 4000 + below(rand, 4000);
      const exact = knapsack(items, capacity, { cellLimit: 1e7 });
      expect(exact.exact).toBe(true);
      for (const epsilon of [0.02, 0.1, 0.3]) {
        const approx = knapsack(items, capacity, { cellLimit: 0, epsilon });
        expect(approx.exact).toBe(false);
        expect(approx.epsilon).toBe(epsilon);
        expectConsistent(items, capacity, approx);
        expect(approx.value).toBeLessThanOrEqual(exact.value + 1e-9);
        expect(approx.value).toBeGreaterThanOrEqual((1 - epsilon) * exact.value);
      }
    }
  });

  it('switches to the approximation only above the cell limit', () => {
    const items = randomItems(prng(73), 100, 50);
    expect(knapsack(items, 1000, { cellLimit: 100_000 }).exact).toBe(true);
    expect(knapsack(items, 1000, { cellLimit: 99_999 }).exact).toBe(false);
  });

  it('always takes weightless items worth something, never worthless or too heavy ones', () => {
    const items: KnapsackItem[] = [
      { value: 5, weight: 0 },
      { value: 0, weight: 0 },
      { value: -1, weight: 0 },
      { value: 100, weight: 11 },
      { value: 3, weight: 6 },
      { value: 4, weight: 5 },
      { value: 0, weight: 1 },
    ];
    for (const cellLimit of [Infinity, 0]) {
      const r = knapsack(items, 10, { cellLimit });
      expect(r.chosen).toEqual([0, 5]);
      expect(r).toMatchObject({ value: 9, weight: 5 });
    }
    expect(knapsack(items, 0).chosen).toEqual([0]);
  });

  it('takes everything when everything fits, and nothing from an empty list', () => {
    const items = randomItems(prng(79), 50, 10);
    expect(knapsack(items, 10_000, { cellLimit: 0 })).toMatchObject({ chosen: items.map((_, i) => i), exact: true });
    expect(knapsack([], 100)).toEqual({ chosen: [], value: 0, weight: 0, exact: true, epsilon: 0 });
  });

  it('rejects fractional or negative weights and capacities, non-finite values and bad options', () => {
    expect(() => knapsack([{ value: 1, weight: 1.5 }], 10)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => knapsack([{ value: 1, weight: -1 }], 10)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => knapsack([{ value: NaN, weight: 1 }], 10)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => knapsack([], 10.5)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => knapsack([], -1)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => knapsack([], 10, { epsilon: 0.001 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => knapsack([], 10, { epsilon: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
