import { semanticLines, type ContextItem, type ContextResult, type RankedFunction, type SemanticReport } from './context-result.js';
import type { Completeness } from './index-completeness.js';
import { location } from './node-ref.js';
import { countTokens, TOKENIZER } from './token-count.js';

/** What {@link renderContext} renders: the answer, its ranked definitions optional. */
export type RenderedContext = Pick<ContextResult, 'query' | 'budget' | 'items' | 'completeness' | 'semantic'> & {
  functions?: readonly Pick<RankedFunction, 'node' | 'why'>[];
};

/** The answer as text an agent reads: a header with completeness and the best definitions, then each snippet. */
export function renderContext(r: RenderedContext): string {
  return [renderHeader(r.query, r.budget, r.completeness, r.functions, r.semantic), ...r.items.map(renderItem)].join('\n');
}

/**
 * How many of the best definitions the header of {@link renderContext} lists at `budget`: 5
 * from 2,000 tokens, 3 from 1,000, 1 from 600, none below (about 50 tokens each at most).
 */
export function leadingDefinitions(budget: number): number {
  return budget >= 2000 ? 5 : budget >= 1000 ? 3 : budget >= 600 ? 1 : 0;
}

const MAX_LEAD_NAME = 120;

/**
 * The header of {@link renderContext}: the question (cut at 200 characters), the budget, the
 * graph's completeness, and the best definitions of the function stage (where to look first;
 * {@link leadingDefinitions} of them), each with its place and strongest reason.
 */
export function renderHeader(
  query: string,
  budget: number,
  completeness: Completeness,
  functions: readonly Pick<RankedFunction, 'node' | 'why'>[] = [],
  semantic?: SemanticReport,
): string {
  const notes = semanticLines(semantic)
    .map((l) => `${l}\n`)
    .join('');
  const head = `Context for: ${query.length > 200 ? `${query.slice(0, 200)}…` : query}\nBudget ${budget} tokens (${TOKENIZER}). Graph: ${completeness.summary}\n${notes}`;
  const leading = functions.slice(0, leadingDefinitions(budget));
  if (leading.length === 0) return head;
  const leads = leading
    .map((f, i) => {
      const name = f.node.qualifiedName ?? f.node.name;
      const shown = name.length > MAX_LEAD_NAME ? `${name.slice(0, MAX_LEAD_NAME)}…` : name;
      return `${i + 1}. ${location(f.node)} ${f.node.kind} ${shown}${f.why[0] ? ` — ${f.why[0]}` : ''}\n`;
    })
    .join('');
  return `${head}Best definitions:\n${leads}`;
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
export function renderedItemTokens(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>, codeTokens?: number): number {
  const { title, reasons, code } = itemPieces(it);
  return countTokens(title) + countTokens(reasons) + (code === '' ? 0 : (codeTokens ?? countTokens(code)));
}

// The code block counts of the snippets a long-lived reader hands out again (SourceReader
// shares one object per definition): no text to build and look up again for each question.
const codeBlockCounts = new WeakMap<object, number>();

/**
 * The tokens of the code block of `snippet` ({@link codeBlock} of its text), remembered by the
 * snippet object: pass it to {@link renderedItemTokens} for an item showing that snippet.
 */
export function codeBlockTokens(snippet: { readonly text: string }): number {
  let n = codeBlockCounts.get(snippet);
  if (n === undefined) codeBlockCounts.set(snippet, (n = countTokens(codeBlock(snippet.text))));
  return n;
}

// A code block ends with its fence, a piece of its own: the line break that joins the next item
// makes that piece "```\n\n", whatever the code.
const FENCE_JOINED = countTokens('```\n\n') - countTokens('```\n');

/**
 * The cl100k_base tokens of {@link renderContext}, exactly, from the remembered counts of its
 * pieces ({@link renderedItemTokens}) instead of counting the whole text again. The parts are
 * joined by line breaks, and every item starts with `## ` (not white space), where the
 * pre-tokenizer always splits: the header counts with its joining line break, each item with
 * the line break after it (the last without one). `codeTokens[i]`, when given, is the count of
 * item i's code block (as {@link codeBlockTokens} gave it when the item was made).
 */
export function renderedContextTokens(r: RenderedContext, codeTokens?: readonly (number | undefined)[]): number {
  const header = renderHeader(r.query, r.budget, r.completeness, r.functions, r.semantic);
  if (r.items.length === 0) return countTokens(header);
  let n = countTokens(`${header}\n`);
  r.items.forEach((it, i) => {
    const joined = i < r.items.length - 1;
    const { title, reasons, code } = itemPieces(it);
    n += countTokens(title);
    if (code === '') n += countTokens(joined ? `${reasons}\n` : reasons);
    else n += countTokens(reasons) + (codeTokens?.[i] ?? codeBlockTokens(it.snippet!)) + (joined ? FENCE_JOINED : 0);
  });
  return n;
}
