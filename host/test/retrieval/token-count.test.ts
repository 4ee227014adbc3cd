import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/retrieval/token-count.js';

describe('countTokens', () => {
  it('counts in cl100k_base, the same when a text is counted again (kept) or changed', () => {
    const text = `function add(a: number, b: number): number {\n  return a + b;\n}\n`.repeat(20);
    expect(countTokens('')).toBe(0);
    expect(countTokens('short')).toBe(cl100kCount('short'));
    expect(countTokens(text)).toBe(cl100kCount(text));
    expect(countTokens(text)).toBe(cl100kCount(text));
    const changed = `${text}// one more line\n`;
    expect(countTokens(changed)).toBe(cl100kCount(changed));
  });

  it('forgets the oldest counts past its bounds, and keeps counting right', () => {
    const texts = Array.from({ length: 9000 }, (_, i) => `const value${i} = ${i};\n`.repeat(12));
    for (const t of texts) countTokens(t);
    for (const t of [texts[0]!, texts[4500]!, texts[8999]!]) expect(countTokens(t)).toBe(cl100kCount(t));
  });
});
