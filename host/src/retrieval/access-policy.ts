import type { GraphSnapshot } from './graph-snapshot.js';

/**
 * What one caller may see: corpus-scoped RBAC. A node is visible when its corpus is in
 * `corpora` (or `corpora` is `'*'`) and its `acl` is empty (every reader of the corpus) or
 * names one of the caller's `groups` (acl is a comma-separated list of group names).
 */
export interface AccessPolicy {
  corpora: readonly string[] | '*';
  groups: readonly string[];
}

/** The policy of a local user: everything. */
export const FULL_ACCESS: AccessPolicy = { corpora: '*', groups: [] };

/** True when `policy` may read nodes of `corpus` with `acl`. */
export function mayRead(policy: AccessPolicy, corpus: string, acl: string): boolean {
  if (policy.corpora !== '*' && !policy.corpora.includes(corpus)) return false;
  if (acl === '') return true;
  return acl.split(',').some((g) => policy.groups.includes(g.trim()));
}

/** True when `policy` may read corpus `corpus` at all. */
export function mayReadCorpus(policy: AccessPolicy, corpus: string): boolean {
  return policy.corpora === '*' || policy.corpora.includes(corpus);
}

const masks = new WeakMap<GraphSnapshot, Map<string, Uint8Array>>();
const fullMasks = new WeakMap<Uint8Array, boolean>();

/**
 * The visibility mask of `policy` over `snapshot` (1 = may see): what every traversal takes,
 * so a node the caller may not see is never entered. Cached per snapshot and policy.
 */
export function visibilityMask(snapshot: GraphSnapshot, policy: AccessPolicy): Uint8Array {
  const key = JSON.stringify([policy.corpora, [...policy.groups].sort()]);
  let perSnapshot = masks.get(snapshot);
  if (!perSnapshot) masks.set(snapshot, (perSnapshot = new Map<string, Uint8Array>()));
  const cached = perSnapshot.get(key);
  if (cached) return cached;
  const mask = new Uint8Array(snapshot.nodeCount);
  const decided = new Map<string, number>();
  for (let i = 0; i < mask.length; i++) {
    const corpus = snapshot.corpora[i]!;
    const acl = snapshot.acls[i]!;
    const k = `${corpus}\u0000${acl}`;
    let v = decided.get(k);
    if (v === undefined) decided.set(k, (v = mayRead(policy, corpus, acl) ? 1 : 0));
    mask[i] = v;
  }
  // Every policy that sees the whole snapshot gets the same mask, and with it the same caches
  // kept per mask (a daemon's call for one repository's corpus and a local user's '*' alike).
  let shared: Uint8Array = mask;
  if (mask.indexOf(0) === -1) {
    shared = perSnapshot.get(EVERY_NODE) ?? mask;
    perSnapshot.set(EVERY_NODE, shared);
    fullMasks.set(shared, true);
  }
  perSnapshot.set(key, shared);
  return shared;
}

// The key under which a snapshot keeps its mask that hides nothing (no policy's JSON key looks like it).
const EVERY_NODE = '\u0000every node';

/**
 * True when `mask` hides no node (a local user, or a policy that covers the whole graph), so a
 * traversal may skip the mask: the same result without a lookup per edge. Remembered per mask;
 * a mask must not change once made ({@link visibilityMask}'s never do).
 */
export function showsEveryNode(mask: Uint8Array): boolean {
  let full = fullMasks.get(mask);
  if (full === undefined) fullMasks.set(mask, (full = mask.indexOf(0) === -1));
  return full;
}
