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
  const kept = recent.get(key);
  if (kept !== undefined) return kept;
  const older = previous.get(key);
  const n = older ?? cl100kCount(text);
  remember(key, n);
  return n;
}

// A long-lived server renders the same definitions for many questions, and counts every
// definition ahead of them (item-token-warmer.ts): their counts are kept by the text's digest,
// so a changed snippet is counted again and no long text is held; a text of up to
// MEMO_MAX_KEY_CHARS (an item's title, its reasons) is its own key, since making a digest
// costs more than the map's own hashing of so short a string. Shorter texts than
// MEMO_MIN_CHARS cost less to count than to look up. Two generations instead of a least-recently-used order: a count used again
// moves to the recent one, and when it is full the previous one is dropped whole — no map
// reordered on every hit (with a quarter of a million entries that churn cost more than the
// counting it saved).
const MEMO_MIN_CHARS = 32;
const MEMO_MAX_KEY_CHARS = 160;
let recent = new Map<string, number>();
let previous = new Map<string, number>();

function remember(key: string, n: number): void {
  recent.set(key, n);
  if (recent.size >= Math.max(1, Math.floor(tokenCountMemo.maxEntries / 2))) {
    previous = recent;
    recent = new Map();
  }
}

function memoKey(text: string): string {
  // A digest is 28 characters of base64 and never starts with a space: no text key equals one.
  return text.length <= MEMO_MAX_KEY_CHARS ? ` ${text}` : createHash('sha1').update(text).digest('base64');
}

/** The counts {@link countTokens} remembers: for tests and diagnostics. */
export const tokenCountMemo = {
  /** How many counts are remembered. */
  get size(): number {
    let n = recent.size;
    for (const k of previous.keys()) if (!recent.has(k)) n++;
    return n;
  },
  /** Forgets every count (tests start from a known state with it). */
  clear(): void {
    recent = new Map();
    previous = new Map();
  },
  /** True when the count of `text` is remembered (a text under 32 characters never is). */
  has(text: string): boolean {
    if (text.length < MEMO_MIN_CHARS) return false;
    const key = memoKey(text);
    return recent.has(key) || previous.has(key);
  },
  /**
   * At most this many are kept, about 100–250 bytes each: in two generations of half as many, the
   * older dropped whole when the recent one fills; a count used again moves to the recent one.
   */
  maxEntries: 250_000,
};

/** The tokenizer named in results, so a reader knows what the counts mean. */
export const TOKENIZER = 'cl100k_base';
