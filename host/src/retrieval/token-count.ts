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
  const hit = memo.get(text);
  if (hit !== undefined) {
    // Most recently used last: the first entries are the ones to forget.
    memo.delete(text);
    memo.set(text, hit);
    return hit;
  }
  const n = cl100kCount(text);
  memo.set(text, n);
  memoChars += text.length;
  for (const [k] of memo) {
    if (memo.size <= MEMO_MAX_ENTRIES && memoChars <= MEMO_MAX_CHARS) break;
    memo.delete(k);
    memoChars -= k.length;
  }
  return n;
}

// A long-lived server renders the same definitions for many questions: their counts are kept
// (by text, so a changed snippet is counted again), within these bounds.
const MEMO_MIN_CHARS = 200;
const MEMO_MAX_ENTRIES = 8192;
const MEMO_MAX_CHARS = 16 * 1024 * 1024;
const memo = new Map<string, number>();
let memoChars = 0;

/** The tokenizer named in results, so a reader knows what the counts mean. */
export const TOKENIZER = 'cl100k_base';
