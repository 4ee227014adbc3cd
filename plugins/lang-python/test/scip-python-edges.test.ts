import type { Node, NodeKind, VName } from '@travsr/protocol';
import { decodeScipIndex } from '@travsr/sdk/scip';
import { encodeScipIndex, type ScipDocumentSpec } from '@travsr/sdk/testing';
import { describe, expect, it } from 'vitest';
import type { DefinitionAt, PythonFileFacts } from '../src/scip/facts.js';
import { callEdges, ScipPythonIndex } from '../src/scip/scip-python-edges.js';

// An index as scip-python 0.6.6 writes it (symbols, roles, relationships and positions copied
// from its output on the same sources; position_encoding unset, characters in UTF-16 units):
//
// shop/ledger.py                          main.py
// 3  class Base:                          0  from shop import Ledger
// 4      def post(self, amount): ...      1  import os
// 8  class Ledger(Base):                  3  def run(pay):
// 9      def add(self, amount):           4      l = Ledger()
// 10         s = "é😀"; self.post(amount) 5      l.add(3)
// 11         return helper(amount)        6      os.path.join("a", "b")
// 12     def post(self, amount): ...
// 13 def helper(x): ...                   7      pay()
// 15 class Error(OSError): ...            8      undefined_thing()
//                                         9      l.add(4)
//                                         10 run(print)
const P = 'scip-python python repository local ';
const sym = (s: string) => P + s;
const STDLIB = 'scip-python python python-stdlib 3.11 ';

const documents: ScipDocumentSpec[] = [
  {
    path: 'shop/ledger.py',
    language: 'python',
    positionEncoding: 0,
    occurrences: [
      { range: [0, 0, 0], symbol: sym('`shop.ledger`/__init__:'), definition: true },
      { range: [3, 6, 10], symbol: sym('`shop.ledger`/Base#'), definition: true },
      { range: [4, 8, 12], symbol: sym('`shop.ledger`/Base#post().'), definition: true },
      { range: [8, 6, 12], symbol: sym('`shop.ledger`/Ledger#'), definition: true },
      { range: [8, 13, 17], symbol: sym('`shop.ledger`/Base#') },
      { range: [9, 8, 11], symbol: sym('`shop.ledger`/Ledger#add().'), definition: true },
      { range: [12, 8, 12], symbol: sym('`shop.ledger`/Ledger#post().'), definition: true },
      { range: [10, 8, 9], symbol: 'local 0', definition: true },
      // After "é😀" (3 UTF-16 units): self at 19, post at 24.
      { range: [10, 19, 23], symbol: sym('`shop.ledger`/Ledger#add().(self)') },
      { range: [10, 24, 28], symbol: sym('`shop.ledger`/Base#post().') },
      { range: [11, 15, 21], symbol: sym('`shop.ledger`/helper().') },
      { range: [13, 4, 10], symbol: sym('`shop.ledger`/helper().'), definition: true },
      { range: [15, 6, 11], symbol: sym('`shop.ledger`/Error#'), definition: true },
      { range: [15, 12, 19], symbol: STDLIB + 'builtins/OSError#' },
    ],
    symbols: [
      { symbol: sym('`shop.ledger`/Ledger#'), implements: [sym('`shop.ledger`/Base#')] },
      { symbol: sym('`shop.ledger`/Ledger#post().'), implements: [sym('`shop.ledger`/Base#post().')] },
      { symbol: sym('`shop.ledger`/Ledger#add().'), implements: [STDLIB + 'abc/Adder#add().'] },
      { symbol: sym('`shop.ledger`/Error#'), implements: [STDLIB + 'builtins/OSError#'] },
    ],
  },
  {
    path: 'main.py',
    language: 'python',
    positionEncoding: 0,
    occurrences: [
      { range: [0, 0, 0], symbol: sym('main/__init__:'), definition: true },
      { range: [0, 17, 23], symbol: sym('`shop.ledger`/Ledger#') },
      { range: [1, 7, 9], symbol: STDLIB + 'os/__init__:' },
      { range: [3, 4, 7], symbol: sym('main/run().'), definition: true },
      { range: [3, 8, 11], symbol: sym('main/run().(pay)'), definition: true },
      { range: [4, 4, 5], symbol: 'local 0', definition: true },
      { range: [4, 8, 14], symbol: sym('`shop.ledger`/Ledger#') },
      { range: [5, 4, 5], symbol: 'local 0' },
      { range: [5, 6, 9], symbol: sym('`shop.ledger`/Ledger#add().') },
      { range: [6, 4, 6], symbol: STDLIB + 'os/__init__:' },
      { range: [6, 7, 11], symbol: STDLIB + 'os/path.' },
      { range: [6, 12, 16], symbol: STDLIB + 'ntpath/join().' },
      { range: [7, 4, 7], symbol: sym('main/run().(pay)') },
      { range: [9, 6, 9], symbol: sym('`shop.ledger`/Ledger#add().') },
      { range: [10, 0, 3], symbol: sym('main/run().') },
      { range: [10, 4, 9], symbol: STDLIB + 'builtins/print().' },
    ],
  },
];

