import { bestHits } from './best-hits.js';
import { identifierTokens } from './identifier-tokens.js';
import type { StoreContext } from './store-context.js';

/** Options of {@link bm25ByTerms}. */
export interface TermSearchOptions {
  /** At most this many rows (default 50). */
  limit?: number;
  /** Query terms in more than this share of the rows are dropped (default 0.5): they rank nothing and cost time. */
  maxDocumentFrequency?: number;
  /** At most this many distinct query terms, the rarest kept (default 128). */
  maxTerms?: number;
  /**
   * Whether the query's words bring their synonyms (the `synonyms` pairs of the store,
   * `travsr synonym`), each at {@link SYNONYM_WEIGHT} of the word. Default false here; the
   * store's text indexes (file-text-index.ts) ask for them unless told not to.
   */
  synonyms?: boolean;
}

/** The weight of a synonym's token against the query word it stands for: below the word itself. */
export const SYNONYM_WEIGHT = 0.5;

/**
 * The hits of single terms in one FTS5 table ([rowid, rank] pairs of one lookup each), and the
 * terms' document frequencies, kept while the table stays as it was: the questions asked of one
 * repository share most of their words, a frequent word's lookup scores thousands of rows
 * (about 2.5 µs each), and each question's frequencies are otherwise one fts5vocab query. Bounded
 * by the hits it holds (16 bytes each), the least recently used dropped first, and by the
 * frequencies it holds (all dropped past `maxTerms`).
 */
export class TermHitsCache {
  private version = '';
  private readonly hits = new Map<string, Float64Array>();
  private readonly frequencies = new Map<string, number>();
  private held = 0;

  constructor(
    private readonly maxHits = 250_000,
    private readonly maxTerms = 100_000,
  ) {}

  /**
   * The hits of `term` with the table at `version`, looked up by `lookup` when not kept: rows
   * of [rowid, rank] (a statement in raw mode: no object made per row).
   */
  get(version: string, term: string, lookup: () => [number, number][]): Float64Array {
    this.at(version);
    const kept = this.hits.get(term);
    if (kept) {
      this.hits.delete(term);
      this.hits.set(term, kept);
      return kept;
    }
    const rows = lookup();
    const pairs = new Float64Array(rows.length * 2);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      pairs[2 * i] = r[0];
      pairs[2 * i + 1] = r[1];
    }
    this.hits.set(term, pairs);
    this.held += rows.length;
    for (const [k, v] of this.hits) {
      if (this.held <= this.maxHits || k === term) break;
      this.hits.delete(k);
      this.held -= v.length / 2;
    }
    return pairs;
  }

  /**
   * The document frequency of each of `terms` with the table at `version` (0: in no row), those
   * not kept looked up together by `lookup` (which leaves out the terms in no row).
   */
  documentFrequencies(version: string, terms: readonly string[], lookup: (terms: string[]) => Map<string, number>): Map<string, number> {
    this.at(version);
    const missing = terms.filter((t) => !this.frequencies.has(t));
    if (missing.length > 0) {
      if (this.frequencies.size + missing.length > this.maxTerms) this.frequencies.clear();
      const found = lookup(missing);
      for (const t of missing) this.frequencies.set(t, found.get(t) ?? 0);
    }
    return new Map(terms.map((t) => [t, this.frequencies.get(t)!]));
  }

  /** Drops what was kept for another version of the table. */
  private at(version: string): void {
    if (version === this.version) return;
    this.hits.clear();
    this.frequencies.clear();
    this.held = 0;
    this.version = version;
  }
}

/** An FTS5 table searched by {@link bm25ByTerms}: its name, its fts5vocab 'row' table, its bm25() call. */
export interface TermIndex {
  table: string;
  vocab: string;
  bm25: string;
}

/**
 * Rows of FTS5 table `table`, read from the table's own statistics record (row 1 of its
 * `_data` table: the row count, then each column's token total, as SQLite varints) instead of
 * `count(*)`, which reads every row: this is read on every search, and a cached count went
 * stale at each commit of any kind (a saved trace too). Falls back to `count(*)` for a table
 * without the record.
 */
export function ftsRowCount(ctx: StoreContext, table: string): number {
  return ftsStatistics(ctx, table).rows;
}

