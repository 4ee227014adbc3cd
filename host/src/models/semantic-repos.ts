import type { CodeGraph } from '../retrieval/code-graph.js';
import type { ToolCallExtras } from '../tools/tool-runner.js';
import type { SemanticRun, SemanticRepo, ShortlistEntry } from './semantic-layer.js';

/** The served graphs as the semantic layer reads them. */
export function servedRepos(graphs: readonly CodeGraph[]): SemanticRepo[] {
  return graphs.map((g) => ({ root: g.repoRoot, corpus: g.corpus, store: g.store }));
}

/** The `functions` of a get_context answer's structured content (none for an error or another tool). */
export function shortlistOf(structured: Record<string, unknown> | undefined): ShortlistEntry[] {
  const functions = structured?.functions;
  return Array.isArray(functions) ? (functions as ShortlistEntry[]) : [];
}

/**
 * How the semantic layer runs a tool: `answer` makes the answer as the caller wants it (a
 * ToolResult, or its JSON parts), `structured` one with its structured content, whose `functions`
 * are the reranker's shortlist (`answer` itself when it is a ToolResult).
 */
export function semanticRun<R>(
  answer: (extras: ToolCallExtras) => Promise<R>,
  structured: (extras: ToolCallExtras) => Promise<{ structured: Record<string, unknown> }>,
): SemanticRun<R> {
  return { answer, shortlist: async (extras) => shortlistOf((await structured(extras)).structured) };
}