const index = new ScipPythonIndex(
  decodeScipIndex(encodeScipIndex({ projectRoot: 'file:///repo', toolName: 'scip-python', toolVersion: '0.6.6', documents })),
  '/repo',
);

const vname = (path: string, signature: string): VName => ({ corpus: 'c', root: '', path, language: 'python', signature });
const node = (path: string, kind: NodeKind, name: string, signature = name): Node => ({ vname: vname(path, signature), kind, name });

// The native analyzer's nodes: name positions 1-based lines, UTF-16 columns.
const defs: Record<string, { node: Node; nameLine: number; nameCol: number }[]> = {
  'shop/ledger.py': [
    { node: node('shop/ledger.py', 'class', 'Base'), nameLine: 4, nameCol: 6 },
    { node: node('shop/ledger.py', 'method', 'post', 'Base.post'), nameLine: 5, nameCol: 8 },
    { node: node('shop/ledger.py', 'class', 'Ledger'), nameLine: 9, nameCol: 6 },
    { node: node('shop/ledger.py', 'method', 'add', 'Ledger.add'), nameLine: 10, nameCol: 8 },
    { node: node('shop/ledger.py', 'method', 'post', 'Ledger.post'), nameLine: 13, nameCol: 8 },
    { node: node('shop/ledger.py', 'function', 'helper'), nameLine: 14, nameCol: 4 },
    { node: node('shop/ledger.py', 'class', 'Error'), nameLine: 16, nameCol: 6 },
  ],
  'main.py': [{ node: node('main.py', 'function', 'run'), nameLine: 4, nameCol: 4 }],
};
const definitionAt: DefinitionAt = (path, line, col) => defs[path]?.find((d) => d.nameLine === line && d.nameCol === col)?.node;
const fileNode = vname('main.py', '');
const run = vname('main.py', 'run');
const add = vname('shop/ledger.py', 'Ledger.add');

const mainFacts: PythonFileFacts = {
  path: 'main.py',
  definitions: defs['main.py']!,
  callSites: [
    { caller: run, line: 5, col: 8, endCol: 14 }, // Ledger()
    { caller: run, line: 6, col: 6, endCol: 9 }, // l.add(3)
    { caller: run, line: 7, col: 12, endCol: 16 }, // os.path.join
    { caller: run, line: 8, col: 4, endCol: 7 }, // pay()
    { caller: run, line: 9, col: 4, endCol: 19 }, // undefined_thing()
    { caller: run, line: 10, col: 6, endCol: 9 }, // l.add(4)
    { caller: fileNode, line: 11, col: 0, endCol: 3 }, // run(print)
  ],
};
const ledgerFacts: PythonFileFacts = {
  path: 'shop/ledger.py',
  definitions: defs['shop/ledger.py']!,
  callSites: [
    { caller: add, line: 11, col: 24, endCol: 28 }, // self.post(amount), after non-ASCII text
    { caller: add, line: 12, col: 15, endCol: 21 }, // helper(amount)
  ],
};

