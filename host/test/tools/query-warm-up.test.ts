// The questions a tool worker answers for itself once, so the first real ones find the retrieval code compiled.
import { describe, expect, it, vi } from 'vitest';
import * as contextAssembly from '../../src/retrieval/context-assembly.js';
import { QueryWarmUp, warmUpQuestions } from '../../src/tools/query-warm-up.js';
import { contextFixture } from '../retrieval/context-fixture.js';

describe('QueryWarmUp', () => {
  it('makes distinct questions of the words of function and method names, as many as asked', () => {
    const fx = contextFixture();
    const questions = warmUpQuestions([fx.cg], 6);
    expect(questions).toHaveLength(6);
    expect(new Set(questions).size).toBeGreaterThan(1);
    for (const q of questions) expect(q).toMatch(/^where does [a-z0-9 ]+ use [a-z0-9 ]+$/);
    expect(questions.join(' ')).toMatch(/verify token|send with auth|retry request|compute invoice total|area/);
  });

  it('answers each question once through get_context, then says it is done', () => {
    const fx = contextFixture();
    const spy = vi.spyOn(contextAssembly, 'getContext');
    try {
      const warmUp = new QueryWarmUp([fx.cg], 3);
      expect(warmUp.step()).toBe(false);
      expect(warmUp.step()).toBe(false);
      expect(warmUp.step()).toBe(true);
      expect(warmUp.answered).toBe(3);
      expect(spy).toHaveBeenCalledTimes(3);
      expect(warmUp.step()).toBe(true);
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });

  it('has nothing to ask of a graph without functions', () => {
    const fx = contextFixture([{ path: 'README.md', lines: ['# notes'], defs: [] }]);
    const warmUp = new QueryWarmUp([fx.cg]);
    expect(warmUp.step()).toBe(true);
    expect(warmUp.answered).toBe(0);
  });
});
