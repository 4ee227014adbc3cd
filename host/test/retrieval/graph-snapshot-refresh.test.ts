import { afterEach, describe, expect, it } from 'vitest';
import { CodeGraph } from '../../src/retrieval/code-graph.js';
import { GraphChangeLog } from '../../src/retrieval/graph-change-log.js';
import { GraphSnapshot } from '../../src/retrieval/graph-snapshot.js';
import { GraphStore } from '../../src/store/graph-store.js';
import { analysis, def, edge, ref, tempDbPath, vn } from '../store/graph-fixtures.js';

const stores: GraphStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** Everything a query can see of a snapshot, in dense order. */
function view(s: GraphSnapshot) {
  const g = s.graph;
  return {
    version: s.graphVersion,
    ids: Array.from({ length: s.nodeCount }, (_, i) => s.storeIdOf(i)),
    names: [...s.names],
    qualifiedNames: [...s.qualifiedNames],
    corpora: [...s.corpora],
    acls: [...s.acls],
    paths: [...s.paths],
    kinds: [...s.kinds],
    lines: [...s.startLines, ...s.endLines],
    out: [...g.outOffsets, ...g.outTargets, ...g.outKinds, ...g.outConfidence],
    in: [...g.inOffsets, ...g.inSources, ...g.inKinds, ...g.inConfidence],
  };
}