describe('ScipPythonIndex.resolveCalls', () => {
  it('says what became of each call site: resolved, external, a local function value, or not resolved at all', () => {
    const outcomes = index.resolveCalls(mainFacts, definitionAt).map((r) => [r.site.line, r.outcome, r.callees.map((c) => c.name)]);
    expect(outcomes).toEqual([
      [5, 'resolved', ['Ledger']],
      [6, 'resolved', ['add']],
      [7, 'external', []],
      [8, 'local', []],
      [9, 'no-occurrence', []],
      [10, 'resolved', ['add']],
      [11, 'resolved', ['run']],
    ]);
  });

  it('calls a definition scip-python places where the analyzer has none "unmapped", not a guess', () => {
    const none: DefinitionAt = () => undefined;
    expect(index.resolveCalls(mainFacts, none).map((r) => r.outcome)).toEqual([
      'unmapped',
      'unmapped',
      'external',
      'local',
      'no-occurrence',
      'unmapped',
      'unmapped',
    ]);
  });

  it('answers no-occurrence for every site of a file scip-python did not index', () => {
    expect(index.has('main.py')).toBe(true);
    expect(index.has('other.py')).toBe(false);
    const facts = { ...mainFacts, path: 'other.py' };
    expect(new Set(index.resolveCalls(facts, definitionAt).map((r) => r.outcome))).toEqual(new Set(['no-occurrence']));
  });
});

describe('callEdges', () => {
  it('links each caller to what scip-python resolved, once per pair; a call of a class is an edge to the class', () => {
    const edges = callEdges(index, mainFacts, definitionAt);
    expect(edges.map((e) => [e.src.signature, e.dst.path, e.dst.signature, e.kind, e.provenance, e.confidence])).toEqual([
      ['run', 'shop/ledger.py', 'Ledger', 'calls', 'scip', 1],
      ['run', 'shop/ledger.py', 'Ledger.add', 'calls', 'scip', 1],
      ['', 'main.py', 'run', 'calls', 'scip', 1],
    ]);
  });

  it('follows a method inherited from a base class, with UTF-16 columns after non-ASCII text', () => {
    const edges = callEdges(index, ledgerFacts, definitionAt);
    expect(edges.map((e) => [e.src.signature, e.dst.signature])).toEqual([
      ['Ledger.add', 'Base.post'],
      ['Ledger.add', 'helper'],
    ]);
  });

  it('prefers the class when a symbol is defined both as a class and as something else', () => {
    // `Ledger` also bound at module level in main.py (a redefinition scip-python folds into one symbol).
    const twice = new ScipPythonIndex(
      decodeScipIndex(
        encodeScipIndex({
          projectRoot: 'file:///repo',
          documents: [
            {
              path: 'a.py',
              occurrences: [
                { range: [0, 0, 1], symbol: sym('a/X.'), definition: true },
                { range: [2, 6, 7], symbol: sym('a/X.'), definition: true },
                { range: [4, 0, 1], symbol: sym('a/X.') },
              ],
            },
          ],
        }),
      ),
      '/repo',
    );
    const at: DefinitionAt = (_path, line) =>
      line === 1 ? node('a.py', 'variable', 'X', 'X@1') : line === 3 ? node('a.py', 'class', 'X') : undefined;
    const facts: PythonFileFacts = {
      path: 'a.py',
      definitions: [],
      callSites: [{ caller: vname('a.py', ''), line: 5, col: 0, endCol: 1 }],
    };
    expect(callEdges(twice, facts, at).map((e) => e.dst.signature)).toEqual(['X']);
  });
});

