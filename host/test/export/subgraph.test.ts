import { describe, expect, it } from 'vitest';
import { selectSubgraph, SubgraphError } from '../../src/export/subgraph.js';
import type { ExportEdge, ExportNode } from '../../src/store/index.js';

/** A graph of a file `a.py` defining `f` (which calls `g`, which calls `h`), and `b.py` defining `g` and `h`. */
function graph() {
  const node = (id: string, kind: ExportNode['kind'], name: string, path: string, qualified: string | null = null): ExportNode => ({
    type: 'node',
    id: id,
    kind,
    name,
    qualified_name: qualified,
    path,
    language: 'python',
    signature: '',
    start_line: 1,
    start_col: 0,
    end_line: 2,
    end_col: 0,
  });
  const edge = (src: string, dst: string, kind: string): ExportEdge => ({
    type: 'edge',
    src: src,
    dst: dst,
    kind,
    confidence: 1,
    provenance: 'phase-b',
  });
  const nodes = [
    node('A', 'file', 'a.py', 'a.py'),
    node('B', 'file', 'b.py', 'b.py'),
    node('F', 'function', 'f', 'a.py', 'a.f'),
    node('G', 'function', 'g', 'b.py', 'b.g'),
    node('H', 'function', 'h', 'b.py', 'b.h'),
    node('X', 'external', 'g', 'b.py'),
  ];
  const edges = [
    edge('A', 'F', 'contains'),
    edge('B', 'G', 'contains'),
    edge('B', 'H', 'contains'),
    edge('F', 'G', 'calls'),
    edge('G', 'H', 'calls'),
  ];
  return { nodes, edges };
}

describe('selectSubgraph', () => {
  it('walks every edge kind both ways from a name, up to the depth', () => {
    const sub = selectSubgraph(graph(), { focus: 'g', depth: 1 });
    expect(sub.focus).toEqual(['G']);
    expect(sub.nodes.map((n) => n.id).sort()).toEqual(['B', 'F', 'G', 'H']);
    expect(sub.edges.map((e) => `${e.src}${e.dst}`).sort()).toEqual(['BG', 'BH', 'FG', 'GH']);
    expect(Object.fromEntries(sub.depthOf)).toEqual({ G: 0, B: 1, F: 1, H: 1 });
    expect(sub.leftOut).toBe(0);
  });

  it('takes a file path or a qualified name as the focus', () => {
    expect(selectSubgraph(graph(), { focus: 'a.py', depth: 1 }).nodes.map((n) => n.id)).toEqual(['A', 'F']);
    expect(selectSubgraph(graph(), { focus: 'b.h', depth: 0 }).nodes.map((n) => n.id)).toEqual(['H']);
  });

  it('keeps the nearest nodes when the cap cuts, and counts what it left out', () => {
    const sub = selectSubgraph(graph(), { focus: 'f', depth: 3, maxNodes: 3 });
    expect(sub.nodes.map((n) => n.id)).toEqual(['F', 'A', 'G']);
    expect(sub.leftOut).toBe(2);
    expect(sub.edges.map((e) => `${e.src}${e.dst}`)).toEqual(['AF', 'FG']);
  });

  it('says when the focus names nothing, or the whole graph is too large', () => {
    expect(() => selectSubgraph(graph(), { focus: 'nope' })).toThrow(
      expect.objectContaining({ code: 'SUBGRAPH_FOCUS_NOT_FOUND', message: expect.stringMatching(/nothing in the graph is named "nope"/) }),
    );
    expect(() => selectSubgraph(graph(), { maxNodes: 5 })).toThrow(SubgraphError);
    expect(() => selectSubgraph(graph(), { maxNodes: 5 })).toThrow(/6 nodes, more than 5 can be drawn: pick a part with --focus/);
    expect(selectSubgraph(graph()).nodes).toHaveLength(6);
  });
});
