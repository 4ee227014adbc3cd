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
  /** The reranker's score, when one ordered the answer's best definitions. */
  rerankScore?: number;
}

/** A cross-encoder's scores of a first answer's best definitions, by node id (higher: more relevant). */
export interface RerankScores {
  model: string;
  scores: ReadonlyMap<string, number>;
  /** How long the scoring took, for the report. */
  ms: number;
}

/** What the semantic layer did for one answer. */
export interface SemanticReport {
  /** The vector channel: the model, the definitions it found, its time; or why it found nothing. */
  vector?: { model: string; hits: number; ms: number; note?: string };
  /** The reranker: the model, the candidates it scored, its time; or why the shortlist kept its order. */
  rerank?: { model: string; scored: number; ms: number; note?: string };
}

/** The lines the rendered answer says about the semantic layer (empty when it did nothing worth saying). */
export function semanticLines(s: SemanticReport | undefined): string[] {
  const out: string[] = [];
  if (s?.vector)
    out.push(
      s.vector.note
        ? `Vector channel off: ${s.vector.note}`
        : `Vector channel: ${s.vector.hits} definitions by meaning (${s.vector.model})`,
    );
  if (s?.rerank)
    out.push(s.rerank.note ? `Not reranked: ${s.rerank.note}` : `Reranked: ${s.rerank.scored} candidates by ${s.rerank.model}`);
  return out;
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
  /** The learned channels, when a model is registered: what each did, or why it did not run (then the answer is the lexical and graph one). */
  semantic?: SemanticReport;
  stats: { seeds: number; candidates: number; steinerNodes: number; exactKnapsack: boolean; ms: number; stageMs: Record<string, number> };
}
