import type { DefinitionSignals } from './definition-ranking.js';
import type { FileSignals } from './file-ranking.js';
import type { Completeness } from './index-completeness.js';
import type { NodeRef } from './node-ref.js';

/** One piece of code in a {@link ContextResult}. */
export interface ContextItem {
  node: NodeRef;
  score: number;
  /** Why it was chosen, in words: the lexical match, the graph relation, the structural role. */
  why: string[];
  snippet: { startLine: number; endLine: number; text: string; truncated: boolean; stale: boolean } | null;
  /** Why the source is not shown when the file is no longer a plain file of the repository (a link, a FIFO, …). */
  withheld?: string;
  /** Tokens of this item as rendered (header + code). */
  tokens: number;
}

/** One definition of {@link ContextResult.functions}. */
export interface RankedFunction {
  node: NodeRef;
  score: number;
  why: string[];
  /** The evidence behind the rank (with `explain`). */
  signals?: DefinitionSignals;
}

/** The answer of get_context (`getContext` in context-assembly.ts). */
export interface ContextResult {
  query: string;
  budget: number;
  /** Tokens of the rendered answer (`renderContext` in context-render.ts); never above `budget`. */
  tokens: number;
  tokenizer: string;
  items: ContextItem[];
  /** Files ranked by relevance (at least 20 when the graph has them), for "where should I look". */
  files: { path: string; score: number; signals?: FileSignals }[];
  /** The function stage: definitions (functions, methods, types) ranked as the places to look or change, best first. */
  functions: RankedFunction[];
  /** Further ranked nodes that did not fit the budget (no snippet). */
  more: { node: NodeRef; score: number }[];
  completeness: Completeness;
  stats: { seeds: number; candidates: number; steinerNodes: number; exactKnapsack: boolean; ms: number; stageMs: Record<string, number> };
}
