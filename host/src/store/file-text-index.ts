import { identifierTokens } from './identifier-tokens.js';
import type { StoreContext } from './store-context.js';

/** A file ranked by {@link FileTextIndex.search}. */
export interface FileHit {
  path: string;
  /** BM25 (higher is better). */
  score: number;
}

/** Options of {@link FileTextIndex.search}. */
export interface FileSearchOptions {
  /** At most this many files (default 50). */
  limit?: number;
  /** Query terms in more than this share of the files are dropped (default 0.5): they rank nothing and cost time. */
  maxDocumentFrequency?: number;
  /** At most this many distinct query terms, the rarest kept (default 128). */
  maxTerms?: number;
}

// BM25 column weights of file_fts(path, body): a query word in the file's path is a strong hint.
const BM25 = 'bm25(file_fts, 3.0, 1.0)';

/**
 * BM25 over whole files (`file_fts`): the query is split by the identifier tokenizer like
 * the indexed text; terms too common to discriminate are dropped using the index's own
 * document frequencies, the rest OR-ed.
 */
export class FileTextIndex {
  constructor(private readonly ctx: StoreContext) {}

  /** Files matching `query`, best first. */
  search(query: string, options: FileSearchOptions = {}): FileHit[] {
    const terms = [...new Set(identifierTokens(query))];
    if (terms.length === 0) return [];
    const docs = (this.ctx.stmt('SELECT count(*) AS n FROM file_fts').get() as { n: number }).n;
    if (docs === 0) return [];
    const df = new Map(
      (
        this.ctx.stmt('SELECT term, doc FROM file_fts_vocab WHERE term IN (SELECT value FROM json_each(?))').all(JSON.stringify(terms)) as {
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
    if (kept.length === 0) return [];
    const limit = Math.max(1, Math.floor(options.limit ?? 50));
    const rows = this.ctx
      .stmt(
        `SELECT f.path AS path, r.rank AS rank FROM
           (SELECT rowid, ${BM25} AS rank FROM file_fts WHERE file_fts MATCH ? ORDER BY rank LIMIT ?) r
         JOIN files f ON f.rowid = r.rowid ORDER BY r.rank, f.path`,
      )
      .all(kept.map((t) => `"${t}"`).join(' OR '), limit) as { path: string; rank: number }[];
    return rows.map((r) => ({ path: r.path, score: -r.rank }));
  }
}
