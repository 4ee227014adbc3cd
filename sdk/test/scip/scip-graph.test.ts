import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileGraphBuilder } from '../../src/graph-builder.js';
import { LineIndex } from '../../src/positions.js';
import type { Node, UnresolvedRef } from '../../src/index.js';
import { decodeScipIndex, ScipGraph, type ScipGraphOptions } from '../../src/scip/index.js';
import { encodeScipIndex } from '../../src/testing/scip-writer.js';

// A TypeScript-like repository: two files define `helper`, b.ts calls the one it imports from
// a.ts, a library's `ext` and the class `Shop`. Phase A (here written by hand) sees names only.
const A = 'export function helper() { return 1; }\nexport class Shop {}\n';
const B = "import { helper, Shop } from './a';\nexport function main() { return helper() + ext(); }\nexport const s = new Shop();\n";
const C = 'export function helper() { return 3; }\n';
const REPO = '/work/shop';
const sym = (path: string, desc: string) => `scip-typescript npm shop 1.0.0 \`${path}\`/${desc}`;
const EXT = 'scip-typescript npm lib 2.0.0 `index.d.ts`/ext().';

const at = (text: string, line: number, word: string): [number, number, number] => {
  const col = text.split('\n')[line]!.indexOf(word);
  return [line, col, col + word.length];
};

const index = encodeScipIndex({
  projectRoot: `file://${REPO}`,
  toolName: 'scip-typescript',
  documents: [
    {
      path: 'a.ts',
      language: 'typescript',
      occurrences: [
        { range: at(A, 0, 'helper'), symbol: sym('a.ts', 'helper().'), definition: true },
        { range: at(A, 1, 'Shop'), symbol: sym('a.ts', 'Shop#'), definition: true },
      ],
    },
    {
      path: 'b.ts',
      language: 'typescript',
      occurrences: [
        { range: at(B, 1, 'main'), symbol: sym('b.ts', 'main().'), definition: true },
        { range: at(B, 1, 'helper'), symbol: sym('a.ts', 'helper().') },
        { range: at(B, 1, 'ext'), symbol: EXT },
        { range: at(B, 2, 'Shop'), symbol: sym('a.ts', 'Shop#') },
      ],
    },
    {
      path: 'c.ts',
      language: 'typescript',
      occurrences: [{ range: at(C, 0, 'helper'), symbol: sym('c.ts', 'helper().'), definition: true }],
    },
  ],
});

/** Phase A of one file: its definitions (function or class per `export` line) and, for b.ts, its call refs. */
function phaseA(path: string, text: string) {
  const graph = new FileGraphBuilder({ corpus: 'shop', path, language: 'typescript' });
  const definitions: Node[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /^export (function|class|const) (\w+)/.exec(line);
    if (m)
      definitions.push(
        graph.define({
          kind: m[1] === 'class' ? 'class' : 'function',
          name: m[2]!,
          range: { startLine: i + 1, startCol: 0, endLine: i + 1, endCol: line.length },
        }),
      );
  });
  const refs: UnresolvedRef[] = [];
  if (path === 'b.ts') {
    for (const [line, word, src] of [
      [1, 'helper', 0],
      [1, 'ext', 0],
      [2, 'Shop', 1],
    ] as const) {
      const [l, s, e] = at(text, line, word);
      refs.push(graph.ref(definitions[src]!, 'calls', word, { startLine: l + 1, startCol: s, endLine: l + 1, endCol: e })!);
    }
  }
  return { graph, syntax: { definitions, refs, lines: new LineIndex(text) } };
}

const texts: Record<string, string> = { 'a.ts': A, 'b.ts': B, 'c.ts': C };
const definitionsOf = async (path: string) => {
  const text = texts[path];
  if (text === undefined) return undefined;
  const { graph, syntax } = phaseA(path, text);
  return [graph.fileNode, ...syntax.definitions];
};

async function mergeB(graph: ScipGraph) {
  const { graph: builder, syntax } = phaseA('b.ts', B);
  return graph.merge(builder, syntax, definitionsOf);
}

