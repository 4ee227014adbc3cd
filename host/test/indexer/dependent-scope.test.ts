import { describe, expect, it } from 'vitest';
import { DependentScope } from '../../src/indexer/dependent-scope.js';
import type { GraphStore } from '../../src/store/graph-store.js';
import type { FileRow } from '../../src/store/types.js';
import { analysis, def, edge, ref, tempStore, vn } from '../store/graph-fixtures.js';

// Which dependents a change reaches (protocol SPEC §9.11), against a real store: lib.ts defines
// parse and format; uses-parse.ts has a Phase B edge into parse; names-format.ts only names
// format in a ref (its call did not resolve); other.ts depends on lib.ts through `helper`.

const LABEL = 'lang-typescript@0.1.0';
const BEFORE = { parse: 'p1', format: 'f1', helper: 'h1', '': 'm1' };

function setup(): GraphStore {
  const store = tempStore();
  store.replaceFile(
    analysis('lib.ts', { nodes: [def('lib.ts', '#parse'), def('lib.ts', '#format'), def('lib.ts', '#helper')], interface: BEFORE }),
  );
  store.replaceFile(analysis('uses-parse.ts', { nodes: [def('uses-parse.ts', '#main')] }));
  store.replaceFile(
    analysis('uses-parse.ts', {
      phase: 'B',
      edges: [edge(vn('uses-parse.ts', '#main'), vn('lib.ts', '#parse'), 'calls', 'phase-b')],
    }),
  );
  store.replaceFile(
    analysis('names-format.ts', {
      nodes: [def('names-format.ts', '#show')],
      refs: [ref(vn('names-format.ts', '#show'), 'lib.format')],
    }),
  );
  store.replaceFile(
    analysis('names-format.ts', {
      phase: 'B',
      edges: [edge(vn('names-format.ts', '#show'), vn('lib.ts', '#helper'), 'calls', 'phase-b')],
    }),
  );
  return store;
}

function scope(store: GraphStore, opts: { label?: string } = {}): DependentScope {
  const stored = new Map(store.listFiles().map((f): [string, FileRow] => [f.path, { ...f, plugin: opts.label ?? LABEL }]));
  return new DependentScope(
    store,
    { stored, causes: store.dependentsWithCauses(['lib.ts']), interfacesBefore: store.interfacesOf(['lib.ts']) },
    LABEL,
  );
}

describe('DependentScope', () => {
  it('finds each dependent with the changing files it points into', () => {
    const store = setup();
    expect([...store.dependentsWithCauses(['lib.ts'])]).toEqual([
      ['names-format.ts', ['lib.ts']],
      ['uses-parse.ts', ['lib.ts']],
    ]);
    expect(store.interfacesOf(['lib.ts', 'uses-parse.ts'])).toEqual(new Map([['lib.ts', BEFORE]]));
  });

  it('an unchanged interface reaches no dependent', () => {
    const s = scope(setup());
    s.record('lib.ts', { ...BEFORE });
    expect(s.changeOf('lib.ts')).toEqual({ names: new Set() });
    expect(s.affected('uses-parse.ts')).toBe(false);
    expect(s.affected('names-format.ts')).toBe(false);
  });

  it('a new name reaches no dependent that does not name it', () => {
    const s = scope(setup());
    s.record('lib.ts', { ...BEFORE, added: 'a1' });
    expect(s.affected('uses-parse.ts')).toBe(false);
    expect(s.affected('names-format.ts')).toBe(false);
  });

  it('a changed name reaches the dependents with an edge into it or a ref naming it, by last segment', () => {
    const s = scope(setup());
    s.record('lib.ts', { ...BEFORE, parse: 'p2' });
    expect(s.affected('uses-parse.ts')).toBe(true);
    expect(s.affected('names-format.ts')).toBe(false);

    const t = scope(setup());
    t.record('lib.ts', { ...BEFORE, 'Formatter.format': 'x' }); // a member whose last segment is format
    expect(t.changeOf('lib.ts')).toEqual({ names: new Set(['format']) });
    expect(t.affected('names-format.ts')).toBe(true);
    expect(t.affected('uses-parse.ts')).toBe(false);
  });

  it('a removed name reaches the dependents whose edges point at it', () => {
    const s = scope(setup());
    s.record('lib.ts', Object.fromEntries(Object.entries(BEFORE).filter(([k]) => k !== 'parse')));
    expect(s.affected('uses-parse.ts')).toBe(true);
  });

  it('reaches every dependent when the change cannot be told', () => {
    const whole = scope(setup());
    whole.record('lib.ts', { ...BEFORE, '': 'm2' }); // the file as a whole changed (star exports, __all__)
    expect(whole.changeOf('lib.ts')).toBe('anything');
    expect(whole.affected('names-format.ts')).toBe(true);

    const none = scope(setup());
    none.record('lib.ts', undefined); // this analysis sent no interface
    expect(none.affected('uses-parse.ts')).toBe(true);

    const store = setup(); // no interface stored before
    const bare = new DependentScope(
      store,
      {
        stored: new Map(store.listFiles().map((f) => [f.path, f])),
        causes: store.dependentsWithCauses(['lib.ts']),
        interfacesBefore: new Map(),
      },
      LABEL,
    );
    bare.record('lib.ts', { ...BEFORE });
    expect(bare.affected('uses-parse.ts')).toBe(true);

    const otherVersion = scope(setup(), { label: 'lang-typescript@0.0.9' });
    otherVersion.record('lib.ts', { ...BEFORE });
    expect(otherVersion.affected('uses-parse.ts')).toBe(true);

    const notAnalyzed = scope(setup()); // lib.ts removed, failed, or served by another plugin: never recorded
    expect(notAnalyzed.affected('uses-parse.ts')).toBe(true);
  });

  it('the store keeps the interface of the last phase that sent one; a Phase A without one clears it', () => {
    const store = setup();
    store.replaceFile(analysis('lib.ts', { phase: 'B', interface: { parse: 'p9' } }));
    expect(store.interfacesOf(['lib.ts']).get('lib.ts')).toEqual({ parse: 'p9' });
    store.replaceFile(analysis('lib.ts', { phase: 'B' }));
    expect(store.interfacesOf(['lib.ts']).get('lib.ts')).toEqual({ parse: 'p9' });
    store.replaceFile(analysis('lib.ts', { nodes: [def('lib.ts', '#parse')] }));
    expect(store.interfacesOf(['lib.ts']).has('lib.ts')).toBe(false);
  });
});
