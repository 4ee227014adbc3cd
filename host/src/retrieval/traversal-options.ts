import { EDGE_KINDS, type EdgeKind } from '@travsr/protocol';
import { RetrievalError, RetrievalErrorCode } from './errors.js';

/**
 * Which way a traversal follows edges: `out` from source to target, `in` from target to
 * source, `both` either way (the graph read as undirected).
 */
export type Direction = 'out' | 'in' | 'both';

/**
 * Edge kinds a traversal may follow: a set of kinds, or a bitmask where bit i stands for
 * `EDGE_KINDS[i]` (see {@link edgeKindMask}).
 */
export type EdgeKindFilter = ReadonlySet<EdgeKind> | number;

/** The bitmask with every edge kind set. */
export const ALL_EDGE_KINDS = (1 << EDGE_KINDS.length) - 1;

/**
 * The bitmask of `kinds`: bit i is set when `EDGE_KINDS[i]` is among them.
 *
 * @example
 * ```ts
 * const mask = edgeKindMask(['calls', 'overrides']);
 * bfs(graph, [start], { edgeKinds: mask });
 * ```
 */
export function edgeKindMask(kinds: Iterable<EdgeKind>): number {
  let mask = 0;
  for (const k of kinds) {
    const i = EDGE_KINDS.indexOf(k);
    if (i < 0)
      throw new RetrievalError(RetrievalErrorCode.InvalidOption, `unknown edge kind ${String(k)}; use one of ${EDGE_KINDS.join(', ')}`);
    mask |= 1 << i;
  }
  return mask;
}

/** The bitmask of a filter; every kind when there is none. */
export function resolveKindMask(filter: EdgeKindFilter | undefined): number {
  if (filter === undefined) return ALL_EDGE_KINDS;
  if (typeof filter === 'number') {
    if (!Number.isInteger(filter) || filter < 0 || filter > ALL_EDGE_KINDS)
      throw new RetrievalError(
        RetrievalErrorCode.InvalidOption,
        `edgeKinds mask ${filter} is not a bitmask of the ${EDGE_KINDS.length} edge kinds; build it with edgeKindMask([...])`,
      );
    return filter;
  }
  return edgeKindMask(filter);
}

/**
 * Checks a visibility mask: `visible[i] === 1` when the caller may see node i. Traversals never
 * enter a node whose entry is 0, so RBAC holds during the walk rather than as a filter after it.
 */
export function checkVisibility(visible: Uint8Array | undefined, nodeCount: number): void {
  if (visible !== undefined && visible.length !== nodeCount)
    throw new RetrievalError(
      RetrievalErrorCode.InvalidOption,
      `visible has ${visible.length} entries but the graph has ${nodeCount} nodes; build the mask from the same graph snapshot`,
    );
}

const fullMasks = new WeakMap<Uint8Array, boolean>();

/**
 * True when `mask` hides no node (a local user, or a policy that covers the whole graph), so a
 * walk may leave it out: the same result without a lookup per edge. Remembered per mask; a
 * mask must not change once passed to a traversal (the access policy's never do).
 */
export function showsEveryNode(mask: Uint8Array): boolean {
  let full = fullMasks.get(mask);
  if (full === undefined) fullMasks.set(mask, (full = mask.indexOf(0) === -1));
  return full;
}

/** Throws INVALID_OPTION unless `direction` is one of the {@link Direction}s in `allowed`. */
export function checkDirection(direction: string, allowed: readonly Direction[]): void {
  if (!(allowed as readonly string[]).includes(direction))
    throw new RetrievalError(RetrievalErrorCode.InvalidOption, `direction ${direction} is not supported here; use ${allowed.join(' or ')}`);
}
