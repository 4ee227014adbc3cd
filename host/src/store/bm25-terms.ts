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
  const row = ctx.stmt(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array | null } | undefined;
  const rows = row?.block ? readVarint(row.block) : undefined;
  return rows ?? (ctx.stmt(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
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
export function bm25ByTerms(ctx: StoreContext, index: TermIndex, query: string, options: TermSearchOptions = {}): [number, number][] {
  const all = identifierTokens(query);
  if (all.length === 0) return [];
  const repeats = new Map<string, number>();
  for (const t of all) repeats.set(t, (repeats.get(t) ?? 0) + 1);
  const terms = [...repeats.keys()];
  const docs = ftsRowCount(ctx, index.table);
  if (docs === 0) return [];
  const df = new Map(
    (
      ctx.stmt(`SELECT term, doc FROM ${index.vocab} WHERE term IN (SELECT value FROM json_each(?))`).all(JSON.stringify(terms)) as {
        term: string;
        doc: number;
      }[]
    ).map((r) => [r.term, r.doc]),
  );
  const maxShare = options.maxDocumentFrequency ?? 0.5;
  const kept = terms
    .filter((t) => (df.get(t) ?? 0) > 0 && (docs < 8 || df.get(t)! / docs <= maxShare))
    .sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : 1))
    .slice(0, options.maxTerms ?? 128);
  const score = new Map<number, number>();
  const lookup = ctx.stmt(`SELECT rowid AS id, ${index.bm25} AS rank FROM ${index.table} WHERE ${index.table} MATCH ?`);
  for (const t of kept) {
    const weight = repeats.get(t)!;
    // Tokens hold only letters, digits and marks, so quoting them cannot break the syntax.
    for (const r of lookup.all(`"${t}"`) as { id: number; rank: number }[]) score.set(r.id, (score.get(r.id) ?? 0) - weight * r.rank);
  }
  const limit = Math.max(1, Math.floor(options.limit ?? 50));
  return [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
}
