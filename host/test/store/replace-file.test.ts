import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { analysis, def, edge, exported, ref, tempStore, vn } from './graph-fixtures.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

describe('GraphStore.replaceFile', () => {
  it('stores nodes, edges, refs and the file row, and reads them back', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f', 'function', {
      qualifiedName: 'a.f',
      skeleton: 'function f(): void',
      range: { startLine: 3, startCol: 2, endLine: 9, endCol: 1 },
    });
    const file = def('src/a.ts', '', 'file', { name: 'a.ts' });
    const r = store.replaceFile(
      analysis('src/a.ts', {
        lines: 42,
        nodes: [file, f],
        edges: [edge(file.vname, f.vname, 'contains')],
        refs: [ref(f.vname, 'console.log')],
        diagnostics: [{ severity: 'warning', message: 'unused import' }],
      }),
    );
    expect(r).toEqual({ nodes: 2, edges: 1, tombstoned: 0 });
    expect(store.findNode(f.vname)).toMatchObject({
      kind: 'function',
      name: 'f',
      qualifiedName: 'a.f',
      skeleton: 'function f(): void',
      startLine: 3,
      startCol: 2,
      endLine: 9,
      endCol: 1,
      tombstoned: false,
    });
    expect(store.getFile('src/a.ts')).toMatchObject({
      sha256: 'sha-of-src/a.ts',
      language: 'typescript',
      status: 'ok',
      reason: null,
      plugin: 'lang-typescript@0.1.0',
      phase: 'A',
      lines: 42,
      diagnostics: [{ severity: 'warning', message: 'unused import' }],
    });
    expect(store.listFiles().map((x) => x.path)).toEqual(['src/a.ts']);
    expect(store.counts()).toMatchObject({ files: 1, nodes: 2, edges: 1, refs: 1, tombstones: 0 });
    // Same content again: nothing changes.
    const before = exported(store);
    const v = store.graphVersion();
    store.replaceFile(
      analysis('src/a.ts', { nodes: [file, f], edges: [edge(file.vname, f.vname, 'contains')], refs: [ref(f.vname, 'console.log')] }),
    );
    expect(exported(store)).toEqual(before);
    expect(store.counts().refs).toBe(1);
    expect(store.graphVersion()).toBe(v + 1);
    store.close();
  });

  it('tombstones the nodes a new Phase A analysis no longer has, and revives them when they come back', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    const g = def('src/a.ts', '#g');
    store.replaceFile(analysis('src/a.ts', { nodes: [f, g] }));
    const gId = store.findNode(g.vname)!.id;
    expect(store.replaceFile(analysis('src/a.ts', { nodes: [f] })).tombstoned).toBe(1);
    expect(store.findNode(g.vname)).toMatchObject({ id: gId, tombstoned: true });
    expect(store.fileNodes('src/a.ts').map((n) => n.name)).toEqual(['f']);
    expect(store.fileNodes('src/a.ts', { includeTombstoned: true }).map((n) => n.name)).toEqual(['f', 'g']);
    expect(exported(store).nodes.map((n) => n.name)).toEqual(['f']);
    expect(store.counts()).toMatchObject({ nodes: 1, tombstones: 1 });
    store.replaceFile(analysis('src/a.ts', { nodes: [f, { ...g, range: { startLine: 20, startCol: 0, endLine: 21, endCol: 0 } }] }));
    expect(store.findNode(g.vname)).toMatchObject({ id: gId, tombstoned: false, startLine: 20 });
    expect(store.counts()).toMatchObject({ nodes: 2, tombstones: 0 });
    store.close();
  });

  it('gives an edge target with no node an external placeholder, which the real definition later replaces', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    const helper = def('src/util.ts', '#helper');
    store.replaceFile(analysis('src/main.ts', { nodes: [main], edges: [edge(main.vname, helper.vname)] }));
    const placeholder = store.findNode(helper.vname)!;
    expect(placeholder).toMatchObject({ kind: 'external', name: '', tombstoned: false });
    expect(store.counts()).toMatchObject({ nodes: 1, externals: 1 });
    let g = exported(store);
    expect(g.nodes.find((n) => n.id === placeholder.nodeId)).toMatchObject({ kind: 'external', path: 'src/util.ts', start_line: null });
    expect(g.edges).toEqual([
      {
        type: 'edge',
        src: store.findNode(main.vname)!.nodeId,
        dst: placeholder.nodeId,
        kind: 'calls',
        confidence: 1,
        provenance: 'phase-a',
      },
    ]);
    expect(store.searchSymbols('helper')).toEqual([]);

    store.replaceFile(analysis('src/util.ts', { nodes: [helper] }));
    expect(store.findNode(helper.vname)).toMatchObject({ id: placeholder.id, kind: 'function', name: 'helper' });
    expect(store.counts()).toMatchObject({ nodes: 2, externals: 0 });
    expect(store.searchSymbols('helper').map((h) => h.node.id)).toEqual([placeholder.id]);
    g = exported(store);
    expect(g.nodes.map((n) => n.kind)).toEqual(['function', 'function']);
    expect(g.edges).toHaveLength(1);

    // An unreferenced placeholder is dropped when the edge that made it goes away.
    const gone = vn('src/nowhere.ts', '#ghost');
    store.replaceFile(analysis('src/main.ts', { nodes: [main], edges: [edge(main.vname, gone)] }));
    expect(store.findNode(gone)?.kind).toBe('external');
    store.replaceFile(analysis('src/main.ts', { nodes: [main] }));
    expect(store.findNode(gone)).toBeUndefined();
    store.close();
  });

  it('keeps the stored graph and the old sha256 when the analysis failed', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    store.replaceFile(analysis('src/a.ts', { sha256: 'old', lines: 10, nodes: [f], refs: [ref(f.vname, 'x')] }));
    const before = exported(store);
    const r = store.replaceFile(
      analysis('src/a.ts', {
        sha256: 'new',
        status: 'failed',
        plugin: 'lang-typescript@0.2.0',
        nodes: [],
        diagnostics: [{ severity: 'error', message: 'unexpected token }' }],
      }),
    );
    expect(r).toEqual({ nodes: 0, edges: 0, tombstoned: 0 });
    expect(exported(store)).toEqual(before);
    expect(store.getFile('src/a.ts')).toMatchObject({
      sha256: 'old',
      status: 'failed',
      reason: 'unexpected token }',
      plugin: 'lang-typescript@0.2.0',
      phase: 'A',
      lines: 10,
      diagnostics: [{ severity: 'error', message: 'unexpected token }' }],
    });
    expect(store.counts()).toMatchObject({ refs: 1, byLanguage: { typescript: { files: 1, nodes: 1, failed: 1, skipped: 0 } } });
    // A file that never indexed successfully gets an empty sha256, so the next run retries it.
    store.replaceFile(analysis('src/b.ts', { status: 'failed', diagnostics: [] }));
    expect(store.getFile('src/b.ts')).toMatchObject({ sha256: '', status: 'failed', reason: 'analysis failed', phase: null });
    // Success again clears the failure.
    store.replaceFile(analysis('src/a.ts', { sha256: 'new', nodes: [f] }));
    expect(store.getFile('src/a.ts')).toMatchObject({ sha256: 'new', status: 'ok', reason: null, lines: null });
    store.close();
  });

  it('lets Phase A and Phase B replace only their own edges, and Phase B never tombstones', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    const g = def('src/a.ts', '#g');
    const h = def('src/b.ts', '#h');
    store.replaceFile(analysis('src/b.ts', { nodes: [h] }));
    store.replaceFile(analysis('src/a.ts', { nodes: [f, g], edges: [edge(f.vname, g.vname, 'calls', 'phase-a', 1)] }));
    store.replaceFile(
      analysis('src/a.ts', {
        phase: 'B',
        plugin: 'lang-typescript-b@0.1.0',
        nodes: [],
        edges: [edge(f.vname, g.vname, 'calls', 'phase-b', 1), edge(g.vname, h.vname, 'types', 'phase-b', 0.9)],
      }),
    );
    const kinds = () =>
      exported(store)
        .edges.map((e) => `${e.kind}:${e.provenance}`)
        .sort();
    expect(kinds()).toEqual(['calls:phase-a', 'calls:phase-b', 'types:phase-b']);
    expect(store.fileNodes('src/a.ts')).toHaveLength(2);
    expect(store.getFile('src/a.ts')).toMatchObject({ phase: 'B', plugin: 'lang-typescript-b@0.1.0' });
    // Phase B again with fewer edges: the Phase A edge stays.
    store.replaceFile(analysis('src/a.ts', { phase: 'B', nodes: [], edges: [edge(f.vname, g.vname, 'calls', 'phase-b', 1)] }));
    expect(kinds()).toEqual(['calls:phase-a', 'calls:phase-b']);
    // Phase A again without edges: the Phase B edge stays.
    store.replaceFile(analysis('src/a.ts', { nodes: [f, g], edges: [] }));
    expect(kinds()).toEqual(['calls:phase-b']);
    expect(store.getFile('src/a.ts')?.phase).toBe('A');
    // Each phase may only send its own provenances, or it could never replace them.
    expect(() => store.replaceFile(analysis('src/a.ts', { nodes: [f], edges: [edge(f.vname, g.vname, 'calls', 'scip')] }))).toThrow(
      /Phase A analysis sent a scip edge/,
    );
    expect(codeOf(() => store.replaceFile(analysis('src/a.ts', { phase: 'B', edges: [edge(f.vname, g.vname, 'calls', 'phase-a')] })))).toBe(
      'STORE_INVALID_INPUT',
    );
    store.close();
  });

  it('removes a file: tombstones its nodes, drops its edges, refs and row; other files keep theirs', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    const g = def('src/b.ts', '#g');
    store.replaceFile(analysis('src/a.ts', { nodes: [f], edges: [edge(f.vname, g.vname)], refs: [ref(f.vname, 'g')] }));
    store.replaceFile(analysis('src/b.ts', { nodes: [g], edges: [edge(g.vname, f.vname)] }));
    store.resolveRefs();
    expect(store.counts()).toMatchObject({ files: 2, nodes: 2, edges: 3 });
    expect(store.removeFile('src/a.ts')).toEqual({ tombstoned: 1 });
    expect(store.getFile('src/a.ts')).toBeUndefined();
    expect(store.findNode(f.vname)?.tombstoned).toBe(true);
    const fId = store.findNode(f.vname)!.id;
    const gId = store.findNode(g.vname)!.id;
    expect(store.edgesFrom(fId)).toEqual([]); // its own edge and its derived edge are gone
    // b's plugin edge into a stays (hidden) until b is reanalyzed; dependentsOf says so.
    expect(store.edgesTo(fId)).toEqual([expect.objectContaining({ src: gId, derived: false, originPath: 'src/b.ts' })]);
    expect(store.dependentsOf(['src/a.ts'])).toEqual(['src/b.ts']);
    expect(exported(store)).toEqual({ nodes: [expect.objectContaining({ name: 'g' })], edges: [] });
    expect(store.counts()).toMatchObject({ files: 1, nodes: 1, refs: 0, tombstones: 1 });
    store.close();
  });

  it('records a skipped file and drops the graph of its older content', () => {
    const store = tempStore();
    store.replaceFile(analysis('assets/big.ts', { nodes: [def('assets/big.ts', '#x')] }));
    expect(store.markSkipped('assets/big.ts', 'sha-big', 'larger than 1 MiB')).toEqual({ tombstoned: 1 });
    expect(store.getFile('assets/big.ts')).toMatchObject({
      sha256: 'sha-big',
      status: 'skipped',
      reason: 'larger than 1 MiB',
      language: 'typescript',
      phase: null,
    });
    store.markSkipped('logo.png', 'sha-png', 'binary');
    expect(store.counts()).toMatchObject({
      files: 2,
      nodes: 0,
      byLanguage: { typescript: { files: 1, nodes: 0, failed: 0, skipped: 1 }, unknown: { files: 1, nodes: 0, failed: 0, skipped: 1 } },
    });
    store.close();
  });

  it('rolls a write that fails halfway back to the previous graph', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    const g = def('src/a.ts', '#g');
    store.replaceFile(analysis('src/a.ts', { sha256: 'v1', nodes: [f, g], edges: [edge(f.vname, g.vname)] }));
    const before = { graph: exported(store), file: store.getFile('src/a.ts'), counts: store.counts() };
    // Two nodes are written before the third (a NULL name) fails its NOT NULL constraint.
    const badNode = analysis('src/a.ts', {
      sha256: 'v2',
      nodes: [f, def('src/a.ts', '#h'), { ...def('src/a.ts', '#bad'), name: null as unknown as string }],
    });
    expect(() => store.replaceFile(badNode)).toThrow(
      /cannot store the analysis of src\/a\.ts: NOT NULL constraint failed: nodes\.name; nothing was written/,
    );
    expect(codeOf(() => store.replaceFile(badNode))).toBe('STORE_INVALID_INPUT');
    expect({ graph: exported(store), file: store.getFile('src/a.ts'), counts: store.counts() }).toEqual(before);
    // Nodes, placeholders and edges are written before the broken ref (a source VName without a corpus) fails.
    const broken = analysis('src/a.ts', {
      sha256: 'v2',
      nodes: [f, def('src/a.ts', '#h')],
      edges: [edge(f.vname, vn('src/c.ts', '#placeholder'))],
      refs: [{ src: { ...vn('src/a.ts', '#ghost'), corpus: null as unknown as string }, kind: 'calls', name: 'x' }],
    });
    expect(() => store.replaceFile(broken)).toThrow();
    expect({ graph: exported(store), file: store.getFile('src/a.ts'), counts: store.counts() }).toEqual(before);
    expect(store.findNode(vn('src/c.ts', '#placeholder'))).toBeUndefined();
    expect(store.searchSymbols('h')).toEqual([]);
    // Also inside a caller's batch transaction: the whole batch goes.
    expect(() =>
      store.transaction(() => {
        store.replaceFile(analysis('src/z.ts', { nodes: [def('src/z.ts', '#z')] }));
        store.replaceFile(broken);
      }),
    ).toThrow();
    expect(store.getFile('src/z.ts')).toBeUndefined();
    store.close();
  });

  it('stores many files in one commit; a file with bad input is rolled back alone and returned as its error', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    store.replaceFile(analysis('src/a.ts', { sha256: 'v1', nodes: [f] }));
    const before = store.getFile('src/a.ts');
    const results = store.replaceFiles([
      analysis('src/y.ts', { nodes: [def('src/y.ts', '#y')] }),
      analysis('src/a.ts', { sha256: 'v2', nodes: [f, { ...def('src/a.ts', '#bad'), name: null as unknown as string }] }),
      analysis('src/z.ts', { nodes: [def('src/z.ts', '#z')] }),
    ]);
    expect(results.map((r) => ('code' in r ? r.code : r.nodes))).toEqual([1, 'STORE_INVALID_INPUT', 1]);
    expect(store.getFile('src/a.ts')).toEqual(before);
    expect(store.listFiles().map((r) => r.path)).toEqual(['src/a.ts', 'src/y.ts', 'src/z.ts']);
    expect(store.searchSymbols('z').map((s) => s.node.name)).toEqual(['z']);
    store.close();
  });

  it('rejects input that breaks the store rules with a clear error and writes nothing', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    expect(() => store.replaceFile(analysis('', {}))).toThrow(/the path is empty/);
    expect(() => store.replaceFile(analysis('src/a.ts', { nodes: [{ ...f, kind: 'external' as 'function' }] }))).toThrow(
      /node kind external is not one of/,
    );
    expect(() => store.replaceFile(analysis('src/a.ts', { nodes: [f], edges: [{ ...edge(f.vname, f.vname), confidence: 2 }] }))).toThrow(
      /confidence 2 is not a number between 0 and 1/,
    );
    expect(store.counts().files).toBe(0);
    store.close();
  });

  it('refuses writes on a read-only store', () => {
    const store = tempStore();
    store.replaceFile(analysis('src/a.ts', { nodes: [def('src/a.ts', '#f')] }));
    store.close();
    expect(codeOf(() => store.counts())).toBe('STORE_CLOSED');
    const path = store.path;
    const reader = GraphStore.open(path, { readonly: true });
    expect(reader.counts().nodes).toBe(1);
    expect(codeOf(() => reader.replaceFile(analysis('src/b.ts')))).toBe('STORE_READONLY');
    expect(codeOf(() => reader.setMeta('k', 'v'))).toBe('STORE_READONLY');
    reader.close();
  });

  it('keeps meta values', () => {
    const store = tempStore();
    expect(store.getMeta('embedding_model')).toBeUndefined();
    store.setMeta('embedding_model', 'bge-small');
    store.setMeta('embedding_model', 'bge-base');
    expect(store.getMeta('embedding_model')).toBe('bge-base');
    expect(store.graphVersion()).toBe(0);
    store.close();
  });

  it('stores refs with their target name and range', () => {
    const store = tempStore();
    const f = def('src/a.ts', '#f');
    store.replaceFile(
      analysis('src/a.ts', {
        nodes: [f],
        refs: [{ ...ref(f.vname, 'os.path.join'), range: { startLine: 4, startCol: 8, endLine: 4, endCol: 20 } }],
      }),
    );
    const db = new Database(store.path, { readonly: true });
    expect(db.prepare('SELECT path, phase, kind, name, target_name, start_line, start_col, end_line, end_col FROM refs').all()).toEqual([
      {
        path: 'src/a.ts',
        phase: 'A',
        kind: 'calls',
        name: 'os.path.join',
        target_name: 'join',
        start_line: 4,
        start_col: 8,
        end_line: 4,
        end_col: 20,
      },
    ]);
    db.close();
    store.close();
  });
});
