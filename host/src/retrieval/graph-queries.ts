import type { EdgeKind } from '@travsr/protocol';
import { REPO_UNIQUE_CONFIDENCE, SAME_FILE_CONFIDENCE } from '../store/index.js';
import { mayRead, visibilityMask, type AccessPolicy } from './access-policy.js';
import { bfs, shortestPath, type PathHop } from './bfs.js';
import type { CodeGraph } from './code-graph.js';
import type { Completeness } from './index-completeness.js';
import { headRef, nodeRef, type NodeRef } from './node-ref.js';
import { lookupSymbol, type SymbolLookup } from './symbol-lookup.js';
import { GraphSnapshot } from './graph-snapshot.js';
import { edgeKindMask } from './traversal-options.js';

/** How an edge was established, in words an agent can weigh. */
export type EdgeCertainty = 'resolved' | 'name-matched';

/** A node reached by a graph query, and how. */
export interface ReachedNode extends NodeRef {
  /** Hops from the queried symbol. */
  depth: number;
  /** The node it was reached from (its id) and the edge followed. */
  via: { from: string; kind: EdgeKind; certainty: EdgeCertainty; confidence: number } | null;
}

/** The answer of callers / dependencies / blast radius. */
export interface NeighbourhoodResult {
  /** The symbols the query started from (several when a file or an ambiguous name was given). */
  roots: NodeRef[];
  lookup: SymbolLookup['as'];
  /** Other symbols the argument could have meant (not expanded). */
  alternatives: NodeRef[];
  nodes: ReachedNode[];
  /** Distinct files of `nodes` with how many nodes each, most first. */
  files: { path: string; nodes: number }[];
  /** True when `limit` cut the answer. */
  truncated: boolean;
  completeness: Completeness;
}

/** Options shared by the neighbourhood queries. */
export interface NeighbourhoodOptions {
  policy: AccessPolicy;
  /** Hops (1..3; default 1 for callers and dependencies, 3 for blast radius). */
  depth?: number;
  /** At most this many nodes (default 200). */
  limit?: number;
  /** Leave out name-matched (Phase A) edges; default false (they are included and marked). */
  resolvedOnly?: boolean;
}

const CALLER_KINDS: EdgeKind[] = ['calls'];
const DEPENDENCY_KINDS: EdgeKind[] = ['calls', 'imports', 'inherits', 'implements', 'types', 'references'];
const BLAST_KINDS: EdgeKind[] = ['calls', 'imports', 'inherits', 'implements', 'types', 'references', 'overrides'];

/** Edges below this confidence come from name matching, not from an analyzer that resolved them. */
const RESOLVED_CONFIDENCE = Math.max(SAME_FILE_CONFIDENCE, REPO_UNIQUE_CONFIDENCE) + 1e-6;

/** Who calls `symbol` (transitively up to `depth`). */
export function callers(cg: CodeGraph, symbol: string, opts: NeighbourhoodOptions): NeighbourhoodResult {
  return neighbourhood(cg, symbol, 'in', CALLER_KINDS, opts.depth ?? 1, opts);
}

/** What `symbol` (or every definition of a file) calls, imports, extends and refers to. */
export function dependencies(cg: CodeGraph, symbol: string, opts: NeighbourhoodOptions): NeighbourhoodResult {
  return neighbourhood(cg, symbol, 'out', DEPENDENCY_KINDS, opts.depth ?? 1, opts);
}

/** Everything that depends on `symbol` (or on a file's definitions) within `depth` hops: what a change can break. */
export function blastRadius(cg: CodeGraph, symbol: string, opts: NeighbourhoodOptions): NeighbourhoodResult {
  return neighbourhood(cg, symbol, 'in', BLAST_KINDS, opts.depth ?? 3, opts);
}

/** The answer of {@link executionPath}. */
export interface ExecutionPathResult {
  from: NodeRef | null;
  to: NodeRef | null;
  /** The hops, empty when `from` is `to`; null when there is no path (or a symbol was not found). */
  path: { from: NodeRef; to: NodeRef; kind: EdgeKind; certainty: EdgeCertainty; reversed: boolean }[] | null;
  /** What the path followed: calls only, or (when no call path exists) any dependency edge. */
  via: 'calls' | 'dependencies' | null;
  completeness: Completeness;
}

/** A shortest chain of calls from `from` to `to` (else of any dependency edge), for "how does X reach Y". */
export function executionPath(cg: CodeGraph, from: string, to: string, opts: NeighbourhoodOptions): ExecutionPathResult {
  const snap = cg.snapshot();
  const visible = visibilityMask(snap, opts.policy);
  const a = lookupSymbol(cg.store, from, opts.policy).matches[0];
  const b = lookupSymbol(cg.store, to, opts.policy).matches[0];
  const completeness = cg.completeness();
  const ia = a && snap.denseOf(a.id);
  const ib = b && snap.denseOf(b.id);
  if (ia === undefined || ib === undefined)
    return { from: a ? nodeRef(a) : null, to: b ? nodeRef(b) : null, path: null, via: null, completeness };
  const minConfidence = opts.resolvedOnly ? RESOLVED_CONFIDENCE : 0;
  const maxDepth = 12;
  let via: ExecutionPathResult['via'] = 'calls';
  let hops = shortestPath(snap.graph, ia, ib, { edgeKinds: edgeKindMask(CALLER_KINDS), visible, minConfidence, maxDepth });
  if (hops === null) {
    via = 'dependencies';
    hops = shortestPath(snap.graph, ia, ib, { edgeKinds: edgeKindMask(DEPENDENCY_KINDS), visible, minConfidence, maxDepth });
  }
  if (hops === null) return { from: nodeRef(a!), to: nodeRef(b!), path: null, via: null, completeness };
  const refs = refsOf(cg, [...new Set(hops.flatMap((h) => [h.from, h.to]))]);
  return {
    from: nodeRef(a!),
    to: nodeRef(b!),
    path: hops.map((h: PathHop) => ({
      from: refs.get(h.from)!,
      to: refs.get(h.to)!,
      kind: h.kind,
      certainty: certainty(h.confidence),
      reversed: h.reversed,
    })),
    via,
    completeness,
  };
}