/** {@link ftsRowCount}, and the statistics record itself (hex; empty when there is none). */
export function ftsStatistics(ctx: StoreContext, table: string): { rows: number; record: string } {
  const row = ctx.stmt(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array | null } | undefined;
  const rows = row?.block ? readVarint(row.block) : undefined;
  if (rows !== undefined) return { rows, record: Buffer.from(row!.block!).toString('hex') };
  return { rows: (ctx.stmt(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, record: '' };
}

/** The SQLite varint at the start of `bytes` (big-endian 7-bit groups; a 9th byte holds 8 bits), or undefined if cut short. */
export function readVarint(bytes: Uint8Array): number | undefined {
  let value = 0;
  for (let i = 0; i < 9 && i < bytes.length; i++) {
    const b = bytes[i]!;
    if (i === 8) return value * 256 + b;
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return value;
  }
  return undefined;
}

/**
 * Okapi BM25 (FTS5's, k1 = 1.2, b = 0.75) of `query` over an FTS5 table, summed over the
 * query's distinct identifier tokens, each weighted by how often the query repeats it (an
 * issue text that says "redirect" five times is about redirects). One FTS5 lookup per term,
 * the rarest `maxTerms`, so the cost follows the terms' document frequencies. Returns
 * [rowid, score] best first (ties by rowid).
 */
export function bm25ByTerms(
  ctx: StoreContext,
  index: TermIndex,
  query: string,
  options: TermSearchOptions = {},
  /** Keeps the table's term lookups between calls (a server's; see {@link TermHitsCache}). */
  cache?: TermHitsCache,
): [number, number][] {
  return bestHits(bm25Scores(ctx, index, query, options, cache), Math.max(1, Math.floor(options.limit ?? 50)));
}

/** {@link bm25ByTerms} before the cut: the score of every row that matches a kept term, by rowid (`limit` is not used). */
export function bm25Scores(
  ctx: StoreContext,
  index: TermIndex,
  query: string,
  options: TermSearchOptions = {},
  cache?: TermHitsCache,
): Map<number, number> {
  const score = new Map<number, number>();
  const all = identifierTokens(query);
  if (all.length === 0) return score;
  const repeats = new Map<string, number>();
  for (const t of all) repeats.set(t, (repeats.get(t) ?? 0) + 1);
  if (options.synonyms === true) addSynonymTerms(ctx, repeats);
  const terms = [...repeats.keys()];
  const stats = ftsStatistics(ctx, index.table);
  const docs = stats.rows;
  if (docs === 0) return score;
  const frequencies = (list: readonly string[]) =>
    new Map(
      (
        ctx.stmt(`SELECT term, doc FROM ${index.vocab} WHERE term IN (SELECT value FROM json_each(?))`).all(JSON.stringify(list)) as {
          term: string;
          doc: number;
        }[]
      ).map((r) => [r.term, r.doc]),
    );
  // Every write of the text indexes moves their version; a store made anew starts it again,
  // but not with the same statistics record.
  const version = cache ? `${ctx.textVersion()}:${stats.record}` : '';
  const df = cache ? cache.documentFrequencies(version, terms, frequencies) : frequencies(terms);
  const maxShare = options.maxDocumentFrequency ?? 0.5;
  const kept = terms
    .filter((t) => (df.get(t) ?? 0) > 0 && (docs < 8 || df.get(t)! / docs <= maxShare))
    .sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : 1))
    .slice(0, options.maxTerms ?? 128);
  // Rows as [rowid, rank] arrays (this statement's only use): a frequent term has thousands.
  const lookup = ctx.stmt(`SELECT rowid, ${index.bm25} FROM ${index.table} WHERE ${index.table} MATCH ?`).raw(true);
  // Tokens hold only letters, digits and marks, so quoting them cannot break the syntax.
  const hitsOf = (t: string) => lookup.all(`"${t}"`) as [number, number][];
  for (const t of kept) {
    const weight = repeats.get(t)!;
    if (cache) {
      const pairs = cache.get(version, t, () => hitsOf(t));
      for (let i = 0; i < pairs.length; i += 2) score.set(pairs[i]!, (score.get(pairs[i]!) ?? 0) - weight * pairs[i + 1]!);
    } else for (const [id, rank] of hitsOf(t)) score.set(id, (score.get(id) ?? 0) - weight * rank);
  }
  return score;
}

/**
 * Adds to `weights` (query token → weight) the tokens of the synonyms of the query's tokens,
 * in both directions of each pair, at {@link SYNONYM_WEIGHT} of the word they stand for (the
 * most of it when several words bring the same token); a token of the query keeps its own weight.
 */
export function addSynonymTerms(ctx: StoreContext, weights: Map<string, number>): void {
  const words = [...weights.keys()];
  const pairs = ctx
    .stmt(
      'SELECT term AS word, synonym AS other FROM synonyms WHERE term IN (SELECT value FROM json_each(@words)) ' +
        'UNION ALL SELECT synonym, term FROM synonyms WHERE synonym IN (SELECT value FROM json_each(@words))',
    )
    .all({ words: JSON.stringify(words) }) as { word: string; other: string }[];
  const added = new Map<string, number>();
  for (const { word, other } of pairs) {
    const w = SYNONYM_WEIGHT * (weights.get(word) ?? 0);
    for (const t of identifierTokens(other)) if (!weights.has(t) && w > (added.get(t) ?? 0)) added.set(t, w);
  }
  for (const [t, w] of added) weights.set(t, w);
}
