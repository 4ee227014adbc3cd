import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * Token count of `text` for budgeting. Travsr counts with the cl100k_base BPE (a real
 * tokenizer, pure JS, ~15 MB/s). No public tokenizer matches every model: on source code
 * cl100k_base is within about ±15% of the Claude and o200k counts, so callers who need a
 * hard limit in another model's tokens should leave that margin in the budget they ask for.
 * The budget Travsr enforces is exact in cl100k_base tokens.
 */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : cl100kCount(text);
}

/** The tokenizer named in results, so a reader knows what the counts mean. */
export const TOKENIZER = 'cl100k_base';
