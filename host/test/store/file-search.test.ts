import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { analysis, def, tempDbPath, tempStore } from './graph-fixtures.js';

describe('file text search (file_fts)', () => {
  it('ranks files by BM25 over their content and path, split like identifiers', () => {
    const store = tempStore();
    store.replaceFile(
      analysis('src/http/redirects.py', { text: 'def resolve_redirects(resp):\n    """Follow HTTP redirects."""\n    return resp' }),
    );
    store.replaceFile(analysis('src/cookies.py', { text: 'def merge_cookies(jar, cookies):\n    return jar' }));
    store.replaceFile(analysis('src/util.py', { text: 'def to_native_string(s):\n    return s' }));
    expect(store.searchFiles('resolveRedirects is broken').map((h) => h.path)).toEqual(['src/http/redirects.py']);
    expect(store.searchFiles('cookie jar merge')[0]!.path).toBe('src/cookies.py');
    // A word in the path counts: "util" is only in src/util.py's path.
    expect(store.searchFiles('util')[0]!.path).toBe('src/util.py');
    expect(store.searchFiles('')).toEqual([]);
    expect(store.searchFiles('nothing matches this')).toEqual([]);
    store.close();
  });

  it('counts the documents again after a write, of this connection or another (a term in most files ranks nothing)', () => {
    const db = tempDbPath();
    const writer = GraphStore.open(db);
    const reader = GraphStore.open(db, { readonly: true });
    for (let i = 0; i < 8; i++) writer.replaceFile(analysis(`f${i}.py`, { text: i < 5 ? 'common word' : 'other' }));
    // 5 of 8 files: more than half, dropped.
    expect(reader.searchFiles('common')).toEqual([]);
    expect(writer.searchFiles('common')).toEqual([]);
    for (let i = 8; i < 12; i++) writer.replaceFile(analysis(`f${i}.py`, { text: 'other' }));
    // 5 of 12: kept, for the reader (another connection wrote) and the writer (its own writes).
    expect(reader.searchFiles('common')).toHaveLength(5);
    expect(writer.searchFiles('common')).toHaveLength(5);
    reader.close();
    writer.close();
  });

  it('answers from the words it looked up before only while the text index is unchanged, whoever wrote', () => {
    const db = tempDbPath();
    const writer = GraphStore.open(db);
    const reader = GraphStore.open(db, { readonly: true });
    for (let i = 0; i < 6; i++) writer.replaceFile(analysis(`f${i}.py`, { text: `def f${i}(): pass` }));
    writer.replaceFile(analysis('a.py', { text: 'def alpha(beta): return beta' }));
    writer.replaceFile(analysis('b.py', { text: 'def gamma(delta): return delta' }));
    expect(reader.searchFiles('alpha').map((h) => h.path)).toEqual(['a.py']);
    expect(reader.searchFiles('gamma').map((h) => h.path)).toEqual(['b.py']);
    expect(reader.searchDefinitions('alpha')).toHaveLength(0); // no definitions sent: the text only
    // A rename keeps every count the index holds (rows, tokens): only the text version tells.
    writer.replaceFile(analysis('a.py', { sha256: 'v2', text: 'def gamma(beta): return beta' }));
    expect(reader.searchFiles('alpha')).toEqual([]);
    expect(
      reader
        .searchFiles('gamma')
        .map((h) => h.path)
        .sort(),
    ).toEqual(['a.py', 'b.py']);
    expect(writer.searchFiles('alpha')).toEqual([]);
    expect(writer.searchFiles('gamma beta')[0]!.path).toBe('a.py');
    reader.close();
    writer.close();
  });

  it('follows the file: reindexed text replaces the old, a removed or skipped file leaves the index', () => {
    const store = tempStore();
    store.replaceFile(analysis('a.py', { text: 'alpha beta' }));
    store.replaceFile(analysis('b.py', { text: 'gamma' }));
    store.replaceFile(analysis('a.py', { sha256: 'v2', text: 'delta' }));
    expect(store.searchFiles('alpha')).toEqual([]);
    expect(store.searchFiles('delta').map((h) => h.path)).toEqual(['a.py']);
    // Phase B sends no text: the index keeps what Phase A wrote.
    store.replaceFile(analysis('a.py', { sha256: 'v2', phase: 'B' }));
    expect(store.searchFiles('delta').map((h) => h.path)).toEqual(['a.py']);
    store.removeFile('a.py');
    expect(store.searchFiles('delta')).toEqual([]);
    store.markSkipped('b.py', 'sha', 'binary');
    expect(store.searchFiles('gamma')).toEqual([]);
    store.close();
  });

  it('indexes each definition by its own lines: a class without its methods', () => {
    const store = tempStore();
    const text = [
      'class Session:',
      '    """Keeps cookies between requests."""',
      '    def resolve_redirects(self):',
      '        follow location header',
      '        return hops',
      '',
    ].join('\n');
    const cls = def('s.py', '#Session', 'class', { range: { startLine: 1, startCol: 0, endLine: 5, endCol: 0 } });
    const method = def('s.py', '#Session.resolve_redirects', 'method', { range: { startLine: 3, startCol: 4, endLine: 5, endCol: 0 } });
    store.replaceFile(analysis('s.py', { nodes: [cls, method], text }));
    const idOf = (sig: string) => store.fileNodes('s.py').find((n) => n.vname.signature === sig)!.id;
    expect(store.searchDefinitions('location header').map((h) => h.id)).toEqual([idOf('#Session.resolve_redirects')]);
    expect(store.searchDefinitions('cookies').map((h) => h.id)).toEqual([idOf('#Session')]);
    // Reanalyzed without the method: its text leaves the index.
    store.replaceFile(analysis('s.py', { sha256: 'v2', nodes: [cls], text: 'class Session:\n    pass\n' }));
    expect(store.searchDefinitions('location header')).toEqual([]);
    store.removeFile('s.py');
    expect(store.searchDefinitions('session')).toEqual([]);
    store.close();
  });

  it('finds the definitions holding a token run verbatim, and scores every matching one unsorted', () => {
    const store = tempStore();
    const text = [
      'def similar(lines):',
      '    if config.min_similarity_lines == 0:',
      '        return []',
      'def report(lines):',
      '    """Lines that are similar: min lines in a report."""',
      '    return lines',
      '',
    ].join('\n');
    const similar = def('sim.py', '#similar', 'function', { range: { startLine: 1, startCol: 0, endLine: 3, endCol: 0 } });
    const report = def('sim.py', '#report', 'function', { range: { startLine: 4, startCol: 0, endLine: 6, endCol: 0 } });
    store.replaceFile(analysis('sim.py', { nodes: [similar, report], text }));
    const idOf = (sig: string) => store.fileNodes('sim.py').find((n) => n.vname.signature === sig)!.id;
    // `min_similarity_lines` as its tokens, in order: only where it is written so.
    expect(store.definitionsWithPhrase(['min', 'similarity', 'lines'])).toEqual([idOf('#similar')]);
    expect(store.definitionsWithPhrase(['lines', 'min'])).toEqual([]);
    expect(store.definitionsWithPhrase([])).toEqual([]);
    const both = [idOf('#similar'), idOf('#report')].sort((a, b) => a - b);
    expect(store.definitionsWithPhrase(['lines'], 1)).toEqual([both[0]]);
    // The same scores searchDefinitions ranks by, for every match.
    const scores = store.definitionScores('similar lines report');
    expect([...scores.keys()].sort((a, b) => a - b)).toEqual(both);
    for (const h of store.searchDefinitions('similar lines report')) expect(scores.get(h.id)).toBeCloseTo(h.score, 12);
    expect(store.definitionScores('').size).toBe(0);
    store.close();
  });

  it('leaves out of a definition the lines of every definition nested in it, at any depth and from the same line', () => {
    const store = tempStore();
    const text = ['module Outer', '  alpha', '  class Inner', '    beta', '    def deep', '      gamma', '  delta', 'end'].join('\n');
    const range = (startLine: number, endLine: number) => ({ range: { startLine, startCol: 0, endLine, endCol: 0 } });
    store.replaceFile(
      analysis('o.rb', {
        nodes: [
          def('o.rb', '#Outer', 'class', range(1, 8)),
          def('o.rb', '#Outer.Inner', 'class', range(3, 6)),
          def('o.rb', '#Outer.Inner.deep', 'method', range(5, 6)),
          // Starts on the same line as its parent and ends earlier: nested too.
          def('o.rb', '#Outer.head', 'function', range(1, 2)),
          // The same range as Inner: neither is nested in the other.
          def('o.rb', '#Outer.InnerAlias', 'class', range(3, 6)),
        ],
        text,
      }),
    );
    const sigOf = (id: number) => store.fileNodes('o.rb').find((n) => n.id === id)!.vname.signature;
    const hits = (q: string) =>
      store
        .searchDefinitions(q)
        .map((h) => sigOf(h.id))
        .sort();
    expect(hits('alpha')).toEqual(['#Outer.head']);
    expect(hits('beta')).toEqual(['#Outer.Inner', '#Outer.InnerAlias']);
    expect(hits('gamma')).toEqual(['#Outer.Inner.deep']);
    expect(hits('delta')).toEqual(['#Outer']);
    store.close();
  });

  it('indexes text after the graph, for analyzed files only, and says which files still lack it', () => {
    const store = tempStore();
    const text = 'def checkout(cart):\n    return apply_discount(cart)\n';
    store.replaceFile(
      analysis('cart.py', {
        nodes: [def('cart.py', '#checkout', 'function', { range: { startLine: 1, startCol: 0, endLine: 2, endCol: 0 } })],
      }),
    );
    store.replaceFile(analysis('gone.py', { status: 'failed', diagnostics: [{ severity: 'error', code: 'X', message: 'boom' }] }));
    expect(store.filesWithoutText()).toEqual(['cart.py']);
    expect(
      store.indexFileTexts([
        { path: 'cart.py', text },
        { path: 'gone.py', text: 'x' },
        { path: 'never.py', text: 'y' },
      ]),
    ).toBe(1);
    expect(store.filesWithoutText()).toEqual([]);
    expect(store.searchFiles('apply discount').map((h) => h.path)).toEqual(['cart.py']);
    expect(store.searchDefinitions('apply discount')).toHaveLength(1);
    store.close();
  });
});
