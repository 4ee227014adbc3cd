import type { ToolResult } from '../tools/tool-runner.js';

/** A node as the graph view draws it (a `NodeRef` of the tools). */
export interface ViewNode {
  id: string;
  kind: string;
  name: string;
  qualifiedName: string | null;
  path: string;
  startLine: number | null;
  endLine: number | null;
}

/** An edge as the graph view draws it: `resolved` false for a name-matched one. */
export interface ViewEdge {
  source: string;
  target: string;
  kind: string;
  resolved: boolean;
}

/** What the page adds to its graph for one symbol: the symbol(s) it names, what reaches them and what they reach. */
export interface ViewGraph {
  roots: string[];
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** Set when the symbol names nothing the caller may see. */
  error?: string;
}

interface ReachedNode extends ViewNode {
  via: { from: string; kind: string; certainty: string } | null;
}

/**
 * The neighbourhood of `symbol` within `depth` hops, from the MCP tools: its callers
 * (`get_callers`: who calls, references, inherits from or imports it) and its dependencies
 * (`get_dependencies`: what it calls, imports, inherits, uses as types), each reached node with
 * the edge it was reached by, in the edge's own direction.
 */
export function neighbourhoodOf(
  tool: (name: string, args: Record<string, unknown>) => ToolResult,
  symbol: string,
  depth: number,
): ViewGraph {
  const nodes = new Map<string, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  const roots = new Set<string>();
  for (const [name, direction] of [
    ['get_callers', 'in'],
    ['get_dependencies', 'out'],
  ] as const) {
    const r = tool(name, { symbol, depth });
    if (r.isError) return { roots: [], nodes: [], edges: [], error: r.text };
    const s = r.structured as { roots?: ViewNode[]; nodes?: ReachedNode[] };
    for (const root of s.roots ?? []) {
      roots.add(root.id);
      nodes.set(root.id, pick(root));
    }
    for (const n of s.nodes ?? []) {
      nodes.set(n.id, pick(n));
      if (!n.via) continue;
      const [source, target] = direction === 'in' ? [n.id, n.via.from] : [n.via.from, n.id];
      edges.set(`${source} ${n.via.kind} ${target}`, { source, target, kind: n.via.kind, resolved: n.via.certainty === 'resolved' });
    }
  }
  if (roots.size === 0) return { roots: [], nodes: [], edges: [], error: `No symbol matches ${JSON.stringify(symbol)}` };
  return { roots: [...roots], nodes: [...nodes.values()], edges: [...edges.values()] };
}

function pick(n: ViewNode): ViewNode {
  return { id: n.id, kind: n.kind, name: n.name, qualifiedName: n.qualifiedName, path: n.path, startLine: n.startLine, endLine: n.endLine };
}
