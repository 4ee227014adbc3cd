import { StoreError, StoreErrorCode } from './errors.js';
import { bestHits } from './best-hits.js';
import { ftsStatistics, TermHitsCache } from './bm25-terms.js';
import { identifierTokens, tokenDocument } from './identifier-tokens.js';
import { NODE_COLUMNS, toNodeRow, type RawNode } from './rows.js';
import type { StoreContext } from './store-context.js';
import type { SymbolHit, SymbolSearchOptions } from './types.js';

// Only the first tokens of a skeleton (signature, then the start of the doc comment) are
// indexed: enough for natural-language hits, and index writes stay proportional to nodes
// rather than to documentation size.
const DOC_TOKENS = 64;

// BM25 column weights of node_fts(name, qualified, path, doc): a hit in the symbol's own
// name counts most, its qualified name next, its file path and skeleton least.
const BM25 = 'bm25(node_fts, 10.0, 5.0, 1.5, 1.0)';

// A question is searched by at most this many phrases, the rarest kept: an issue text with a
// whole log pasted in holds thousands of distinct tokens, and each phrase is one lookup.
const MAX_PHRASES = 128;

/** Inserts one node's row; parameters: rowid, then {@link ftsColumns}. */
export const INSERT_FTS_ROW = 'INSERT INTO node_fts (rowid, name, qualified, path, doc) VALUES (?, ?, ?, ?, ?)';

/** The pre-split text of a node's FTS columns (name, qualified, path, doc). */
export function ftsColumns(
  name: string,
  qualifiedName: string | null,
  path: string,
  skeleton: string | null,
): [string, string, string, string] {
  return [tokenDocument(name), tokenDocument(qualifiedName), tokenDocument(path), tokenDocument(skeleton, DOC_TOKENS)];
}

/** Where a synonym pair came from: `travsr synonym` / the API, or the `retrieval.synonyms` setting. */
export type SynonymOrigin = 'user' | 'config';

/** A synonym pair as stored (its origin when read back; `user` when added without one). */
export interface SynonymPair {
  term: string;
  synonym: string;
  origin?: SynonymOrigin;
}

/**
 * The FTS5 identifier index over nodes (`node_fts`, rowid = nodes.id) and its synonym
 * layer. Index rows are written by the node writes, in their transaction; queries are
 * split by the same {@link identifierTokens} as the indexed text.
 */
export class SymbolIndex {
  // Kept per store: a server's questions share their words (see TermHitsCache).
  private readonly phraseHits = new TermHitsCache();

  constructor(private readonly ctx: StoreContext) {}

  /** Indexes (or re-indexes) node `id`. */
  write(id: number, name: string, qualifiedName: string | null, path: string, skeleton: string | null, replace: boolean): void {
    if (replace) this.remove(id);
    this.ctx.stmt(INSERT_FTS_ROW).run(id, ...ftsColumns(name, qualifiedName, path, skeleton));
  }

  /** Drops node `id` from the index (no-op when absent). */
  remove(id: number): void {
    this.ctx.stmt('DELETE FROM node_fts WHERE rowid = ?').run(id);
  }

  /**
   * Live nodes matching `query`, best first. The query is split into identifier tokens, each
   * word and token is expanded through the synonym table (both directions), and the
   * alternatives are OR-ed, so BM25 ranks a symbol matching more of them higher.
   */
  search(query: string, options: SymbolSearchOptions = {}): SymbolHit[] {
    const phrases = this.phrases(query);
    if (phrases.length === 0) return [];
    const limit = Math.max(1, Math.floor(options.limit ?? 20));
    if (options.kinds && options.kinds.length > 0) {
      const rows = this.ctx
        .stmt(
          `SELECT ${NODE_COLUMNS}, ${BM25} AS rank
           FROM node_fts JOIN nodes n ON n.id = node_fts.rowid
           WHERE node_fts MATCH ? AND n.kind IN (SELECT value FROM json_each(?))
           ORDER BY rank, n.id LIMIT ?`,
        )
        .all(phrases.join(' OR '), JSON.stringify(options.kinds), limit) as (RawNode & { rank: number })[];
      return rows.map((r) => ({ node: toNodeRow(r), score: -r.rank }));
    }
    const best = this.bestIds(phrases, limit);
    if (best.length === 0) return [];
    const rows = new Map(
      (
        this.ctx
          .stmt(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(best.map(([id]) => id))) as RawNode[]
      ).map((r) => [r.id, r]),
    );
    return best.flatMap(([id, s]) => {
      const row = rows.get(id);
      return row ? [{ node: toNodeRow(row), score: s }] : [];
    });
  }

