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

  it('keeps the count of a short text (a title, reasons) and of a long one (a code block) alike', () => {
    tokenCountMemo.clear();
    const title = '## src/auth/token.ts:2-4 function verifyToken —';
    const block = `\`\`\`\n${'  return verify(token, key);\n'.repeat(30)}\`\`\`\n`;
    for (const t of [title, block]) {
      expect(tokenCountMemo.has(t)).toBe(false);
      expect(countTokens(t)).toBe(cl100kCount(t));
      expect(tokenCountMemo.has(t)).toBe(true);
      expect(countTokens(t)).toBe(cl100kCount(t));
    }
    // A text that looks like a digest is not taken for one.
    const digestLike = 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=xyzxyzxyz';
    expect(countTokens(digestLike)).toBe(cl100kCount(digestLike));
  });

  it('keeps at most its bound of counts, those used last: a count used again outlives the others', () => {
    const bound = tokenCountMemo.maxEntries;
    tokenCountMemo.maxEntries = 100;
    try {
      tokenCountMemo.clear(); // the generations start empty, whatever other tests left
      const texts = Array.from({ length: 150 }, (_, i) => `const value${i} = ${i};\n`.repeat(12));
      for (const t of texts) countTokens(t);
      expect(tokenCountMemo.size).toBeLessThanOrEqual(100);
      expect(tokenCountMemo.has(texts[0]!)).toBe(false);
      expect(tokenCountMemo.has(texts[149]!)).toBe(true);
      // texts[120] is used again; then enough new texts to drop the generation it was in.
      countTokens(texts[120]!);
      for (let i = 0; i < 60; i++) countTokens(`a new text, number ${i}, that pushes older counts out`);
      expect(tokenCountMemo.has(texts[120]!)).toBe(true);
      expect(tokenCountMemo.has(texts[121]!)).toBe(false);
      expect(tokenCountMemo.size).toBeLessThanOrEqual(100);
      for (const t of [texts[0]!, texts[75]!, texts[149]!]) expect(countTokens(t)).toBe(cl100kCount(t));
      expect(tokenCountMemo.has('short')).toBe(false);
    } finally {
      tokenCountMemo.maxEntries = bound;
    }
  });
});
