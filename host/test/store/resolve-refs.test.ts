import { describe, expect, it } from 'vitest';
import { REPO_UNIQUE_CONFIDENCE, SAME_FILE_CONFIDENCE } from '../../src/store/ref-resolver.js';
import type { GraphStore } from '../../src/store/graph-store.js';
import { analysis, def, ref, tempStore, vn } from './graph-fixtures.js';
import type { VName } from '@travsr/protocol';

/** The derived edges leaving `src`, as `dst-path#dst-signature@confidence`. */
function derivedFrom(store: GraphStore, src: VName): string[] {
  const id = store.findNode(src)!.id;
  return store
    .edgesFrom(id)
    .filter((e) => e.derived)
    .map((e) => {
      const n = allNodes(store).find((x) => x.id === e.dst)!;
      return `${n.vname.path}${n.vname.signature}@${e.confidence}:${e.kind}:${e.provenance}`;
    })
    .sort();
}

/** Every node of an indexed file, tombstones included. */
function allNodes(store: GraphStore) {
  return store.listFiles().flatMap((f) => store.fileNodes(f.path, { includeTombstoned: true }));
}

describe('GraphStore.resolveRefs', () => {
  it('prefers a unique candidate in the same file (0.5), then a unique one in the repository (0.35)', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    store.replaceFile(
      analysis('src/main.ts', {
        nodes: [main, def('src/main.ts', '#parse')],
        refs: [ref(main.vname, 'parse'), ref(main.vname, 'util.format'), ref(main.vname, 'Config', 'types')],
      }),
    );
    store.replaceFile(
      analysis('src/util.ts', {
        nodes: [def('src/util.ts', '#parse'), def('src/util.ts', '#format'), def('src/util.ts', '#Config', 'class')],
      }),
    );
    expect(store.resolveRefs()).toEqual({ edges: 3, ambiguous: 0, unresolved: 0 });
    expect(derivedFrom(store, main.vname)).toEqual([
      `src/main.ts#parse@${SAME_FILE_CONFIDENCE}:calls:phase-a`,
      `src/util.ts#Config@${REPO_UNIQUE_CONFIDENCE}:types:phase-a`,
      `src/util.ts#format@${REPO_UNIQUE_CONFIDENCE}:calls:phase-a`,
    ]);
    store.close();
  });

  it('moves the graph version only when it wrote something', () => {
    // A daemon's catch-up at start resolves with nothing changed: answers and caches keyed by
    // the version must survive it.
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    store.replaceFile(analysis('src/main.ts', { nodes: [main], refs: [ref(main.vname, 'parse')] }));
    store.replaceFile(analysis('src/util.ts', { nodes: [def('src/util.ts', '#parse')] }));
    const v0 = store.graphVersion();
    expect(store.resolveRefs({ paths: [], names: [] })).toEqual({ edges: 0, ambiguous: 0, unresolved: 0 });
    expect(store.graphVersion()).toBe(v0);
    expect(store.resolveRefs({ paths: ['src/main.ts'], names: [] }).edges).toBe(1);
    expect(store.graphVersion()).toBe(v0 + 1);
    store.close();
  });

  it('makes no edge when the name is ambiguous or unknown, and never matches files, placeholders, tombstones or other languages', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    store.replaceFile(
      analysis('src/main.ts', {
        nodes: [main],
        refs: [
          ref(main.vname, 'join'),
          ref(main.vname, 'os.path.exists'),
          ref(main.vname, 'a.ts'),
          ref(main.vname, 'gone'),
          ref(main.vname, 'open'),
        ],
      }),
    );
    store.replaceFile(
      analysis('src/a.ts', { nodes: [def('src/a.ts', '#join'), def('src/a.ts', '', 'file', { name: 'a.ts' }), def('src/a.ts', '#gone')] }),
    );
    store.replaceFile(analysis('src/b.ts', { nodes: [def('src/b.ts', '#join')] }));
    store.replaceFile(analysis('src/a.ts', { nodes: [def('src/a.ts', '#join'), def('src/a.ts', '', 'file', { name: 'a.ts' })] })); // gone is tombstoned
    // A Python definition named `open` must not catch a TypeScript call.
    store.replaceFile(
      analysis('lib/io.py', { language: 'python', nodes: [{ vname: vn('lib/io.py', '#open', 'python'), kind: 'function', name: 'open' }] }),
    );
    expect(store.resolveRefs()).toEqual({ edges: 0, ambiguous: 1, unresolved: 4 });
    expect(derivedFrom(store, main.vname)).toEqual([]);
    store.close();
  });

  it('treats two candidates in the same file as ambiguous rather than falling back to the repository', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    store.replaceFile(
      analysis('src/main.ts', {
        nodes: [main, def('src/main.ts', '#A.run', 'method'), def('src/main.ts', '#B.run', 'method')],
        refs: [ref(main.vname, 'x.run')],
      }),
    );
    expect(store.resolveRefs()).toEqual({ edges: 0, ambiguous: 1, unresolved: 0 });
    store.close();
  });

  it('re-resolves only the scope, and follows a definition that moves or disappears', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    const other = def('src/other.ts', '#other');
    store.replaceFile(analysis('src/main.ts', { nodes: [main], refs: [ref(main.vname, 'helper'), ref(main.vname, 'format')] }));
    store.replaceFile(analysis('src/other.ts', { nodes: [other], refs: [ref(other.vname, 'helper')] }));
    store.replaceFile(analysis('src/b.ts', { nodes: [def('src/b.ts', '#helper')] }));
    store.replaceFile(analysis('src/fmt.ts', { nodes: [def('src/fmt.ts', '#format')] }));
    expect(store.resolveRefs()).toEqual({ edges: 3, ambiguous: 0, unresolved: 0 });
    expect(derivedFrom(store, main.vname)).toEqual([`src/b.ts#helper@0.35:calls:phase-a`, `src/fmt.ts#format@0.35:calls:phase-a`]);

    // helper moves from b.ts to c.ts: the indexer's incremental protocol.
    const changed = ['src/b.ts', 'src/c.ts'];
    const before = store.definedNames(changed);
    store.replaceFile(analysis('src/b.ts', { nodes: [] }));
    store.replaceFile(analysis('src/c.ts', { nodes: [def('src/c.ts', '#helper')] }));
    const names = [...new Set([...before, ...store.definedNames(changed)])];
    expect(names).toEqual(['helper']);
    // Only the two helper refs are matched again; main's ref to format keeps its match.
    expect(store.resolveRefs({ paths: changed, names })).toEqual({ edges: 2, ambiguous: 0, unresolved: 0 });
    expect(derivedFrom(store, main.vname)).toEqual([`src/c.ts#helper@0.35:calls:phase-a`, `src/fmt.ts#format@0.35:calls:phase-a`]);
    expect(derivedFrom(store, other.vname)).toEqual([`src/c.ts#helper@0.35:calls:phase-a`]);

    // A second helper appears: no edge is better than a wrong one.
    store.replaceFile(analysis('src/d.ts', { nodes: [def('src/d.ts', '#helper')] }));
    expect(store.resolveRefs({ paths: ['src/d.ts'], names: store.definedNames(['src/d.ts']) })).toEqual({
      edges: 0,
      ambiguous: 2,
      unresolved: 0,
    });
    expect(derivedFrom(store, main.vname)).toEqual([`src/fmt.ts#format@0.35:calls:phase-a`]);

    // Both disappear: unresolved.
    const gone = ['src/c.ts', 'src/d.ts'];
    const goneNames = store.definedNames(gone);
    store.removeFile('src/c.ts');
    store.removeFile('src/d.ts');
    expect(store.resolveRefs({ paths: gone, names: goneNames })).toEqual({ edges: 0, ambiguous: 0, unresolved: 2 });
    expect(derivedFrom(store, other.vname)).toEqual([]);

    // A scope that touches nothing changes nothing.
    expect(store.resolveRefs({ paths: ['src/none.ts'], names: ['nothing'] })).toEqual({ edges: 0, ambiguous: 0, unresolved: 0 });
    expect(derivedFrom(store, main.vname)).toEqual([`src/fmt.ts#format@0.35:calls:phase-a`]);
    store.close();
  });

  it('drops derived edges into a node as soon as it is tombstoned, and the file’s own when its refs change', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    store.replaceFile(analysis('src/main.ts', { nodes: [main], refs: [ref(main.vname, 'helper')] }));
    store.replaceFile(analysis('src/b.ts', { nodes: [def('src/b.ts', '#helper')] }));
    store.resolveRefs();
    expect(derivedFrom(store, main.vname)).toHaveLength(1);
    store.replaceFile(analysis('src/b.ts', { nodes: [] }));
    expect(derivedFrom(store, main.vname)).toEqual([]);
    store.replaceFile(analysis('src/b.ts', { nodes: [def('src/b.ts', '#helper')] }));
    store.resolveRefs({ names: ['helper'] });
    expect(derivedFrom(store, main.vname)).toHaveLength(1);
    // Phase B of main (no refs) leaves its name matches alone; Phase A with refs drops them until resolved again.
    store.replaceFile(analysis('src/main.ts', { phase: 'B', nodes: [] }));
    expect(derivedFrom(store, main.vname)).toHaveLength(1);
    store.replaceFile(analysis('src/main.ts', { nodes: [main], refs: [ref(main.vname, 'helper')] }));
    expect(derivedFrom(store, main.vname)).toEqual([]);
    expect(store.referrersOf(['helper'])).toEqual(['src/main.ts']);
    store.close();
  });

  it('does not name-match the Phase A refs of a file whose Phase B graph is stored, full or scoped', () => {
    const store = tempStore();
    const main = def('src/main.ts', '#main');
    store.replaceFile(analysis('src/main.ts', { nodes: [main], refs: [ref(main.vname, 'format')] }));
    store.replaceFile(analysis('src/util.ts', { nodes: [def('src/util.ts', '#format')] }));
    store.resolveRefs();
    expect(derivedFrom(store, main.vname)).toEqual(['src/util.ts#format@0.35:calls:phase-a']);
    // The compiler's pass stores its own graph of src/main.ts: the name guess goes.
    store.replaceFile(analysis('src/main.ts', { phase: 'B', plugin: 'lang-typescript@0.1.0', nodes: [main] }));
    store.resolveRefs({ paths: ['src/main.ts'] });
    expect(derivedFrom(store, main.vname)).toEqual([]);
    store.resolveRefs();
    expect(derivedFrom(store, main.vname)).toEqual([]);
    // Reanalyzed at Phase A only (say Phase B is off or failed): matched again.
    store.replaceFile(analysis('src/main.ts', { sha256: 'v2', nodes: [main], refs: [ref(main.vname, 'format')] }));
    store.resolveRefs({ paths: ['src/main.ts'] });
    expect(derivedFrom(store, main.vname)).toEqual(['src/util.ts#format@0.35:calls:phase-a']);
    store.close();
  });
  it('re-resolves, for a changed name, the refs that can be matched, not those of files with their Phase B graph', () => {
    const store = tempStore();
    const a = def('src/a.ts', '#a');
    const b = def('src/b.ts', '#b');
    store.replaceFile(analysis('src/a.ts', { nodes: [a], refs: [ref(a.vname, 'format')] }));
    store.replaceFile(analysis('src/b.ts', { nodes: [b], refs: [ref(b.vname, 'format')] }));
    store.replaceFile(analysis('src/b.ts', { phase: 'B', plugin: 'lang-typescript@0.1.0', nodes: [b] }));
    store.replaceFile(analysis('src/util.ts', { nodes: [def('src/util.ts', '#format')] }));
    expect(store.resolveRefs()).toEqual({ edges: 1, ambiguous: 0, unresolved: 0 });
    expect(derivedFrom(store, a.vname)).toEqual(['src/util.ts#format@0.35:calls:phase-a']);
    // A second `format` appears: only src/a.ts's ref is looked at again (now ambiguous: no edge).
    store.replaceFile(analysis('src/other.ts', { nodes: [def('src/other.ts', '#format')] }));
    expect(store.resolveRefs({ paths: ['src/other.ts'], names: ['format'] })).toEqual({ edges: 0, ambiguous: 1, unresolved: 0 });
    expect(derivedFrom(store, a.vname)).toEqual([]);
    expect(derivedFrom(store, b.vname)).toEqual([]);
    store.close();
  });
});