  /** {@link search} without a kind filter, as [node id, score] pairs: what ranking needs, without reading the nodes' rows. */
  searchIds(query: string, limit = 20): [number, number][] {
    const phrases = this.phrases(query);
    return phrases.length === 0 ? [] : this.bestIds(phrases, Math.max(1, Math.floor(limit)));
  }

  /**
   * The best live nodes for `phrases`, from each phrase's hits alone: BM25 of an OR of phrases
   * is the sum of each phrase's (FTS5 scores every phrase with its own IDF over the same row
   * lengths), and a phrase's hits are kept between questions while the index stays as it was.
   * Only live definitions have FTS rows (a tombstoned node's row is removed; a node made only
   * as an edge's far end never gets one). Ties go to the older node.
   */
  private bestIds(phrases: readonly string[], limit: number): [number, number][] {
    const version = `${this.ctx.graphVersion()}:${ftsStatistics(this.ctx, 'node_fts').record}`;
    // Rows as [rowid, rank] arrays (this statement's only use): a frequent word has thousands.
    const lookup = this.ctx.stmt(`SELECT rowid, ${BM25} FROM node_fts WHERE node_fts MATCH ?`).raw(true);
    const score = new Map<number, number>();
    for (const p of phrases) {
      const pairs = this.phraseHits.get(version, p, () => lookup.all(p) as [number, number][]);
      for (let i = 0; i < pairs.length; i += 2) score.set(pairs[i]!, (score.get(pairs[i]!) ?? 0) - pairs[i + 1]!);
    }
    return bestHits(score, limit);
  }

  /** The FTS5 MATCH expression for `query` (undefined when it has no tokens). */
  matchExpression(query: string): string | undefined {
    const phrases = this.phrases(query);
    return phrases.length === 0 ? undefined : phrases.join(' OR ');
  }

