import { decodeScipIndex } from '@travsr/sdk/scip';
import { encodeScipIndex, type ScipDocumentSpec } from '@travsr/sdk/testing';
import { describe, expect, it } from 'vitest';
import { isCallAt, ScipRustIndex, type ScipRustCallbacks } from '../src/scip/scip-rust-edges.js';
import {
  callbacksOver,
  DEFINITIONS,
  document,
  fixtureDocuments,
  fixtureIndex,
  lineOf,
  rangeOf,
  SHOP,
  SOURCES,
} from './scip-rust-fixture.js';

const S = SHOP;
const index = ScipRustIndex.decode(fixtureIndex('/repo'), '/repo');
const callbacks = callbacksOver();

/** An index of the fixture's documents and `extra` ones, over the fixture's sources and `sources`. */
function withDocuments(extra: ScipDocumentSpec[]): ScipRustIndex {
  const bytes = encodeScipIndex({ projectRoot: 'file:///repo', toolName: 'rust-analyzer', documents: [...fixtureDocuments(), ...extra] });
  return new ScipRustIndex(decodeScipIndex(bytes), '/repo');
}

const edgeText = (edges: { srcSig: string; dstPath: string; dstSig: string }[]) =>
  edges.map((e) => `${e.srcSig} -> ${e.dstPath}:${e.dstSig}`);