describe('a class scip-python references but does not define', () => {
  // scip-python 0.6.6 on requests: `class ConnectionError(RequestException)` shadows a builtin;
  // its name is emitted as a reference to builtins/ConnectionError, and its own symbol has no
  // definition, though calls in other modules reference it.
  const errors = (extra: ScipDocumentSpec['occurrences']) =>
    new ScipPythonIndex(
      decodeScipIndex(
        encodeScipIndex({
          projectRoot: 'file:///repo',
          documents: [
            {
              path: 'req/exceptions.py',
              positionEncoding: 0,
              occurrences: [
                { range: [0, 0, 0], symbol: sym('`req.exceptions`/__init__:'), definition: true },
                { range: [3, 6, 21], symbol: STDLIB + 'builtins/ConnectionError#' },
                ...extra,
              ],
            },
            {
              path: 'req/adapters.py',
              positionEncoding: 0,
              occurrences: [
                { range: [0, 0, 0], symbol: sym('`req.adapters`/__init__:'), definition: true },
                { range: [5, 18, 33], symbol: sym('`req.exceptions`/ConnectionError#') },
              ],
            },
          ],
        }),
      ),
      '/repo',
    );
  const connectionError = node('req/exceptions.py', 'class', 'ConnectionError');
  const other = node('req/exceptions.py', 'class', 'ConnectionError', 'Nested.ConnectionError');
  const facts: PythonFileFacts = {
    path: 'req/adapters.py',
    definitions: [],
    callSites: [{ caller: vname('req/adapters.py', 'send'), line: 6, col: 18, endCol: 33 }],
  };

  it('is found by its descriptors: the one class of that name in its module', () => {
    const at: DefinitionAt = (path, line, col) => (path === 'req/exceptions.py' && line === 4 && col === 6 ? connectionError : undefined);
    expect(callEdges(errors([]), facts, at).map((e) => [e.src.signature, e.dst.path, e.dst.signature])).toEqual([
      ['send', 'req/exceptions.py', 'ConnectionError'],
    ]);
  });

  it('is external when its module is not in the repository (a dependency scip-python could not find)', () => {
    // Without click installed, scip-python files `click.Option` under the repository's package.
    const click: PythonFileFacts = {
      path: 'req/adapters.py',
      definitions: [],
      callSites: [{ caller: vname('req/adapters.py', ''), line: 8, col: 6, endCol: 12 }],
    };
    const withClick = new ScipPythonIndex(
      decodeScipIndex(
        encodeScipIndex({
          projectRoot: 'file:///repo',
          documents: [
            {
              path: 'req/adapters.py',
              occurrences: [
                { range: [0, 0, 0], symbol: sym('`req.adapters`/__init__:'), definition: true },
                { range: [7, 6, 12], symbol: sym('click/Option#') },
              ],
            },
          ],
        }),
      ),
      '/repo',
    );
    expect(withClick.resolveCalls(click, () => undefined).map((r) => r.outcome)).toEqual(['external']);
  });

  it('is left unmapped when several definitions could be it', () => {
    const at: DefinitionAt = (path, line, col) =>
      path !== 'req/exceptions.py' ? undefined : line === 4 && col === 6 ? connectionError : line === 9 && col === 10 ? other : undefined;
    const index = errors([{ range: [8, 10, 25], symbol: STDLIB + 'builtins/ConnectionError#' }]);
    expect(index.resolveCalls(facts, at).map((r) => r.outcome)).toEqual(['unmapped']);
  });
});

describe('ScipPythonIndex.hierarchyEdges', () => {
  it('links a class to its base classes and a method to the one it overrides, in the repository only', () => {
    const edges = index.hierarchyEdges(ledgerFacts, definitionAt);
    expect(edges.map((e) => [e.src.signature, e.dst.signature, e.kind, e.provenance])).toEqual([
      ['Ledger', 'Base', 'inherits', 'scip'],
      ['Ledger.post', 'Base.post', 'overrides', 'scip'],
    ]);
  });
});
