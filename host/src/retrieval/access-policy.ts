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
  let hidesAny = false;
  for (let i = 0; i < mask.length; i++) {
    const corpus = snapshot.corpora[i]!;
    const acl = snapshot.acls[i]!;
    const k = `${corpus}\u0000${acl}`;
    let v = decided.get(k);
    if (v === undefined) decided.set(k, (v = mayRead(policy, corpus, acl) ? 1 : 0));
    mask[i] = v;
    if (v === 0) hidesAny = true;
  }
  // Every policy that sees the whole snapshot gets the same mask, and with it the same caches
  // kept per mask (a daemon's call for one repository's corpus and a local user's '*' alike).
  let shared: Uint8Array = mask;
  if (!hidesAny) {
    shared = perSnapshot.get(EVERY_NODE) ?? mask;
    perSnapshot.set(EVERY_NODE, shared);
  }
  perSnapshot.set(key, shared);
  return shared;
}

// The key under which a snapshot keeps its mask that hides nothing (no policy's JSON key looks like it).
const EVERY_NODE = '\u0000every node';
