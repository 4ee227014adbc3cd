import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  addSynonymTerms,
  bm25ByTerms,
  bm25Scores,
  ftsRowCount,
  readVarint,
  SYNONYM_WEIGHT,
  TermHitsCache,
} from '../../src/store/bm25-terms.js';
import { StoreContext } from '../../src/store/store-context.js';

function ftsTable(): StoreContext {
  const db = new Database(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'unicode61'); CREATE VIRTUAL TABLE docs_vocab USING fts5vocab(docs, 'row'); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);",
  );
  return new StoreContext(db, ':memory:');
}

describe('readVarint', () => {
  it('reads SQLite varints of one to nine bytes', () => {
    expect(readVarint(Uint8Array.of(0x05))).toBe(5);
    expect(readVarint(Uint8Array.of(0x81, 0x00))).toBe(128);
    expect(readVarint(Uint8Array.of(0xff, 0x7f))).toBe(16383);
    expect(readVarint(Uint8Array.of(0x81, 0x80, 0x00, 0xaa))).toBe(16384);
    // Nine bytes: eight 7-bit groups, then a whole byte.
    expect(readVarint(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x02))).toBe(258);
  });

  it('says undefined for a varint cut short', () => {
    expect(readVarint(Uint8Array.of())).toBeUndefined();
    expect(readVarint(Uint8Array.of(0x81, 0x80))).toBeUndefined();
  });
});

