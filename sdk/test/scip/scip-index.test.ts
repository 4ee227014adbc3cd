import { describe, expect, it } from 'vitest';
import {
  decodeScipIndex,
  parseSymbol,
  scipCharacterToUtf8,
  scipDocumentPath,
  ScipFormatError,
  symbolNamespace,
} from '../../src/scip/index.js';
import { encodeScipIndex } from '../../src/testing/scip-writer.js';

describe('decodeScipIndex', () => {
  const bytes = encodeScipIndex({
    projectRoot: 'file:///work/shop',
    toolVersion: '0.1.26',
    documents: [
      {
        path: 'ledger/ledger.go',
        occurrences: [
          { range: [3, 5, 10], symbol: 'scip-go gomod example.com/shop v1 `example.com/shop/ledger`/Store#', definition: true },
          { range: [7, 1, 9, 2], symbol: 'local 0', unpacked: true },
        ],
        symbols: [
          {
            symbol: 'scip-go gomod example.com/shop v1 `example.com/shop/ledger`/Mem#',
            kind: 49,
            displayName: 'Mem',
            implements: ['x/Store#'],
          },
        ],
        positionEncoding: 2,
      },
    ],
  });

  it('reads metadata, documents, occurrences (packed and not) and symbol information; skips unknown fields', () => {
    const index = decodeScipIndex(bytes);
    expect(index.tool).toEqual({ name: 'scip-go', version: '0.1.26' });
    expect(index.projectRoot).toBe('file:///work/shop');
    const [doc] = index.documents;
    expect(doc?.relativePath).toBe('ledger/ledger.go');
    expect(doc?.language).toBe('go');
    expect(doc?.positionEncoding).toBe('utf16');
    expect(doc?.occurrences).toEqual([
      {
        startLine: 3,
        startChar: 5,
        endLine: 3,
        endChar: 10,
        symbol: 'scip-go gomod example.com/shop v1 `example.com/shop/ledger`/Store#',
        roles: 1,
      },
      { startLine: 7, startChar: 1, endLine: 9, endChar: 2, symbol: 'local 0', roles: 0 },
    ]);
    expect(doc?.symbols[0]).toMatchObject({
      kind: 49,
      displayName: 'Mem',
      relationships: [{ symbol: 'x/Store#', isImplementation: true, isReference: false }],
    });
  });

  it('refuses a truncated index with the byte where it ends', () => {
    expect(() => decodeScipIndex(bytes.subarray(0, bytes.length - 7))).toThrow(ScipFormatError);
    expect(() => decodeScipIndex(bytes.subarray(0, bytes.length - 7))).toThrow(/runs past its message|truncated/);
    expect(() => decodeScipIndex(Uint8Array.from([0x0b]))).toThrow(/wire type 3/);
  });

  it('reads an empty index', () => {
    expect(decodeScipIndex(new Uint8Array())).toEqual({ tool: { name: '', version: '' }, projectRoot: '', documents: [] });
  });
});

describe('parseSymbol', () => {
  it('splits package and descriptors, with backquoted names', () => {
    const s = parseSymbol('scip-go gomod example.com/shop v1.2.0 `example.com/shop/ledger`/Ledger#Post().');
    expect(s?.package).toBe('gomod example.com/shop v1.2.0');
    expect(s?.descriptors).toEqual([
      { name: 'example.com/shop/ledger', suffix: 'namespace' },
      { name: 'Ledger', suffix: 'type' },
      { name: 'Post', suffix: 'method' },
    ]);
    expect(symbolNamespace(s)).toBe('example.com/shop/ledger');
  });

  it('reads terms, type parameters, escaped spaces and backquotes, and locals', () => {
    expect(parseSymbol('scip-go gomod github.com/golang/go/src go1.22 fmt/Errorf().')?.descriptors.map((d) => d.suffix)).toEqual([
      'namespace',
      'method',
    ]);
    expect(parseSymbol('a b  c d e x/Store#Load.')?.package).toBe('b c d e');
    expect(parseSymbol('s m p v `a``b`/T#[K]')?.descriptors).toEqual([
      { name: 'a`b', suffix: 'namespace' },
      { name: 'T', suffix: 'type' },
      { name: 'K', suffix: 'type-parameter' },
    ]);
    expect(parseSymbol('local 12')?.scheme).toBe('local');
    expect(parseSymbol('not a symbol')).toBeUndefined();
  });
});

describe('symbolNamespace', () => {
  it('joins the leading namespaces: a Java package is the whole of it, not its first segment', () => {
    expect(symbolNamespace(parseSymbol('semanticdb maven . . com/example/shop/Cart#total().'))).toBe('com/example/shop');
    expect(symbolNamespace(parseSymbol('semanticdb maven jdk 17 java/util/List#add().'))).toBe('java/util');
  });

  it('is the first descriptor when it is a namespace: a Python module too', () => {
    const s = parseSymbol('scip-python python shop 1.0 `shop.ledger`/Ledger#add().(amount)');
    expect(s?.descriptors.map((d) => d.suffix)).toEqual(['namespace', 'type', 'method', 'parameter']);
    expect(symbolNamespace(s)).toBe('shop.ledger');
    expect(symbolNamespace(parseSymbol('local 3'))).toBeUndefined();
    expect(symbolNamespace(parseSymbol('s m p v T#'))).toBeUndefined();
  });
});

describe('scipDocumentPath', () => {
  it('places a document under its project root, and refuses one outside the repository', () => {
    expect(scipDocumentPath({ projectRoot: 'file:///repo/services/api' }, { relativePath: 'app/main.py' }, '/repo')).toBe(
      'services/api/app/main.py',
    );
    expect(scipDocumentPath({ projectRoot: '' }, { relativePath: 'a.go' }, '/repo')).toBe('a.go');
    expect(scipDocumentPath({ projectRoot: 'file:///elsewhere' }, { relativePath: 'a.go' }, '/repo')).toBeUndefined();
    expect(scipDocumentPath({ projectRoot: 'file:///repo' }, { relativePath: '../x.py' }, '/repo')).toBeUndefined();
  });
});

describe('scipCharacterToUtf8', () => {
  it('counts UTF-16 units and code points as UTF-8 bytes, and leaves UTF-8 alone', () => {
    const line = 's = "é😀"; f()';
    // f is UTF-16 unit 10 (é one unit, 😀 two), code point 9, byte 13.
    expect(scipCharacterToUtf8(line, 10, 'utf16')).toBe(13);
    expect(scipCharacterToUtf8(line, 9, 'utf32')).toBe(13);
    expect(scipCharacterToUtf8(line, 13, 'utf8')).toBe(13);
    expect(scipCharacterToUtf8('abc', 2, 'utf16')).toBe(2);
    expect(scipCharacterToUtf8('é', 3, 'utf16')).toBe(4);
  });
});