describe('ScipRustIndex.callEdges', () => {
  it('links each caller to the function or method rust-analyzer resolved, once per pair, calls only', () => {
    expect(edgeText(index.callEdges('src/lib.rs', callbacks))).toEqual([
      'run -> src/ledger.rs:Ledger::new', // an associated function of an inherent impl
      'run -> src/ledger.rs:Ledger::post', // a method call after "é😀" on its line: UTF-8 columns
      'run -> src/store/mod.rs:Store::load', // a concrete receiver: rust-analyzer names the impl's method
      'run -> src/lib.rs:total',
      'run -> src/lib.rs:parse', // parse::<Vec<u8>>(…)
      'run -> src/ledger.rs:check', // inside a closure: the enclosing function calls it
      'run -> src/lib.rs:run', // recursion
      'total -> src/store/mod.rs:Store::names', // a generic receiver: rust-analyzer names the trait's item
    ]);
    // `use crate::ledger::{audit, check, …}` and `map(audit)` mention audit without calling it.
    expect(index.callEdges('src/lib.rs', callbacks).some((e) => e.dstSig === 'audit')).toBe(false);
    expect(edgeText(index.callEdges('src/ledger.rs', callbacks))).toEqual(['audit -> src/ledger.rs:check']);
  });

  it('says what became of every call: external (std, an impl of std’s trait), outside any function, resolved', () => {
    const outcomes = (path: string) => index.resolveCalls(path, callbacks).map((s) => `${s.line}:${s.name}:${s.outcome}`);
    expect(outcomes('src/lib.rs')).toEqual([
      `${lineOf('src/lib.rs', 'pub const LIMIT')}:limit:no-caller`, // a const initializer
      `${lineOf('src/lib.rs', 'Ledger::new()')}:new:resolved`,
      `${lineOf('src/lib.rs', 'Memory::default()')}:default:external`, // a derived impl: core's Default::default
      `${lineOf('src/lib.rs', 'ledger.post(3)')}:post:resolved`,
      `${lineOf('src/lib.rs', 'mem.load(note)')}:load:resolved`,
      `${lineOf('src/lib.rs', 'total(&mem)')}:total:resolved`,
      `${lineOf('src/lib.rs', 'parse::<')}:parse:resolved`,
      `${lineOf('src/lib.rs', 'names.iter().filter')}:iter:external`,
      `${lineOf('src/lib.rs', 'names.iter().filter')}:filter:external`,
      `${lineOf('src/lib.rs', 'names.iter().filter')}:check:resolved`,
      `${lineOf('src/lib.rs', 'run(&[])')}:run:resolved`,
      `${lineOf('src/lib.rs', 'run(&[])')}:len:external`,
      `${lineOf('src/lib.rs', 's.names()')}:names:resolved`,
      `${lineOf('src/lib.rs', 'T::default()')}:default:external`,
    ]);
    // self.fmt(f) resolves to the impl of fmt::Display: a trait outside the repository, so no edge.
    const show = index.resolveCalls('src/ledger.rs', callbacks).find((s) => s.name === 'fmt');
    expect(show).toMatchObject({ outcome: 'external', callerSig: 'Ledger::show' });
    expect(show?.target).toBeUndefined();
  });

  it('reports positions as the protocol counts them: 1-based lines, UTF-8 byte columns', () => {
    const columns: number[] = [];
    const spy: ScipRustCallbacks = { ...callbacks, callerAt: (p, l, c) => (columns.push(c), callbacks.callerAt(p, l, c)) };
    const post = index.resolveCalls('src/lib.rs', spy).find((s) => s.name === 'post')!;
    const [line0, byteColumn] = rangeOf(SOURCES['src/lib.rs']!, 'ledger.post(3)', 'post');
    expect(post).toMatchObject({ line: line0 + 1, column: byteColumn, target: { path: 'src/ledger.rs', sig: 'Ledger::post' } });
    // "é😀" is 3 UTF-16 units but 6 bytes.
    expect(byteColumn - SOURCES['src/lib.rs']!.split('\n')[line0]!.indexOf('post')).toBe(3);
    expect(columns).toContain(byteColumn);
  });

  it('maps a callee rust-analyzer places where the plugin has no definition to nothing ("unmapped"), never by name', () => {
    const none: ScipRustCallbacks = { ...callbacks, definitionAt: () => undefined };
    expect(index.callEdges('src/lib.rs', none)).toEqual([]);
    expect(new Set(index.resolveCalls('src/lib.rs', none).map((s) => s.outcome))).toEqual(new Set(['no-caller', 'unmapped', 'external']));
  });

  it('gives nothing for a file rust-analyzer did not index, or whose text cannot be read', () => {
    expect(index.has('src/lib.rs')).toBe(true);
    expect(index.has('build.rs')).toBe(false);
    expect(index.documentCount).toBe(4);
    expect(index.tool).toEqual({ name: 'rust-analyzer', version: '0.3.2045-standalone' });
    expect(index.callEdges('build.rs', callbacks)).toEqual([]);
    const unreadable = ScipRustIndex.decode(fixtureIndex('/repo'), '/repo');
    expect(unreadable.callEdges('src/lib.rs', { ...callbacks, textOf: () => undefined })).toEqual([]);
  });

  it('forgets files changed since it ran: no longer held, and calls into them unmapped', () => {
    const fresh = ScipRustIndex.decode(fixtureIndex('/repo'), '/repo');
    fresh.forget(['src/store/mod.rs']);
    expect(fresh.has('src/store/mod.rs')).toBe(false);
    const load = fresh.resolveCalls('src/lib.rs', callbacks).find((s) => s.name === 'load');
    expect(load?.outcome).toBe('unmapped');
    expect(edgeText(fresh.callEdges('src/lib.rs', callbacks))).toContain('run -> src/ledger.rs:Ledger::new');
  });

  it('resolves a symbol several binaries define to the caller’s own, and leaves it elsewhere ambiguous', () => {
    // rust-analyzer names items by package: `helper()` of examples/a.rs and examples/b.rs is one symbol.
    const example = 'fn helper() -> u8 {\n    1\n}\n\nfn main() {\n    helper();\n}\n';
    const extra = 'pub fn go() {\n    crate::helper();\n}\n';
    const sources = { ...SOURCES, 'examples/a.rs': example, 'examples/b.rs': example, 'src/extra.rs': extra };
    const docs = ['examples/a.rs', 'examples/b.rs'].map((path) =>
      document(path, example, [
        ['fn helper', 'helper', `${S}helper().`, true],
        ['fn main', 'main', `${S}main().`, true],
        ['helper();', 'helper', `${S}helper().`],
      ]),
    );
    const twice = withDocuments([...docs, document('src/extra.rs', extra, [['crate::helper', 'helper', `${S}helper().`]])]);
    const defs = [
      ...DEFINITIONS,
      ...['examples/a.rs', 'examples/b.rs'].flatMap((path) => [
        { path, sig: 'helper', name: 'helper', nameLine: 1, body: [1, 3] as [number, number] },
        { path, sig: 'main', name: 'main', nameLine: 5, body: [5, 7] as [number, number] },
      ]),
      { path: 'src/extra.rs', sig: 'go', name: 'go', nameLine: 1, body: [1, 3] as [number, number] },
    ];
    const cb = callbacksOver(defs, sources);
    expect(edgeText(twice.callEdges('examples/a.rs', cb))).toEqual(['main -> examples/a.rs:helper']);
    expect(edgeText(twice.callEdges('examples/b.rs', cb))).toEqual(['main -> examples/b.rs:helper']);
    expect(twice.resolveCalls('src/extra.rs', cb).map((s) => s.outcome)).toEqual(['ambiguous']);
  });
});

