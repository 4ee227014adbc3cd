import { createHash } from 'node:crypto';
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * Token count of `text` for budgeting. Travsr counts with the cl100k_base BPE (a real
 * tokenizer, pure JS, ~15 MB/s). No public tokenizer matches every model: on source code
 * cl100k_base is within about ±15% of the Claude and o200k counts, so callers who need a
 * hard limit in another model's tokens should leave that margin in the budget they ask for.
 * The budget Travsr enforces is exact in cl100k_base tokens.
 */
export function countTokens(text: string): number {
  if (text.length < MEMO_MIN_CHARS) return text.length === 0 ? 0 : cl100kCount(text);
  const key = memoKey(text);
  const hit = memo.get(key);
  if (hit !== undefined) {
    // Most recently used last: the first entries are the ones to forget.
    memo.delete(key);
    memo.set(key, hit);
    return hit;
  }
  const n = cl100kCount(text);
  memo.set(key, n);
  while (memo.size > tokenCountMemo.maxEntries) memo.delete(memo.keys().next().value!);
  return n;
}

// A long-lived server renders the same definitions for many questions, and counts every
// definition ahead of them (item-token-warmer.ts): their counts are kept by the text's digest,
// so a changed snippet is counted again and no text is held. Shorter texts cost less to count
// than to look up.
const MEMO_MIN_CHARS = 32;
const memo = new Map<string, number>();

function memoKey(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** The counts {@link countTokens} remembers: for tests and diagnostics. */
export const tokenCountMemo = {
  /** How many counts are remembered. */
  get size(): number {
    return memo.size;
  },
  /** True when the count of `text` is remembered (a text under 32 characters never is). */
  has(text: string): boolean {
    return text.length >= MEMO_MIN_CHARS && memo.has(memoKey(text));
  },
  /** At most this many are kept, about 100 bytes each; the least recently used go first. */
  maxEntries: 250_000,
};

/** The tokenizer named in results, so a reader knows what the counts mean. */
export const TOKENIZER = 'cl100k_base';
