import { TravsrError } from '@travsr/protocol';
import type { ExportEdge, ExportNode, GraphExport } from '../store/index.js';

/** What {@link selectSubgraph} keeps: the neighbourhood of `focus` within `depth`, at most `maxNodes` nodes. */
export interface SubgraphOptions {
  /**
   * Where to start: a file path (its file node; what it defines is one hop away), a qualified name, or a
   * name (every definition of it). Undefined: the whole graph.
   */
  focus?: string;
  /** Edges followed out from the focus, either direction (default 2). */
  depth?: number;
  /** The most nodes kept, nearest first (default 400). */
  maxNodes?: number;
}

/** A subgraph: its nodes (the focus first), the edges between them, and what was left out. */
export interface Subgraph {
  nodes: ExportNode[];
  edges: ExportEdge[];
  /** NodeIds of the focus nodes. */
  focus: string[];
  /** Hops from the focus of every node kept (0 for the focus itself). */
  depthOf: Map<string, number>;
  /** Nodes within `depth` that the `maxNodes` cap left out. */
  leftOut: number;
}

/** Error: the focus names nothing in the graph, or the graph is too large without one. */
export class SubgraphError extends TravsrError {
  override readonly name = 'SubgraphError';
  constructor(
    readonly code: 'SUBGRAPH_FOCUS_NOT_FOUND' | 'SUBGRAPH_TOO_LARGE',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The part of the graph around `focus`: a breadth-first walk over every edge kind (calls,
 * imports, inheritance, types, containment), both directions, up to `depth` hops; nearer nodes
 * first when `maxNodes` cuts it. Without a focus, the whole graph when it has at most
 * `maxNodes` nodes. Deterministic: the graph's own order breaks ties.
 *
 * @throws SubgraphError when the focus names nothing, or the whole graph is asked for and is larger than `maxNodes`
 */
export function selectSubgraph(graph: GraphExport, opts: SubgraphOptions = {}): Subgraph {
  const depth = opts.depth ?? 2;
  const maxNodes = opts.maxNodes ?? 400;
  const nodes = [...graph.nodes];
  const edges = [...graph.edges];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  if (opts.focus === undefined) {
    if (nodes.length > maxNodes)
      throw new SubgraphError(
        'SUBGRAPH_TOO_LARGE',
        `the graph has ${nodes.length} nodes, more than ${maxNodes} can be drawn: pick a part with --focus <symbol or file> (and --depth), or raise --max-nodes`,
      );
    return { nodes, edges, focus: [], depthOf: new Map(nodes.map((n) => [n.id, 0])), leftOut: 0 };
  }
  const focus = focusNodes(nodes, opts.focus);
  if (focus.length === 0)
    throw new SubgraphError(
      'SUBGRAPH_FOCUS_NOT_FOUND',
      `nothing in the graph is named ${JSON.stringify(opts.focus)}: give a file path relative to the repository, a qualified name or a name (\`travsr graph callers\` and search_symbols find names)`,
    );
  const neighbours = new Map<string, string[]>();
  const link = (a: string, b: string) => {
    let list = neighbours.get(a);
    if (!list) neighbours.set(a, (list = []));
    list.push(b);
  };
  for (const e of edges) {
    link(e.src, e.dst);
    link(e.dst, e.src);
  }
  const depthOf = new Map<string, number>(focus.map((n) => [n.id, 0]));
  let frontier = focus.map((n) => n.id);
  let within = focus.length;
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier)
      for (const other of neighbours.get(id) ?? [])
        if (!depthOf.has(other) && byId.has(other)) {
          depthOf.set(other, d);
          next.push(other);
        }
    within += next.length;
    frontier = next;
  }
  const kept = [...depthOf.entries()].sort((a, b) => a[1] - b[1]).slice(0, maxNodes);
  const keep = new Set(kept.map(([id]) => id));
  for (const id of [...depthOf.keys()]) if (!keep.has(id)) depthOf.delete(id);
  return {
    nodes: kept.map(([id]) => byId.get(id)!),
    edges: edges.filter((e) => keep.has(e.src) && keep.has(e.dst)),
    focus: focus.map((n) => n.id),
    depthOf,
    leftOut: within - keep.size,
  };
}

/** The nodes `focus` names: a file's node (its definitions are one hop away), else exact qualified names, else names. */
function focusNodes(nodes: readonly ExportNode[], focus: string): ExportNode[] {
  const file = nodes.filter((n) => n.path === focus && n.kind === 'file');
  if (file.length > 0) return file;
  const qualified = nodes.filter((n) => n.qualified_name === focus);
  if (qualified.length > 0) return qualified;
  return nodes.filter((n) => n.name === focus && n.kind !== 'external');
}