function neighbourhood(
  cg: CodeGraph,
  symbol: string,
  direction: 'in' | 'out',
  kinds: EdgeKind[],
  depth: number,
  opts: NeighbourhoodOptions,
): NeighbourhoodResult {
  const snap = cg.snapshot();
  const visible = visibilityMask(snap, opts.policy);
  const limit = Math.max(1, Math.min(opts.limit ?? 200, 5000));
  const lookup = lookupFileOrSymbol(cg, symbol, opts.policy);
  // A file argument starts from every definition in it; an ambiguous name from its best match.
  const roots = lookup.as === 'file' ? lookup.matches : lookup.matches.slice(0, 1);
  const alternatives = lookup.as === 'file' ? [] : lookup.matches.slice(1);
  const seeds = roots.flatMap((r) => snap.denseOf(r.id) ?? []);
  const r = bfs(snap.graph, seeds, {
    direction,
    edgeKinds: edgeKindMask(kinds),
    maxDepth: Math.max(1, Math.min(depth, 3)),
    maxNodes: limit + seeds.length,
    visible,
    ...(opts.resolvedOnly ? { minConfidence: RESOLVED_CONFIDENCE } : {}),
  });
  const reached: number[] = [];
  for (let i = 0; i < r.order.length; i++) if (r.depth[i]! > 0) reached.push(i);
  const dense = [...new Set([...reached.map((i) => r.order[i]!), ...reached.map((i) => r.parent[i]!)])];
  const refs = refsOf(cg, dense);
  const nodes: ReachedNode[] = reached.flatMap((i) => {
    const ref = refs.get(r.order[i]!);
    const from = refs.get(r.parent[i]!) ?? rootRef(lookup.matches, snap.storeIdOf(r.parent[i]!));
    if (!ref) return [];
    return [
      {
        ...ref,
        depth: r.depth[i]!,
        via: from
          ? {
              from: from.id,
              kind: GraphSnapshot.edgeKind(r.parentKind[i]!),
              certainty: certainty(r.parentConfidence[i]!),
              confidence: r.parentConfidence[i]!,
            }
          : null,
      },
    ];
  });
  const perFile = new Map<string, number>();
  for (const n of nodes) perFile.set(n.path, (perFile.get(n.path) ?? 0) + 1);
  return {
    roots: roots.map(nodeRef),
    lookup: lookup.as === 'file' ? 'location' : lookup.as,
    alternatives: alternatives.map(nodeRef),
    nodes,
    files: [...perFile].map(([path, n]) => ({ path, nodes: n })).sort((x, y) => y.nodes - x.nodes || (x.path < y.path ? -1 : 1)),
    truncated: r.truncated,
    completeness: cg.completeness(),
  };
}

/** A path names a file: every definition in it. Otherwise a symbol. */
function lookupFileOrSymbol(
  cg: CodeGraph,
  spec: string,
  policy: AccessPolicy,
): { as: SymbolLookup['as'] | 'file'; matches: ReturnType<typeof lookupSymbol>['matches'] } {
  const path = spec.trim().replace(/^\.\//, '');
  if (path.includes('/') || /\.[a-z0-9]+$/i.test(path)) {
    const defs = cg.store.fileNodes(path).filter((n) => n.kind !== 'external' && n.kind !== 'file');
    const visibleDefs = defs.filter((n) => mayRead(policy, n.vname.corpus, n.acl));
    if (visibleDefs.length > 0) return { as: 'file', matches: visibleDefs };
  }
  return lookupSymbol(cg.store, spec, policy);
}

function rootRef(rows: ReturnType<typeof lookupSymbol>['matches'], storeId: number): NodeRef | undefined {
  const row = rows.find((x) => x.id === storeId);
  return row && nodeRef(row);
}

/**
 * NodeRefs of dense nodes, read from the store in one query (of the columns they show) for the
 * nodes not read before at this snapshot: the nodes a server shows recur from question to
 * question. Kept per snapshot (a new graph version is a new snapshot), at most
 * {@link MAX_KEPT_REFS} of them.
 */
export function refsOf(cg: CodeGraph, dense: number[]): Map<number, NodeRef> {
  const snap = cg.snapshot();
  let kept = keptRefs.get(snap);
  if (!kept || kept.size > MAX_KEPT_REFS) keptRefs.set(snap, (kept = new Map<number, NodeRef | undefined>()));
  const missing = dense.filter((d) => d >= 0 && !kept.has(d));
  if (missing.length > 0) {
    const byStoreId = new Map(cg.store.nodeHeads(missing.map((d) => snap.storeIdOf(d))).map((row) => [row.id, headRef(row)]));
    for (const d of missing) kept.set(d, byStoreId.get(snap.storeIdOf(d)));
  }
  const out = new Map<number, NodeRef>();
  for (const d of dense) {
    const ref = d >= 0 ? kept.get(d) : undefined;
    if (ref) out.set(d, ref);
  }
  return out;
}
const MAX_KEPT_REFS = 50_000;
const keptRefs = new WeakMap<GraphSnapshot, Map<number, NodeRef | undefined>>();

function certainty(confidence: number): EdgeCertainty {
  return confidence >= RESOLVED_CONFIDENCE ? 'resolved' : 'name-matched';
}