  /** The phrases `query` is searched by: its identifier tokens, then their synonyms'. */
  private phrases(query: string): string[] {
    const tokens = unique(identifierTokens(query));
    if (tokens.length === 0) return [];
    // Whole words too, so a synonym term such as `k8s` (which splits into k, 8, s) still hits.
    const words = unique(
      query
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w.length > 0),
    );
    const phrases = new Set(tokens.map((t) => phrase([t])));
    for (const key of unique([...tokens, ...words]))
      for (const s of this.synonymsOf(key)) {
        const st = identifierTokens(s);
        if (st.length > 0) phrases.add(phrase(st));
      }
    return phrases.size > MAX_PHRASES ? this.rarest([...phrases], MAX_PHRASES) : [...phrases];
  }

  /**
   * The `n` phrases of fewest rows, by the document frequency of each one's rarest token (a
   * phrase's own frequency is at most that); ties keep the question's order.
   */
  private rarest(phrases: string[], n: number): string[] {
    this.ctx.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.node_fts_vocab USING fts5vocab(main, 'node_fts', 'row')");
    const tokensOf = (p: string) => p.slice(1, -1).split(' ');
    const df = new Map(
      (
        this.ctx
          .stmt('SELECT term, doc FROM temp.node_fts_vocab WHERE term IN (SELECT value FROM json_each(?))')
          .all(JSON.stringify([...new Set(phrases.flatMap(tokensOf))])) as { term: string; doc: number }[]
      ).map((r) => [r.term, r.doc]),
    );
    const rows = (p: string) => Math.min(...tokensOf(p).map((t) => df.get(t) ?? 0));
    return phrases
      .map((p, i) => ({ p, i, rows: rows(p) }))
      .filter((x) => x.rows > 0)
      .sort((a, b) => a.rows - b.rows || a.i - b.i)
      .slice(0, n)
      .map((x) => x.p);
  }

  /** Records that `term` may also be written `synonym` (used in both directions); false when it was known. */
  addSynonym(term: string, synonym: string, origin: SynonymOrigin = 'user'): boolean {
    const t = normalizeTerm(term);
    const s = normalizeTerm(synonym);
    if (identifierTokens(t).length === 0 || identifierTokens(s).length === 0 || t === s)
      throw new StoreError(
        StoreErrorCode.InvalidInput,
        `cannot add the synonym ${JSON.stringify(term)} = ${JSON.stringify(synonym)}: both must contain letters or digits and differ; give two different words`,
        this.ctx.path,
      );
    if (this.synonymOrigin(t, s) !== undefined) return false;
    this.ctx.stmt('INSERT INTO synonyms (term, synonym, origin) VALUES (?, ?, ?)').run(t, s, origin);
    return true;
  }

  /** Removes a synonym pair (either direction); true when something was removed. */
  removeSynonym(term: string, synonym: string): boolean {
    const t = normalizeTerm(term);
    const s = normalizeTerm(synonym);
    const r = this.ctx.stmt('DELETE FROM synonyms WHERE (term = ? AND synonym = ?) OR (term = ? AND synonym = ?)').run(t, s, s, t);
    return r.changes > 0;
  }

  /**
   * Whether the pairs of origin `config` differ from `pairs` (normalized; a pair a user added
   * stays the user's, so it is not wanted as `config`). Reads only.
   */
  configSynonymsDiffer(pairs: readonly SynonymPair[]): boolean {
    const key = (t: string, s: string) => (t < s ? `${t}\0${s}` : `${s}\0${t}`);
    const rows = this.ctx.stmt('SELECT term, synonym, origin FROM synonyms').all() as Required<SynonymPair>[];
    const have = new Set(rows.filter((r) => r.origin === 'config').map((r) => key(r.term, r.synonym)));
    const users = new Set(rows.filter((r) => r.origin !== 'config').map((r) => key(r.term, r.synonym)));
    const want = new Set(pairs.map((p) => key(normalizeTerm(p.term), normalizeTerm(p.synonym))).filter((k) => !users.has(k)));
    return have.size !== want.size || [...want].some((k) => !have.has(k));
  }

  /** Makes the pairs of origin `config` exactly `pairs` (a pair a user added already stays the user's). */
  replaceConfigSynonyms(pairs: readonly SynonymPair[]): void {
    this.ctx.stmt("DELETE FROM synonyms WHERE origin = 'config'").run();
    for (const p of pairs) this.addSynonym(p.term, p.synonym, 'config');
  }

  /** Where the pair `term` = `synonym` (either order) came from; undefined when it is no pair. */
  synonymOrigin(term: string, synonym: string): SynonymOrigin | undefined {
    const t = normalizeTerm(term);
    const s = normalizeTerm(synonym);
    const row = this.ctx
      .stmt('SELECT origin FROM synonyms WHERE (term = ? AND synonym = ?) OR (term = ? AND synonym = ?)')
      .get(t, s, s, t) as { origin: SynonymOrigin } | undefined;
    return row?.origin;
  }

  /** All synonym pairs, sorted. */
  listSynonyms(): SynonymPair[] {
    return this.ctx.stmt('SELECT term, synonym, origin FROM synonyms ORDER BY term, synonym').all() as SynonymPair[];
  }

  private synonymsOf(key: string): string[] {
    return (
      this.ctx.stmt('SELECT synonym AS s FROM synonyms WHERE term = ? UNION SELECT term FROM synonyms WHERE synonym = ?').all(key, key) as {
        s: string;
      }[]
    ).map((r) => r.s);
  }
}

function normalizeTerm(s: string): string {
  return s.trim().toLowerCase();
}

// Tokens contain only letters, digits and marks, so quoting them cannot break the syntax.
function phrase(tokens: string[]): string {
  return `"${tokens.join(' ')}"`;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
