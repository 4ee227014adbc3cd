import { bm25ByTerms, bm25Scores, TermHitsCache, type TermIndex, type TermSearchOptions } from './bm25-terms.js';
import type { StoreContext } from './store-context.js';

const DEFINITION_TERMS: TermIndex = { table: 'node_body_fts', vocab: 'node_body_fts_vocab', bm25: 'bm25(node_body_fts)' };

/** A file ranked by {@link FileTextIndex.search}. */
export interface FileHit {
  path: string;
  /** BM25 (higher is better). */
  score: number;
}

/** Options of {@link FileTextIndex.search}. */
export type FileSearchOptions = TermSearchOptions;

/** A definition ranked by {@link FileTextIndex.searchDefinitions}. */
export interface DefinitionHit {
  /** nodes.id of a live definition. */
  id: number;
  score: number;
}

/**
 * Lexical search over source text: whole files (`file_fts`: path and content) and
 * definitions' own lines (`node_body_fts`), both as identifier tokens, ranked by
 * {@link bm25ByTerms}, the query's words with their synonyms (below the words themselves)
 * unless `synonyms: false` is asked for.
 */
export class FileTextIndex {
  // Kept per store and table: a server's questions share their words (see TermHitsCache).
  private readonly fileTerms = new TermHitsCache();
  private readonly definitionTerms = new TermHitsCache();

  constructor(private readonly ctx: StoreContext) {}

  /** Files matching `query`, best first. */
  search(query: string, options: FileSearchOptions = {}): FileHit[] {
    const best = bm25ByTerms(
      this.ctx,
      { table: 'file_fts', vocab: 'file_fts_vocab', bm25: 'bm25(file_fts, 1.0, 1.0)' },
      query,
      withSynonyms(options),
      this.fileTerms,
    );
    if (best.length === 0) return [];
    const paths = new Map(
      (
        this.ctx
          .stmt('SELECT rowid AS id, path FROM files WHERE rowid IN (SELECT value FROM json_each(?))')
          .all(JSON.stringify(best.map(([id]) => id))) as {
          id: number;
          path: string;
        }[]
      ).map((r) => [r.id, r.path]),
    );
    return best.flatMap(([id, score]) => {
      const path = paths.get(id);
      return path === undefined ? [] : [{ path, score }];
    });
  }

  /**
   * Files whose text contains the token sequence `tokens` (an FTS5 phrase), at most `limit`
   * of them: how a message or output line quoted in a question finds the code that prints it.
   */
  filesWithPhrase(tokens: readonly string[], limit = 8): string[] {
    if (tokens.length === 0) return [];
    // Tokens hold only letters, digits and marks, so quoting them cannot break the syntax.
    const phrase = `body : "${tokens.join(' ')}"`;
    return (
      this.ctx
        .stmt('SELECT f.path AS path FROM file_fts JOIN files f ON f.rowid = file_fts.rowid WHERE file_fts MATCH ? LIMIT ?')
        .all(phrase, limit) as { path: string }[]
    ).map((r) => r.path);
  }

  /** See {@link GraphStore.definitionsWithPhrase}. */
  definitionsWithPhrase(tokens: readonly string[], limit = 64): number[] {
    if (tokens.length === 0) return [];
    // Tokens hold only letters, digits and marks, so quoting them cannot break the syntax.
    return (
      this.ctx
        .stmt('SELECT rowid AS id FROM node_body_fts WHERE node_body_fts MATCH ? ORDER BY rowid LIMIT ?')
        .all(`"${tokens.join(' ')}"`, limit) as { id: number }[]
    ).map((r) => r.id);
  }

  /** BM25 of `query` over every matching definition's own source, by node id (tombstoned ones not filtered out), unsorted. */
  definitionScores(query: string, options: TermSearchOptions = {}): Map<number, number> {
    return bm25Scores(this.ctx, DEFINITION_TERMS, query, withSynonyms(options), this.definitionTerms);
  }

  /** Live definitions whose own source matches `query`, best first. */
  searchDefinitions(query: string, options: TermSearchOptions = {}): DefinitionHit[] {
    const best = bm25ByTerms(this.ctx, DEFINITION_TERMS, query, withSynonyms(options), this.definitionTerms);
    if (best.length === 0) return [];
    const live = new Set(
      (
        this.ctx
          .stmt('SELECT id FROM nodes WHERE id IN (SELECT value FROM json_each(?)) AND tombstoned_at IS NULL')
          .all(JSON.stringify(best.map(([id]) => id))) as {
          id: number;
        }[]
      ).map((r) => r.id),
    );
    return best.filter(([id]) => live.has(id)).map(([id, score]) => ({ id, score }));
  }
}

function withSynonyms(options: TermSearchOptions): TermSearchOptions {
  return options.synonyms === undefined ? { ...options, synonyms: true } : options;
}
