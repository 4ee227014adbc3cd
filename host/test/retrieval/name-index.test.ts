// definitionsNamed answers from the snapshot what the store's nodesNamed answers with SQL.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodeGraph } from '../../src/retrieval/code-graph.js';
import { definitionsNamed } from '../../src/retrieval/name-index.js';
import { analysis, CORPUS, def, tempDbPath } from '../store/graph-fixtures.js';
import { GraphStore } from '../../src/store/graph-store.js';

const at = (startLine: number) => ({ range: { startLine, startCol: 0, endLine: startLine + 1, endCol: 1 } });
const path = tempDbPath('travsr-name-index-');
const store = GraphStore.open(path);
// `run` in three files (twice in one), `Job.run` qualified so, a file named like a definition.
store.replaceFile(
  analysis('src/jobs/b.ts', {
    nodes: [def('src/jobs/b.ts', '#run2', 'function', { name: 'run', ...at(9) }), def('src/jobs/b.ts', '#run', 'function', at(1))],
  }),
);
store.replaceFile(analysis('src/jobs/a.ts', { nodes: [def('src/jobs/a.ts', '#run', 'function', at(4))] }));
store.replaceFile(
  analysis('src/z.ts', {
    nodes: [
      def('src/z.ts', '#Job.run', 'method', { qualifiedName: 'run', ...at(2) }),
      def('src/z.ts', '#Job', 'class', { qualifiedName: 'Job', ...at(1) }),
    ],
  }),
);
store.replaceFile(analysis('src/run', { nodes: [{ ...def('src/run', ''), kind: 'file', name: 'run' }] }));
const cg = new CodeGraph(dirname(dirname(path)), store, CORPUS);
afterAll(() => {
  store.close();
  rmSync(dirname(path), { recursive: true, force: true });
});

describe('definitionsNamed', () => {
  it('finds what the store finds, in its order (qualified match first, then path and line), files left out', () => {
    const snap = cg.snapshot();
    for (const name of ['run', 'Job', 'src/run', 'nothing'])
      for (const limit of [1, 2, 3, 12]) {
        const fromStore = store.nodesNamed(name, limit).map((r) => snap.denseOf(r.id));
        expect(definitionsNamed(snap, name, limit), `${name}, limit ${limit}`).toEqual(fromStore);
      }
    expect(definitionsNamed(snap, 'run', 12).map((d) => `${snap.paths[d]}:${snap.startLines[d]}`)).toEqual([
      'src/z.ts:2',
      'src/jobs/a.ts:4',
      'src/jobs/b.ts:1',
      'src/jobs/b.ts:9',
    ]);
  });
});