/** A small deterministic random generator. */
function prng(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const FILES = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts'];
const NAMES = ['run', 'load', 'save', 'parse', 'emit'];

/** The names each file defines now (what {@link edit} re-analyzes with the same definitions). */
const defined = new Map<string, string[]>();

/** One random edit: a file analyzed anew (definitions, calls into other files, refs to match by name) or removed. */
function edit(store: GraphStore, rand: () => number): void {
  const path = FILES[Math.floor(rand() * FILES.length)]!;
  if (rand() < 0.15) {
    store.removeFile(path);
    defined.delete(path);
  } else {
    // Often the same definitions again (an edit inside them), sometimes with one more: the snapshot's cheap path.
    const before = defined.get(path) ?? [];
    const r = rand();
    const names =
      r < 0.25 && before.length > 0
        ? before
        : r < 0.4
          ? [...new Set([...before, NAMES[Math.floor(rand() * NAMES.length)]!])]
          : NAMES.filter(() => rand() < 0.6);
    defined.set(path, names);
    // Lines move between analyses, as an edit above a definition moves it.
    const nodes = names.map((n) => {
      const startLine = 1 + Math.floor(rand() * 50);
      return def(path, `${path}#${n}`, 'function', {
        range: { startLine, startCol: 0, endLine: startLine + Math.floor(rand() * 9), endCol: 1 },
      });
    });
    const edges = names.flatMap((n) => {
      const other = FILES[Math.floor(rand() * FILES.length)]!;
      return rand() < 0.5 ? [edge(vn(path, `${path}#${n}`), vn(other, `${other}#${NAMES[Math.floor(rand() * NAMES.length)]}`))] : [];
    });
    // The same call twice: the second insert is an upsert of the first (ON CONFLICT DO UPDATE).
    if (edges.length > 0 && rand() < 0.5) edges.push({ ...edges[0]!, confidence: 0.5 });
    const refs = names.filter(() => rand() < 0.5).map((n) => ref(vn(path, `${path}#${n}`), NAMES[Math.floor(rand() * NAMES.length)]!));
    store.replaceFile({ ...analysis(path, { nodes, edges, refs }), sha256: `sha-${rand()}` });
  }
  store.resolveRefs({ paths: [path], names: NAMES });
}

describe('GraphSnapshot.refresh', () => {
  it('patched with the paths the writer recorded, equals the snapshot loaded whole, edit after edit', () => {
    const db = tempDbPath('travsr-snapshot-refresh-');
    const writer = GraphStore.open(db);
    stores.push(writer);
    const rand = prng(7);
    for (let i = 0; i < 10; i++) edit(writer, rand);
    writer.trackGraphChanges();
    const reader = GraphStore.open(db, { readonly: true });
    stores.push(reader);
    const log = new GraphChangeLog();
    let snap = GraphSnapshot.load(reader);
    let patched = 0;
    for (let round = 0; round < 150; round++) {
      for (let k = Math.floor(rand() * 3); k >= 0; k--) edit(writer, rand);
      log.add(writer.takeGraphChanges()!);
      let asked = false;
      const next = GraphSnapshot.refresh(reader, snap, (a, b) => {
        asked = true;
        return log.between(a, b);
      });
      if (asked && next !== snap) patched++;
      expect(view(next)).toEqual(view(GraphSnapshot.load(reader)));
      snap = next;
    }
    expect(patched).toBeGreaterThan(125);
  });

  it('loads whole when another connection wrote: its changes were not recorded', () => {
    const db = tempDbPath('travsr-snapshot-refresh-');
    const writer = GraphStore.open(db);
    const other = GraphStore.open(db);
    stores.push(writer, other);
    const rand = prng(3);
    edit(writer, rand);
    writer.trackGraphChanges();
    const log = new GraphChangeLog();
    const snap = GraphSnapshot.load(writer);
    edit(writer, rand);
    edit(other, rand);
    edit(writer, rand);
    const changes = writer.takeGraphChanges()!;
    expect(changes.from).toBe(changes.to); // what is known starts now
    log.add(changes);
    let known: ReadonlySet<string> | undefined = new Set();
    const next = GraphSnapshot.refresh(writer, snap, (a, b) => (known = log.between(a, b)));
    expect(known).toBeUndefined();
    expect(view(next)).toEqual(view(GraphSnapshot.load(writer)));
  });
});

describe('GraphChangeLog', () => {
  it('knows the paths of contiguous reports, and starts again after a gap', () => {
    const log = new GraphChangeLog();
    log.add({
      from: 5,
      to: 8,
      changes: [
        [5, 'a'],
        [6, 'b'],
        [7, 'a'],
      ],
    });
    log.add({ from: 8, to: 10, changes: [[9, 'c']] });
    expect(log.between(5, 10)).toEqual(new Set(['a', 'b', 'c']));
    expect(log.between(6, 8)).toEqual(new Set(['b', 'a']));
    expect(log.between(8, 9)).toEqual(new Set());
    expect(log.between(4, 10)).toBeUndefined();
    expect(log.between(5, 11)).toBeUndefined();
    log.add({ from: 12, to: 13, changes: [[12, 'd']] });
    expect(log.between(9, 13)).toBeUndefined();
    expect(log.between(12, 13)).toEqual(new Set(['d']));
  });
});

describe('CodeGraph.pinned', () => {
  it('gives one snapshot for the whole call however the graph moves, and the current one after', () => {
    const db = tempDbPath('travsr-snapshot-pin-');
    const writer = GraphStore.open(db);
    const reader = GraphStore.open(db, { readonly: true });
    stores.push(writer, reader);
    const rand = prng(5);
    edit(writer, rand);
    const cg = new CodeGraph('/nowhere', reader, 'c');
    const [first, second] = cg.pinned(() => {
      const a = cg.snapshot();
      edit(writer, rand);
      return [a, cg.snapshot()];
    });
    expect(second).toBe(first);
    expect(cg.snapshot().graphVersion).toBe(writer.graphVersion());
    expect(cg.snapshot().graphVersion).toBeGreaterThan(first.graphVersion);
  });
});

describe('GraphStore.trackGraphChanges with a listener', () => {
  it('hands each committed write its changes, contiguous, once the outer transaction commits', () => {
    const writer = GraphStore.open(tempDbPath('travsr-snapshot-listen-'));
    stores.push(writer);
    const heard: { from: number; to: number; paths: string[] }[] = [];
    writer.trackGraphChanges((c) => heard.push({ from: c.from, to: c.to, paths: [...new Set(c.changes.map(([, p]) => p))] }));
    const rand = prng(11);
    edit(writer, rand);
    const before = heard.length;
    writer.transaction(() => {
      writer.replaceFile(analysis('x.ts', { nodes: [def('x.ts', 'x.ts#one')] }));
      writer.replaceFile(analysis('y.ts', { nodes: [def('y.ts', 'y.ts#two')] }));
      expect(heard.length).toBe(before); // nothing while the transaction is open
    });
    const last = heard[heard.length - 1]!;
    expect(last.paths).toEqual(expect.arrayContaining(['x.ts', 'y.ts']));
    for (let i = 1; i < heard.length; i++) expect(heard[i]!.from).toBe(heard[i - 1]!.to);
    expect(last.to).toBe(writer.graphVersion());
  });
});
