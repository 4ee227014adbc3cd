import type { ContextItem, ContextResult } from './context-result.js';
import type { Completeness } from './index-completeness.js';
import { location } from './node-ref.js';
import { countTokens, TOKENIZER } from './token-count.js';

/** The answer as text an agent reads: a header with completeness, then each snippet. */
export function renderContext(r: Pick<ContextResult, 'query' | 'budget' | 'items' | 'completeness'>): string {
  return [renderHeader(r.query, r.budget, r.completeness), ...r.items.map(renderItem)].join('\n');
}

/** The header of {@link renderContext}: the question (cut at 200 characters), the budget and the graph's completeness. */
export function renderHeader(query: string, budget: number, completeness: Completeness): string {
  return `Context for: ${query.length > 200 ? `${query.slice(0, 200)}…` : query}\nBudget ${budget} tokens (${TOKENIZER}). Graph: ${completeness.summary}\n`;
}

/** One item of {@link renderContext}: its location, kind, name and reasons, then its code (or why it is not shown). */
export function renderItem(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>): string {
  const { head, code } = renderItemParts(it);
  return head + code;
}

/**
 * {@link renderItem} in its two parts: the head (location, kind, name, this question's reasons;
 * it ends with a line break) and the code block (it starts with its fence; empty when no code is
 * shown). cl100k_base never joins the two in one token — its pre-tokenizer splits at a line
 * break followed by a character that is not white space — so an item's tokens are the two
 * counts added, and the code block's count, the same for every question, can be remembered.
 */
export function renderItemParts(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>): { head: string; code: string } {
  const { title, reasons, code } = itemPieces(it);
  return { head: title + reasons, code };
}

/**
 * The pieces of {@link renderItem}: the title (`## place kind name —`, the same for every
 * question), the reasons and what follows them up to the code, and the code block.
 */
function itemPieces(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>): {
  title: string;
  reasons: string;
  code: string;
} {
  const title = `## ${location(it.snippet ? { path: it.node.path, startLine: it.snippet.startLine, endLine: it.snippet.endLine } : it.node)} ${it.node.kind} ${it.node.qualifiedName ?? it.node.name} —`;
  const reasons = ` ${it.why.join('; ')}`;
  if (!it.snippet)
    return { title, reasons: it.withheld === undefined ? `${reasons}\n` : `${reasons}\n(source not shown: ${it.withheld})\n`, code: '' };
  const stale = it.snippet.stale ? '\n(the file changed since it was indexed; lines may be off)' : '';
  return { title, reasons: `${reasons}${stale}\n`, code: codeBlock(it.snippet.text) };
}

/** The code block of an item whose snippet is `text`: the part of its tokens the same for every question. */
export function codeBlock(text: string): string {
  return `\`\`\`\n${text}\n\`\`\`\n`;
}

/**
 * The cl100k_base tokens of {@link renderItem}, exactly, in pieces whose counts are remembered
 * ({@link countTokens}): the code block and the title are the same for every question, and the
 * reasons come from a few phrases. The title ends with a dash and the reasons start with a
 * space, where the pre-tokenizer always splits (a run of punctuation ends at white space), so
 * the counts add up.
 */
export function renderedItemTokens(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>): number {
  const { title, reasons, code } = itemPieces(it);
  return countTokens(title) + countTokens(reasons) + (code === '' ? 0 : countTokens(code));
}

// A code block ends with its fence, a piece of its own: the line break that joins the next item
// makes that piece "```\n\n", whatever the code.
const FENCE_JOINED = countTokens('```\n\n') - countTokens('```\n');

/**
 * The cl100k_base tokens of {@link renderContext}, exactly, from the remembered counts of its
 * pieces ({@link renderedItemTokens}) instead of counting the whole text again. The parts are
 * joined by line breaks, and every item starts with `## ` (not white space), where the
 * pre-tokenizer always splits: the header counts with its joining line break, each item with
 * the line break after it (the last without one).
 */
export function renderedContextTokens(r: Pick<ContextResult, 'query' | 'budget' | 'items' | 'completeness'>): number {
  const header = renderHeader(r.query, r.budget, r.completeness);
  if (r.items.length === 0) return countTokens(header);
  let n = countTokens(`${header}\n`);
  r.items.forEach((it, i) => {
    const joined = i < r.items.length - 1;
    const { title, reasons, code } = itemPieces(it);
    n += countTokens(title);
    if (code === '') n += countTokens(joined ? `${reasons}\n` : reasons);
    else n += countTokens(reasons) + countTokens(code) + (joined ? FENCE_JOINED : 0);
  });
  return n;
}