const dir = mkdtempSync(join(tmpdir(), 'travsr-scip-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ScipGraph', () => {
  const opened: ScipGraph[] = [];
  afterAll(async () => Promise.all(opened.map((g) => g.close())));
  const fromFile = async (options?: ScipGraphOptions) => {
    const path = join(dir, `index-${opened.length}.scip`);
    writeFileSync(path, index);
    const g = await ScipGraph.open([path], REPO, options);
    opened.push(g);
    return g;
  };

  it('resolves a call to the definition the indexer names, not another of the same name, and drops a call into a library', async () => {
    const graph = await fromFile();
    expect(graph.documentCount).toBe(3);
    const { analysis, stats } = await mergeB(graph);
    const calls = analysis.edges
      .filter((e) => e.kind === 'calls')
      .map((e) => `${e.src.signature} -> ${e.dst.path}:${e.dst.signature} (${e.provenance}, ${e.confidence})`);
    expect(calls).toEqual(['main -> a.ts:helper (scip, 1)', 's -> a.ts:Shop (scip, 1)']);
    expect(stats).toMatchObject({ resolved: 2, external: 1 });
    expect(analysis.refs ?? []).toEqual([]);
  });

  it('reads the same from an index file (a document at a time) as from a decoded index', async () => {
    const streamed = await mergeB(await fromFile());
    const decoded = await mergeB(new ScipGraph([decodeScipIndex(index)], REPO));
    expect(streamed).toEqual(decoded);
  });

  it('makes a call of a type a type reference where the language says so (Go conversions)', async () => {
    const { analysis } = await mergeB(await fromFile({ callOfType: 'types' }));
    expect(analysis.edges.filter((e) => e.kind === 'types').map((e) => e.dst.signature)).toEqual(['Shop']);
  });

  it('leaves out an index file that cannot be read when told to, and merges the others', async () => {
    const good = join(dir, 'good.scip');
    const bad = join(dir, 'bad.scip');
    writeFileSync(good, index);
    writeFileSync(bad, index.subarray(0, index.length - 5));
    await expect(ScipGraph.open([bad], REPO)).rejects.toThrow(/runs past the end of the file/);
    const unreadable: string[] = [];
    const graph = await ScipGraph.open([bad, good], REPO, { onUnreadable: (path) => unreadable.push(path) });
    opened.push(graph);
    expect(unreadable).toEqual([bad]);
    expect((await mergeB(graph)).stats.resolved).toBe(2);
  });

  it('leaves a file the index does not hold as Phase A made it', async () => {
    const graph = new ScipGraph([decodeScipIndex(index)], '/elsewhere');
    expect(graph.has('b.ts')).toBe(false);
    const { analysis, stats } = await mergeB(graph);
    expect(analysis.refs?.map((r) => r.name)).toEqual(['helper', 'ext', 'Shop']);
    expect(stats.resolved).toBe(0);
  });
});

describe('ScipGraph on a JVM index (SemanticDB symbols)', () => {
  // Cart declares a constructor, Item none: `new Cart()` reaches the constructor, `new Item()` the class.
  const SHOP =
    'package com.example.shop;\nclass Cart {\n  Cart() {}\n}\nclass Item {}\nclass Main {\n  void run() { new Cart(); new Item(); }\n}\n';
  const P = 'semanticdb maven . . com/example/shop/';
  const javaIndex = encodeScipIndex({
    projectRoot: `file://${REPO}`,
    toolName: 'scip-java',
    documents: [
      {
        path: 'Shop.java',
        language: 'java',
        positionEncoding: 0,
        occurrences: [
          { range: at(SHOP, 1, 'Cart'), symbol: `${P}Cart#`, definition: true },
          { range: at(SHOP, 2, 'Cart'), symbol: `${P}Cart#\`<init>\`().`, definition: true },
          { range: at(SHOP, 4, 'Item'), symbol: `${P}Item#`, definition: true },
          { range: at(SHOP, 5, 'Main'), symbol: `${P}Main#`, definition: true },
          { range: at(SHOP, 6, 'run'), symbol: `${P}Main#run().`, definition: true },
          { range: at(SHOP, 6, 'Cart'), symbol: `${P}Cart#\`<init>\`().` },
          { range: at(SHOP, 6, 'Item'), symbol: `${P}Item#\`<init>\`().` },
        ],
      },
    ],
  });

  it('resolves a constructor call to the constructor Phase A names after its class, or to the class without one', async () => {
    const graph = new FileGraphBuilder({ corpus: 'shop', path: 'Shop.java', language: 'java' });
    const range = (line: number, text: string) => ({ startLine: line + 1, startCol: 0, endLine: line + 1, endCol: text.length });
    const lines = SHOP.split('\n');
    const cart = graph.define({ kind: 'class', name: 'Cart', range: { startLine: 2, startCol: 0, endLine: 4, endCol: 1 } });
    const ctor = graph.define({ kind: 'constructor', name: 'Cart', qualifiedName: 'Cart.Cart', parent: cart, range: range(2, lines[2]!) });
    const item = graph.define({ kind: 'class', name: 'Item', range: range(4, lines[4]!) });
    const main = graph.define({ kind: 'class', name: 'Main', range: { startLine: 6, startCol: 0, endLine: 8, endCol: 1 } });
    const run = graph.define({ kind: 'method', name: 'run', qualifiedName: 'Main.run', parent: main, range: range(6, lines[6]!) });
    const refs = (['Cart', 'Item'] as const).map((word) => {
      const [l, s, e] = at(SHOP, 6, word);
      return graph.ref(run, 'calls', word, { startLine: l + 1, startCol: s, endLine: l + 1, endCol: e })!;
    });
    const definitions = [cart, ctor, item, main, run];
    const scip = new ScipGraph([decodeScipIndex(javaIndex)], REPO);
    const { analysis } = await scip.merge(graph, { definitions, refs, lines: new LineIndex(SHOP) }, () =>
      Promise.resolve([graph.fileNode, ...definitions]),
    );
    expect(analysis.edges.filter((e) => e.kind === 'calls').map((e) => e.dst.signature)).toEqual(['Cart.Cart', 'Item']);
  });
});

describe('ScipGraph with a compiler-style index (scip-swift)', () => {
  // `Vec(1)` has two references ending at `Vec`: the type and its compiler-made `init`; display
  // names are signatures, not identifiers.
  const SRC =
    'struct Vec {\n  let x: Int\n}\nfunc total() -> Int {\n  return Vec(x: 1).x + twice(2)\n}\nfunc twice(_ n: Int) -> Int { n * 2 }\n';
  const P = 'scip-swift swift shop 0.1 ';
  const swiftIndex = encodeScipIndex({
    projectRoot: `file://${REPO}`,
    toolName: 'scip-swift',
    documents: [
      {
        path: 'Shop.swift',
        language: 'swift',
        occurrences: [
          { range: at(SRC, 0, 'Vec'), symbol: `${P}Vec#`, definition: true },
          { range: at(SRC, 3, 'total'), symbol: `${P}total().`, definition: true },
          { range: at(SRC, 4, 'Vec'), symbol: `${P}Vec#init(x:).` },
          { range: at(SRC, 4, 'Vec'), symbol: `${P}Vec#` },
          { range: at(SRC, 4, 'twice'), symbol: `${P}twice(_:).` },
          { range: at(SRC, 6, 'twice'), symbol: `${P}twice(_:).`, definition: true },
        ],
        symbols: [
          { symbol: `${P}total().`, displayName: 'Shop.total() -> Swift.Int' },
          { symbol: `${P}twice(_:).`, displayName: 'Shop.twice(_: Swift.Int) -> Swift.Int' },
        ],
      },
    ],
  });

  it('matches definitions by their descriptor name, and takes the reference that resolves where several end together', async () => {
    const graph = new FileGraphBuilder({ corpus: 'shop', path: 'Shop.swift', language: 'swift' });
    const lines = SRC.split('\n');
    const vec = graph.define({ kind: 'struct', name: 'Vec', range: { startLine: 1, startCol: 0, endLine: 3, endCol: 1 } });
    const total = graph.define({ kind: 'function', name: 'total', range: { startLine: 4, startCol: 0, endLine: 6, endCol: 1 } });
    const twice = graph.define({
      kind: 'function',
      name: 'twice',
      range: { startLine: 7, startCol: 0, endLine: 7, endCol: lines[6]!.length },
    });
    const refs = (['Vec', 'twice'] as const).map((word) => {
      const [l, s, e] = at(SRC, 4, word);
      return graph.ref(total, 'calls', word, { startLine: l + 1, startCol: s, endLine: l + 1, endCol: e })!;
    });
    const definitions = [vec, total, twice];
    const scip = new ScipGraph([decodeScipIndex(swiftIndex)], REPO);
    const { analysis } = await scip.merge(graph, { definitions, refs, lines: new LineIndex(SRC) }, () =>
      Promise.resolve([graph.fileNode, ...definitions]),
    );
    expect(analysis.edges.filter((e) => e.kind === 'calls').map((e) => e.dst.signature)).toEqual(['Vec', 'twice']);
  });
});
