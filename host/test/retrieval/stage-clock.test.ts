import { describe, expect, it } from 'vitest';
import { StageClock } from '../../src/retrieval/stage-clock.js';

describe('StageClock', () => {
  it('records each stage once, in order, to a tenth of a millisecond', () => {
    const clock = new StageClock();
    for (const name of ['lexical', 'ppr', 'score']) clock.stage(name);
    expect(Object.keys(clock.stageMs)).toEqual(['lexical', 'ppr', 'score']);
    for (const ms of Object.values(clock.stageMs)) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(Math.round(ms * 10)).toBeCloseTo(ms * 10, 9);
    }
    expect(Number.isInteger(clock.elapsedMs())).toBe(true);
  });
});
