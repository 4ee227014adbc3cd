import type { EdgeKind } from '../schema/kinds.js';

const WEIGHTS: Record<EdgeKind, number> = {
  calls: 1.0,
  inherits: 0.8,
  implements: 0.8,
  overrides: 0.7,
  types: 0.6,
  imports: 0.5,
  references: 0.4,
  contains: 0.3,
};

/**
 * Weight of an edge kind in weighted Personalized PageRank (`ppr_weighted`): how strongly
 * relevance flows along it. Calls carry the most, containment the least.
 *
 * @example
 * ```ts
 * pprWeight('calls') > pprWeight('imports'); // true
 * ```
 */
export function pprWeight(kind: EdgeKind): number {
  return WEIGHTS[kind];
}
