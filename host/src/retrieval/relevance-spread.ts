import { localPersonalizedPageRank } from './personalized-pagerank.js';
import type { VisibleGraph } from './visible-graph.js';

// Tuning (checked by the localization benchmark, see test/bench/localization.js).
const PPR_ALPHA = 0.25;
const PPR_EPSILON = 1e-5;

/**
 * Step 2 of get_context: Personalized PageRank (local push, edge weights per kind ×
 * confidence, both directions, reverse edges at 0.7) spreads relevance from the seeds through
 * calls, imports, inheritance and types. Returns at most `limit` visible nodes, best first,
 * each relative to the best (which is 1).
 */
export function spreadRelevance(g: VisibleGraph, seeds: ReadonlyMap<number, number>, limit: number): Map<number, number> {
  const ppr = localPersonalizedPageRank(g.snap.graph, seeds, {
    direction: 'both',
    weighted: true,
    reverseFactor: 0.7,
    alpha: PPR_ALPHA,
    epsilon: PPR_EPSILON,
    visible: g.visible,
    limit,
  });
  const relevance = new Map<number, number>();
  const maxPpr = ppr.scores[0] ?? 1;
  ppr.nodes.forEach((d, i) => relevance.set(d, ppr.scores[i]! / maxPpr));
  return relevance;
}