describe('ScipRustIndex.implementsEdges', () => {
  it('links each member of an impl of the repository’s trait to the trait’s item: methods, associated consts', () => {
    expect(edgeText(index.implementsEdges('src/store/memory.rs', callbacks))).toEqual([
      '<Memory as Store>::load -> src/store/mod.rs:Store::load',
      '<Memory as Store>::names -> src/store/mod.rs:Store::names',
      '<Memory as Store>::KIND -> src/store/mod.rs:Store::KIND',
    ]);
    // `impl fmt::Display for Ledger`: std's trait, no edge; inherent impls have none either.
    expect(index.implementsEdges('src/ledger.rs', callbacks)).toEqual([]);
    expect(index.implementsEdges('src/lib.rs', callbacks)).toEqual([]);
  });

  it('finds a trait imported under another name (`use … as Backing`) by its item', () => {
    const disk = `use crate::store::Store as Backing;

pub struct Disk;

impl Backing for Disk {
    fn load(&self, name: &str) -> Option<u32> {
        None
    }
}
`;
    const renamed = withDocuments([
      document('src/disk.rs', disk, [
        ['use crate::store', 'store', `${S}store/`],
        ['use crate::store', 'Store', `${S}store/Store#`],
        ['use crate::store', 'Backing', `${S}store/Store#`],
        ['pub struct Disk', 'Disk', `${S}disk/Disk#`, true],
        ['impl Backing', 'Backing', `${S}store/Store#`],
        ['impl Backing', 'Disk', `${S}disk/Disk#`],
        ['fn load', 'load', `${S}disk/impl#[Disk][Backing]load().`, true],
        ['fn load', 'name', 'local 0', true],
      ]),
    ]);
    const cb = callbacksOver(
      [...DEFINITIONS, { path: 'src/disk.rs', sig: '<Disk as Backing>::load', name: 'load', nameLine: 6, body: [6, 8] }],
      { ...SOURCES, 'src/disk.rs': disk },
    );
    expect(edgeText(renamed.implementsEdges('src/disk.rs', cb))).toEqual(['<Disk as Backing>::load -> src/store/mod.rs:Store::load']);
  });

  it('follows SCIP is_implementation relationships when the index has them', () => {
    // rust-analyzer writes none yet (rust-lang/rust-analyzer#14031); an index that has them is
    // followed even where the impl's header has no occurrences.
    const shape = `pub trait Area {
    fn area(&self) -> f64;
}

pub struct Square;

impl Area for Square {
    fn area(&self) -> f64 {
        1.0
    }
}
`;
    const related = withDocuments([
      document(
        'src/shape.rs',
        shape,
        [
          ['pub trait Area', 'Area', `${S}shape/Area#`, true],
          ['fn area(&self) -> f64;', 'area', `${S}shape/Area#area().`, true],
          ['fn area(&self) -> f64 {', 'area', `${S}shape/impl#[Square][Area]area().`, true],
        ],
        [{ symbol: `${S}shape/impl#[Square][Area]area().`, kind: 26, implements: [`${S}shape/Area#area().`] }],
      ),
    ]);
    const cb = callbacksOver(
      [
        ...DEFINITIONS,
        { path: 'src/shape.rs', sig: 'Area::area', name: 'area', nameLine: 2 },
        { path: 'src/shape.rs', sig: '<Square as Area>::area', name: 'area', nameLine: 8, body: [8, 10] },
      ],
      { ...SOURCES, 'src/shape.rs': shape },
    );
    expect(edgeText(related.implementsEdges('src/shape.rs', cb))).toEqual(['<Square as Area>::area -> src/shape.rs:Area::area']);
  });
});

describe('isCallAt', () => {
  const callAfter = (text: string, ident: string) => {
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(ident));
    return isCallAt({ lines }, line, lines[line]!.indexOf(ident) + ident.length);
  };

  it('takes `f(`, `f ::<…>(` (over lines, with `->` in the arguments) for a call', () => {
    expect(callAfter('f(x)', 'f')).toBe(true);
    expect(callAfter('x.collect::<Vec<_>>()', 'collect')).toBe(true);
    expect(callAfter('apply::<fn(u8) -> u8>(g)', 'apply')).toBe(true);
    expect(callAfter('make ::< Vec<u8> > (1)', 'make')).toBe(true);
    expect(callAfter('build::<\n    Vec<u8>,\n>(\n)', 'build')).toBe(true);
    expect(callAfter('f // why\n    (x)', 'f')).toBe(true);
  });

  it('takes any other use for a mention', () => {
    expect(callAfter('use a::f;', 'f')).toBe(false);
    expect(callAfter('x.map(f)', '(f')).toBe(false);
    expect(callAfter('let g = f as fn();', 'f')).toBe(false);
    expect(callAfter('let g = f::<u8>;', 'f')).toBe(false);
    expect(callAfter('Vec::<u8>::new()', 'Vec')).toBe(false);
    expect(callAfter('f', 'f')).toBe(false);
  });
});
