import type { CodeGraph } from '../retrieval/code-graph.js';
import type { SemanticRepo, ShortlistEntry } from './semantic-layer.js';

/** The served graphs as the semantic layer reads them. */
export function servedRepos(graphs: readonly CodeGraph[]): SemanticRepo[] {
  return graphs.map((g) => ({ root: g.repoRoot, corpus: g.corpus, store: g.store }));
}

/** The `functions` of a get_context answer's structured content (none for an error or another tool). */
export function shortlistOf(structured: Record<string, unknown> | undefined): ShortlistEntry[] {
  const functions = structured?.functions;
  return Array.isArray(functions) ? (functions as ShortlistEntry[]) : [];
}
