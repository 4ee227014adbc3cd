import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, tokenCountMemo } from '../../src/retrieval/token-count.js';

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

  it('forgets the least recently used counts past its bound, and keeps counting right', () => {
    const bound = tokenCountMemo.maxEntries;
    tokenCountMemo.maxEntries = 100;
    try {
      const texts = Array.from({ length: 150 }, (_, i) => `const value${i} = ${i};\n`.repeat(12));
      for (const t of texts) countTokens(t);
      expect(tokenCountMemo.size).toBe(100);
      expect(tokenCountMemo.has(texts[0]!)).toBe(false);
      expect(tokenCountMemo.has(texts[149]!)).toBe(true);
      // Using a count keeps it: the oldest unused one goes next.
      countTokens(texts[50]!);
      countTokens('a new text that pushes one count out of the memo');
      expect(tokenCountMemo.has(texts[50]!)).toBe(true);
      expect(tokenCountMemo.has(texts[51]!)).toBe(false);
      for (const t of [texts[0]!, texts[75]!, texts[149]!]) expect(countTokens(t)).toBe(cl100kCount(t));
      expect(tokenCountMemo.has('short')).toBe(false);
    } finally {
      tokenCountMemo.maxEntries = bound;
    }
  });
});
