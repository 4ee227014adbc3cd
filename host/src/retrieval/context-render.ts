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
  const head = `## ${location(it.snippet ? { path: it.node.path, startLine: it.snippet.startLine, endLine: it.snippet.endLine } : it.node)} ${it.node.kind} ${it.node.qualifiedName ?? it.node.name} — ${it.why.join('; ')}`;
  if (!it.snippet) return { head: it.withheld === undefined ? `${head}\n` : `${head}\n(source not shown: ${it.withheld})\n`, code: '' };
  const stale = it.snippet.stale ? '\n(the file changed since it was indexed; lines may be off)' : '';
  return { head: `${head}${stale}\n`, code: `\`\`\`\n${it.snippet.text}\n\`\`\`\n` };
}

/** The cl100k_base tokens of {@link renderItem}, exactly: its head counted each time, its code block remembered (see {@link renderItemParts}). */
export function renderedItemTokens(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>): number {
  const { head, code } = renderItemParts(it);
  return countTokens(head) + (code === '' ? 0 : countTokens(code));
}
