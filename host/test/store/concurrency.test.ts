import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { runChild, startChild } from './child-process.js';
import { analysis, def, exported, tempDbPath } from './graph-fixtures.js';

function fileOf(path: string, n: number) {
  return analysis(path, { nodes: Array.from({ length: n }, (_, i) => def(path, `#${path.replace(/\W/g, '_')}_${i}`)) });
}

describe('concurrent access (WAL)', () => {
  it('a read-only connection keeps one snapshot while another connection writes, then sees the new data', () => {
    const path = tempDbPath();
    const writer = GraphStore.open(path);
    writer.replaceFile(fileOf('src/a.ts', 3));
    const reader = GraphStore.open(path, { readonly: true });
    const seen = reader.snapshot(() => {
      const before = { counts: reader.counts(), graph: exported(reader) };
      writer.replaceFile(fileOf('src/b.ts', 5));
      writer.removeFile('src/a.ts');
      const during = { counts: reader.counts(), graph: exported(reader) };
      return { before, during };
    });
    expect(seen.during).toEqual(seen.before);
    expect(seen.before.counts.nodes).toBe(3);
    expect(reader.counts().nodes).toBe(5);
    expect(reader.listFiles().map((f) => f.path)).toEqual(['src/b.ts']);
    reader.close();
    writer.close();
  });

  it('an export iterated inside a snapshot stays consistent while the graph is rewritten between nodes and edges', () => {
    const path = tempDbPath();
    const writer = GraphStore.open(path);
    const a = def('src/a.ts', '#a');
    const b = def('src/b.ts', '#b');
    writer.replaceFile(
      analysis('src/a.ts', { nodes: [a], edges: [{ src: a.vname, dst: b.vname, kind: 'calls', provenance: 'phase-a', confidence: 1 }] }),
    );
    writer.replaceFile(analysis('src/b.ts', { nodes: [b] }));
    const reader = GraphStore.open(path, { readonly: true });
    const { nodes, edges } = reader.snapshot(() => {
      const g = reader.exportGraph();
      const ns = [...g.nodes];
      writer.removeFile('src/b.ts');
      writer.replaceFile(analysis('src/c.ts', { nodes: [def('src/c.ts', '#c')] }));
      return { nodes: ns, edges: [...g.edges] };
    });
    const ids = new Set(nodes.map((n) => n.id));
    expect(nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['a', 'b']));
    expect(nodes).toHaveLength(2);
    expect(edges).toHaveLength(1);
    expect(edges.every((e) => ids.has(e.src) && ids.has(e.dst))).toBe(true);
    reader.close();
    writer.close();
  });

  it('a reader in another process keeps its snapshot while this process writes', async () => {
    const path = tempDbPath();
    const writer = GraphStore.open(path);
    writer.replaceFile(fileOf('src/a.ts', 4));
    const { child, lines, done } = await startChild(['read', path]);
    expect((await lines.next()).value).toBe('4');
    writer.replaceFile(fileOf('src/b.ts', 6)); // while the child holds its read transaction
    child.stdin.write('go\n');
    expect((await lines.next()).value).toBe('4');
    expect((await lines.next()).value).toBe('10');
    expect(await done).toBe(0);
    writer.close();
  });

  it('a writer in another process does not disturb a snapshot here', async () => {
    const path = tempDbPath();
    const writer = GraphStore.open(path);
    writer.replaceFile(fileOf('src/a.ts', 2));
    const reader = GraphStore.open(path, { readonly: true });
    const snap = reader.beginSnapshot();
    expect(reader.counts().nodes).toBe(2);
    const { code, stdout } = await runChild(['write', path, 'src/child.ts', '50']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: ['done'] });
    expect(reader.counts().nodes).toBe(2);
    snap.end();
    expect(reader.counts().nodes).toBe(52);
    reader.close();
    writer.close();
  });
});
