import { describe, expect, it } from 'vitest';
import { nodeId } from '@travsr/protocol';
import type { FileGraphInput } from '../../src/store/types.js';
import { analysis, def, edge, exported, ref, tempStore, vn } from './graph-fixtures.js';

function files(): FileGraphInput[] {
  const file = def('src/a.ts', '', 'file', { name: 'a.ts', range: { startLine: 1, startCol: 0, endLine: 30, endCol: 0 } });
  const f = def('src/a.ts', '#f', 'function', { qualifiedName: 'a.f' });
  const g = def('src/b.ts', '#g');
  const h = def('src/b.ts', '#h', 'method', { range: undefined as never });
  delete (h as { range?: unknown }).range;
  return [
    analysis('src/a.ts', {
      nodes: [file, f],
      edges: [
        edge(file.vname, f.vname, 'contains'),
        edge(f.vname, g.vname),
        edge(f.vname, vn('node_modules/x/index.d.ts', '#x'), 'imports'),
      ],
      refs: [ref(f.vname, 'h')],
    }),
    analysis('src/b.ts', { nodes: [g, h], edges: [edge(g.vname, f.vname, 'calls', 'phase-a', 0.8)] }),
    analysis('src/b.ts', {
      phase: 'B',
      nodes: [],
      edges: [edge(g.vname, f.vname, 'calls', 'lsif', 0.95), edge(h.vname, g.vname, 'overrides', 'phase-b', 1)],
    }),
  ];
}

describe('GraphStore.exportGraph', () => {
  it('has the jsonl contract shape: NodeId ids, 1-based lines, nulls where unknown', () => {
    const store = tempStore();
    for (const f of files()) store.replaceFile(f);
    store.resolveRefs();
    const { nodes, edges } = exported(store);
    const f = nodes.find((n) => n.name === 'f')!;
    expect(f).toEqual({
      type: 'node',
      id: nodeId(vn('src/a.ts', '#f')),
      kind: 'function',
      name: 'f',
      qualified_name: 'a.f',
      path: 'src/a.ts',
      language: 'typescript',
      signature: '#f',
      start_line: 1,
      start_col: 0,
      end_line: 2,
      end_col: 1,
    });
    expect(nodes.find((n) => n.name === 'h')).toMatchObject({
      qualified_name: null,
      start_line: null,
      start_col: null,
      end_line: null,
      end_col: null,
    });
    expect(nodes.find((n) => n.kind === 'external')).toMatchObject({ path: 'node_modules/x/index.d.ts', name: '' });
    expect(nodes.map((n) => n.id)).toEqual([...nodes.map((n) => n.id)].sort());
    const key = (e: { src: string; dst: string; kind: string; provenance: string }) => `${e.src} ${e.dst} ${e.kind} ${e.provenance}`;
    expect(edges.map(key)).toEqual([...edges.map(key)].sort());
    const ids = new Set(nodes.map((n) => n.id));
    expect(edges.every((e) => ids.has(e.src) && ids.has(e.dst))).toBe(true);
    for (const e of edges) expect(Object.keys(e)).toEqual(['type', 'src', 'dst', 'kind', 'confidence', 'provenance']);
    // The derived name match (f → h) is low confidence; the Phase A, LSIF and Phase B edges stay distinct.
    const byKind = edges.map((e) => `${e.kind}:${e.provenance}:${e.confidence}`).sort();
    expect(byKind).toEqual([
      'calls:lsif:0.95',
      'calls:phase-a:0.35',
      'calls:phase-a:0.8',
      'calls:phase-a:1',
      'contains:phase-a:1',
      'imports:phase-a:1',
      'overrides:phase-b:1',
    ]);
    expect(JSON.parse(JSON.stringify(f))).toEqual(f);
    store.close();
  });

  it('is the same whatever order the files were written in, and leaves out tombstones and orphan placeholders', () => {
    const a = tempStore();
    for (const f of files()) a.replaceFile(f);
    a.resolveRefs();
    const b = tempStore();
    // Other order, with detours: an extra file that is removed, a node that is tombstoned then revived.
    b.replaceFile(
      analysis('src/tmp.ts', { nodes: [def('src/tmp.ts', '#t')], edges: [edge(vn('src/tmp.ts', '#t'), vn('src/zzz.ts', '#z'))] }),
    );
    const [fa, fb, fbB] = files();
    b.replaceFile(fb!);
    b.replaceFile({ ...fa!, nodes: fa!.nodes.slice(0, 1) });
    b.replaceFile(fbB!);
    b.replaceFile(fa!);
    b.removeFile('src/tmp.ts');
    b.resolveRefs();
    expect(exported(b)).toEqual(exported(a));
    expect(b.counts().tombstones).toBe(1);
    a.close();
    b.close();
  });

  it('is lazy and streams: iterating twice gives the same lines', () => {
    const store = tempStore();
    for (const f of files()) store.replaceFile(f);
    const g = store.exportGraph();
    const once = [...g.nodes].length;
    expect([...g.nodes].length).toBe(once);
    expect([...g.edges].length).toBeGreaterThan(0);
    store.close();
  });
});
