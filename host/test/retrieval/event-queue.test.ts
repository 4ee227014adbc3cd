import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/retrieval/event-queue.js';
import { below, prng } from './fixtures.js';

describe('EventQueue', () => {
  it('pops events by time, then id, with their tags, while pushes and pops interleave', () => {
    const rand = prng(89);
    const q = new EventQueue(1);
    const pending: [number, number, number][] = [];
    const popped: [number, number, number][] = [];
    const expected: [number, number, number][] = [];
    for (let step = 0; step < 2000; step++) {
      if (rand() < 0.6 || pending.length === 0) {
        // Many equal times; ids unique, so the order is fully determined.
        const event: [number, number, number] = [below(rand, 50) / 4, 10_000 - step, below(rand, 1000)];
        q.push(...event);
        pending.push(event);
      } else {
        expect(q.pop()).toBe(true);
        popped.push([q.topTime, q.topId, q.topTag]);
        pending.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        expected.push(pending.shift()!);
      }
      expect(q.size).toBe(pending.length);
    }
    expect(popped).toEqual(expected);
    while (q.pop());
    expect(q.size).toBe(0);
    expect(q.pop()).toBe(false);
  });
});