describe('ftsRowCount', () => {
  it("is count(*) of the table after inserts, deletes and replacements, read from FTS5's statistics record", () => {
    const ctx = ftsTable();
    expect(ftsRowCount(ctx, 'docs')).toBe(0);
    const insert = ctx.db.prepare('INSERT INTO docs (rowid, body) VALUES (?, ?)');
    for (let i = 1; i <= 30_000; i++) insert.run(i, `word${i % 97} other${i % 13}`);
    ctx.db.prepare('DELETE FROM docs WHERE rowid % 3 = 0').run();
    ctx.db.prepare("INSERT OR REPLACE INTO docs (rowid, body) VALUES (1, 'replaced'), (40000, 'new')").run();
    const counted = (ctx.db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n;
    expect(counted).toBeGreaterThan(16_383); // a varint of three bytes
    expect(ftsRowCount(ctx, 'docs')).toBe(counted);
  });

  it('ranks the same with the count read either way (bm25ByTerms drops terms in over half the rows)', () => {
    const ctx = ftsTable();
    const insert = ctx.db.prepare('INSERT INTO docs (rowid, body) VALUES (?, ?)');
    for (let i = 1; i <= 40; i++) insert.run(i, i <= 30 ? 'common filler' : i % 2 === 1 ? 'common needle' : 'common thread');
    const hits = bm25ByTerms(ctx, { table: 'docs', vocab: 'docs_vocab', bm25: 'bm25(docs)' }, 'common needle', { limit: 10 });
    // "common" is in every row: dropped; "needle" ranks the five rows that hold it (ties by rowid).
    expect(hits.map(([id]) => id)).toEqual([31, 33, 35, 37, 39]);
  });
});

describe('TermHitsCache', () => {
  it('ranks as the lookups do, and looks a word up once per version of the table', () => {
    const ctx = ftsTable();
    const insert = ctx.db.prepare('INSERT INTO docs (rowid, body) VALUES (?, ?)');
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    for (let i = 1; i <= 60; i++) insert.run(i, `${words[i % 5]} ${words[i % 3]} filler${i % 7 === 0 ? ' alpha' : ''}`);
    const index = { table: 'docs', vocab: 'docs_vocab', bm25: 'bm25(docs)' };
    const cache = new TermHitsCache();
    let lookups = 0;
    let frequencyLookups = 0;
    const counting = {
      get: (version: string, term: string, lookup: () => [number, number][]) =>
        cache.get(version, term, () => {
          lookups++;
          return lookup();
        }),
      documentFrequencies: (version: string, terms: readonly string[], lookup: (terms: string[]) => Map<string, number>) =>
        cache.documentFrequencies(version, terms, (missing) => {
          frequencyLookups++;
          return lookup(missing);
        }),
    } as TermHitsCache;
    const queries = ['alpha beta', 'gamma alpha', 'alpha alpha delta', 'epsilon'];
    for (const q of queries) expect(bm25ByTerms(ctx, index, q, { limit: 20 }, counting)).toEqual(bm25ByTerms(ctx, index, q, { limit: 20 }));
    // Each word kept (alpha is in over half the rows: dropped) was looked up once; asked again, none is.
    expect(lookups).toBe(4);
    for (const q of queries) bm25ByTerms(ctx, index, q, { limit: 20 }, counting);
    const before = lookups;
    expect(before).toBe(4);
    const frequenciesBefore = frequencyLookups;
    bm25ByTerms(ctx, index, 'epsilon', { limit: 20 }, counting);
    expect(lookups).toBe(before);
    expect(frequencyLookups).toBe(frequenciesBefore);
    // A write moves the table's version: looked up again, and right.
    ctx.bumpTextVersion();
    insert.run(100, 'epsilon epsilon');
    expect(bm25ByTerms(ctx, index, 'epsilon', { limit: 20 }, counting)).toEqual(bm25ByTerms(ctx, index, 'epsilon', { limit: 20 }));
    expect(lookups).toBe(before + 1);
    expect(frequencyLookups).toBe(frequenciesBefore + 1);
  });

  it('looks up the document frequencies of the terms it does not hold, together, once per version', () => {
    const cache = new TermHitsCache();
    const asked: string[][] = [];
    const lookup = (terms: string[]) => {
      asked.push(terms);
      return new Map(terms.filter((t) => t !== 'nowhere').map((t) => [t, t.length]));
    };
    expect(cache.documentFrequencies('v1', ['ab', 'nowhere'], lookup)).toEqual(
      new Map([
        ['ab', 2],
        ['nowhere', 0],
      ]),
    );
    expect(cache.documentFrequencies('v1', ['abc', 'ab', 'nowhere'], lookup)).toEqual(
      new Map([
        ['abc', 3],
        ['ab', 2],
        ['nowhere', 0],
      ]),
    );
    expect(asked).toEqual([['ab', 'nowhere'], ['abc']]);
    cache.documentFrequencies('v2', ['ab'], lookup);
    expect(asked.at(-1)).toEqual(['ab']);
  });

  it('keeps at most its bound of hits, the least recently used word dropped first', () => {
    const cache = new TermHitsCache(3);
    const lookedUp: string[] = [];
    const get = (term: string) =>
      cache.get('v1', term, () => {
        lookedUp.push(term);
        return [
          [1, -1],
          [2, -0.5],
        ];
      });
    get('a');
    get('b'); // 4 hits held: a goes
    get('b');
    get('a');
    expect(lookedUp).toEqual(['a', 'b', 'a']);
    expect([...get('a')]).toEqual([1, -1, 2, -0.5]);
  });
});

describe('synonyms in BM25', () => {
  const DOCS = { table: 'docs', vocab: 'docs_vocab', bm25: 'bm25(docs)' };
  function withSynonyms(pairs: [string, string][]): StoreContext {
    const ctx = ftsTable();
    ctx.db.exec('CREATE TABLE synonyms (term TEXT NOT NULL, synonym TEXT NOT NULL, PRIMARY KEY (term, synonym))');
    const add = ctx.db.prepare('INSERT INTO synonyms (term, synonym) VALUES (?, ?)');
    for (const [t, s] of pairs) add.run(t, s);
    const insert = ctx.db.prepare('INSERT INTO docs (rowid, body) VALUES (?, ?)');
    const bodies = ['load the configuration file', 'read cfg values', 'parse the request body', 'unrelated text here', 'more filler words'];
    bodies.forEach((b, i) => insert.run(i + 1, b));
    return ctx;
  }

  it("adds the tokens of each word's synonyms, both directions, at a fraction of the word's weight", () => {
    const ctx = withSynonyms([
      ['cfg', 'configuration'],
      ['request', 'req'],
      ['http', 'hypertext transfer'],
    ]);
    const weights = new Map([
      ['cfg', 2],
      ['req', 1],
      ['http', 1],
      ['hypertext', 1],
    ]);
    addSynonymTerms(ctx, weights);
    expect(Object.fromEntries(weights)).toEqual({
      cfg: 2,
      req: 1,
      http: 1,
      hypertext: 1, // the query's own word keeps its weight
      configuration: 2 * SYNONYM_WEIGHT,
      request: SYNONYM_WEIGHT,
      transfer: SYNONYM_WEIGHT,
    });
  });

  it('finds the rows that hold only a synonym, below those that hold the word, and only when asked', () => {
    const ctx = withSynonyms([['cfg', 'configuration']]);
    const plain = bm25Scores(ctx, DOCS, 'cfg');
    expect([...plain.keys()]).toEqual([2]);
    const expanded = bm25Scores(ctx, DOCS, 'cfg', { synonyms: true });
    expect([...expanded.keys()].sort()).toEqual([1, 2]);
    expect(expanded.get(2)).toBeGreaterThan(expanded.get(1)!);
    expect(expanded.get(2)).toBe(plain.get(2));
  });
});
