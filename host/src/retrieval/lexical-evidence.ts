import { fileNodeIndex, filesMatching } from './file-nodes.js';
import { isAuxiliary } from './file-ranking.js';
import { bestHits, identifierTokens } from '../store/index.js';
import { definitionsNamed } from './name-index.js';
import { queryMentions, type FrameSite } from './query-mentions.js';
import { isVisibleFile, isVisibleNode, type VisibleGraph } from './visible-graph.js';

// Tuning (checked by the localization benchmark, see test/bench/localization.js).
const SYMBOL_HITS = 200;
// Compound identifiers of the question looked up in definitions' code, and how many definitions may hold one.
const MAX_LOOKED_UP_IDENTIFIERS = 64;
const MAX_IDENTIFIER_HOLDERS = 40;
// Source files holding a quoted identifier at which it stops being evidence for them.
const MAX_IDENTIFIER_FILES = 3;
// What such a file gets, against a quoted line or message (localization benchmark, tuned part).
const IDENTIFIER_FILE_SHARE = 0.5;
const FILE_HITS = 100;

/** What the question's words say about one node, each relative to the best hit. */
export interface NodeEvidence {
  /** Symbol search: the node's name matches the question. */
  lexical: number;
  /** Definition search: the node's own code uses the question's words. */
  body: number;
  /** The question names the node exactly (a stack frame counts 1.5; shared names count less). */
  mention: number;
  /** The reasons, in words, shown with the node. */
  why: Set<string>;
}

/** Step 1 of get_context: the lexical evidence of a question, on visible nodes and files only. */
export interface LexicalEvidence {
  /** By dense node, in the order the evidence was found. */
  nodes: Map<number, NodeEvidence>;
  /** BM25 of the question over each file's text, relative to the best file. */
  fileText: Map<string, number>;
  /** Files whose path the question names (or a stack frame of it passes through). */
  namedFiles: Set<string>;
  /** Files holding lines or messages the question quotes: the share of each phrase's few files. */
  quotedFiles: Map<string, number>;
  /** Files a word of the question names: 1 for the file's name, 0.5 for one of its directories. */
  nameWordFiles: Map<string, number>;
  /** BM25 of the question over a definition's own code (dense node), relative to the best; 0 without a match. */
  definitionText(d: number): number;
  /** The stack-trace frames the question quotes. */
  frameSites: FrameSite[];
  /**
   * Definitions whose own code holds identifiers the question quotes (`min_similarity_lines`,
   * `self.raw.read`), each identifier weighted by how few definitions hold it; relative to the best.
   */
  definitionIdentifiers: Map<number, number>;
  /** Definitions holding lines or messages the question quotes: the share of each phrase's few holders, summed. */
  quotedDefinitions: Map<number, number>;
  /**
   * The vector channel (vector-channel.ts), when a model embedded the question and the graph:
   * the nearest definitions by meaning, similarity relative to the best hit. Empty otherwise.
   */
  vector: ReadonlyMap<number, number>;
}

/**
 * BM25 over symbols (FTS5, identifier tokens, synonyms), over definitions' code and over whole
 * files, and the exact names, paths, quoted phrases and stack frames the question holds.
 */
export function lexicalEvidence(g: VisibleGraph, query: string): LexicalEvidence {
  const { cg, snap } = g;
  const nodes = new Map<number, NodeEvidence>();
  const entry = (d: number) => {
    let s = nodes.get(d);
    if (!s) nodes.set(d, (s = { lexical: 0, body: 0, mention: 0, why: new Set() }));
    return s;
  };
  const symbolHits = cg.store.searchSymbolIds(query, SYMBOL_HITS);
  const maxSymbol = symbolHits[0]?.[1] ?? 1;
  for (const [id, score] of symbolHits) {
    const d = snap.denseOf(id);
    if (!isVisibleNode(g, d)) continue;
    const s = entry(d);
    s.lexical = Math.max(s.lexical, score / maxSymbol);
    s.why.add('its name matches the query');
  }
  // Every matching definition's score, for the function stage to look up; the best seed the walk.
  // The snapshot holds live nodes only: a definition gone since is no dense node.
  const bodyScores = cg.store.definitionScores(query);
  const bodyHits = bestHits(bodyScores, 2 * SYMBOL_HITS);
  const maxBody = bodyHits[0]?.[1] ?? 1;
  let seeded = 0;
  for (const [id, score] of bodyHits) {
    if (seeded >= SYMBOL_HITS) break;
    const d = snap.denseOf(id);
    if (!isVisibleNode(g, d)) continue;
    seeded++;
    const s = entry(d);
    s.body = Math.max(s.body, score / maxBody);
    s.why.add('its code uses the words of the query');
  }
  const definitionText = (d: number) => (bodyScores.get(snap.storeIdOf(d)) ?? 0) / maxBody;
  const fileHits = cg.store.searchFiles(query, { limit: FILE_HITS }).filter((f) => isVisibleFile(g, f.path));
  const maxFile = fileHits[0]?.score ?? 1;
  const fileText = new Map(fileHits.map((f) => [f.path, f.score / maxFile]));
  const mentions = queryMentions(query);
  const namedFiles = new Set<string>();
  for (const p of mentions.paths) for (const path of filesMatching(snap, p)) namedFiles.add(path);
  // Messages and lines the question quotes, found verbatim (as token runs) in few files.
  const quotedFiles = new Map<string, number>();
  // The definitions holding them, likewise: the function that prints the message.
  const quotedDefinitions = new Map<number, number>();
  for (const phrase of mentions.phrases) {
    const hits = cg.store.filesWithPhrase(phrase, 4).filter((p) => isVisibleFile(g, p));
    if (hits.length === 0 || hits.length > 3) continue;
    for (const p of hits) quotedFiles.set(p, (quotedFiles.get(p) ?? 0) + 1 / hits.length);
    const holders = cg.store
      .definitionsWithPhrase(phrase, 9)
      .map((id) => snap.denseOf(id))
      .filter((d) => isVisibleNode(g, d));
    if (holders.length > 8) continue;
    for (const d of holders) quotedDefinitions.set(d, (quotedDefinitions.get(d) ?? 0) + 1 / holders.length);
  }
  const nameWordFiles = filesNamedByWords(g, mentions.words);
  const frames = new Set(mentions.frames);
  for (const id of mentions.identifiers) {
    const named = definitionsNamed(snap, id, 12).filter((d) => isVisibleNode(g, d));
    if (named.length === 0 || named.length > 8) continue; // too common a name to be evidence
    for (const d of named) {
      const s = entry(d);
      s.mention = Math.max(s.mention, (frames.has(id) ? 1.5 : 1) / named.length);
      s.why.add(frames.has(id) ? `the query's stack trace passes through ${id}` : `the query names ${id}`);
    }
  }
  const { definitions: definitionIdentifiers, files: identifierFiles } = identifiersInDefinitions(g, mentions.identifiers);
  // Code the question quotes found in few source files counts as a quotation of those files.
  for (const [p, w] of identifierFiles) quotedFiles.set(p, (quotedFiles.get(p) ?? 0) + IDENTIFIER_FILE_SHARE * w);
  return {
    nodes,
    fileText,
    namedFiles,
    quotedFiles,
    nameWordFiles,
    definitionText,
    frameSites: mentions.frameSites,
    definitionIdentifiers,
    quotedDefinitions,
    vector: new Map(),
  };
}

/**
 * The definitions whose own code uses the question's compound identifiers (two tokens or more:
 * `iter_content`, `Session.request`, `--collect-only`), found verbatim as token runs: each
 * identifier held by at most {@link MAX_IDENTIFIER_HOLDERS} definitions adds
 * 1 / log2(1 + holders), relative to the best. And the source files (not tests, docs or
 * examples, which quote everything) holding an identifier found in at most
 * {@link MAX_IDENTIFIER_FILES} of them: 1 / files each.
 */
function identifiersInDefinitions(
  g: VisibleGraph,
  identifiers: readonly string[],
): { definitions: Map<number, number>; files: Map<string, number> } {
  const { cg, snap } = g;
  const weight = new Map<number, number>();
  const files = new Map<string, number>();
  const seen = new Set<string>();
  for (const id of identifiers) {
    if (seen.size >= MAX_LOOKED_UP_IDENTIFIERS) break;
    const tokens = identifierTokens(id);
    const key = tokens.join(' ');
    if (tokens.length < 2 || seen.has(key)) continue;
    seen.add(key);
    // Too common counts every holder (one past the limit is enough to know); the weight, those the caller sees.
    const found = cg.store.definitionsWithPhrase(tokens, MAX_IDENTIFIER_HOLDERS + 1);
    if (found.length > MAX_IDENTIFIER_HOLDERS) continue;
    const holders = found.map((nodeId) => snap.denseOf(nodeId)).filter((d) => isVisibleNode(g, d));
    if (holders.length === 0) continue;
    const w = 1 / Math.log2(1 + holders.length);
    for (const d of holders) weight.set(d, (weight.get(d) ?? 0) + w);
    const sourceFiles = new Set(holders.map((d) => snap.paths[d]!).filter((p) => !isAuxiliary(p)));
    if (sourceFiles.size > 0 && sourceFiles.size <= MAX_IDENTIFIER_FILES)
      for (const p of sourceFiles) files.set(p, (files.get(p) ?? 0) + 1 / sourceFiles.size);
  }
  let best = 0;
  for (const w of weight.values()) best = Math.max(best, w);
  for (const [d, w] of weight) weight.set(d, w / best);
  return { definitions: weight, files };
}

/** A word of the question that is a file's or directory's name (`skipping` → skipping.py): 1 for the file, 0.5 for a directory. */
function filesNamedByWords(g: VisibleGraph, words: readonly string[]): Map<string, number> {
  const nameWordFiles = new Map<string, number>();
  const questionWords = new Set(words);
  for (const path of fileNodeIndex(g.snap).keys()) {
    const parts = path.toLowerCase().split('/');
    const stem = parts[parts.length - 1]!.replace(/\.[^.]+$/, '');
    const w =
      questionWords.has(stem) && stem.length >= 4
        ? 1
        : parts.slice(0, -1).some((dir) => dir.length >= 4 && questionWords.has(dir))
          ? 0.5
          : 0;
    if (w > 0 && isVisibleFile(g, path)) nameWordFiles.set(path, w);
  }
  return nameWordFiles;
}

/** Seed weight of the vector channel's best hit (a symbol match's is at most 1). */
const VECTOR_SEED = 1;

/**
 * Where the graph walk starts, with its weight: nodes with lexical evidence (a name the
 * question gives counts double), the file nodes of the best text matches and of the files
 * the question names.
 */
export function lexicalSeeds(g: VisibleGraph, evidence: LexicalEvidence): Map<number, number> {
  const seeds = new Map<number, number>();
  for (const [d, s] of evidence.nodes) seeds.set(d, s.lexical + s.body + 2 * s.mention);
  const fileNodes = fileNodeIndex(g.snap);
  for (const [path, w] of evidence.fileText) {
    const d = fileNodes.get(path);
    if (isVisibleNode(g, d)) seeds.set(d, (seeds.get(d) ?? 0) + w);
  }
  for (const path of evidence.namedFiles) {
    const d = fileNodes.get(path);
    if (isVisibleNode(g, d)) seeds.set(d, (seeds.get(d) ?? 0) + 1.5);
  }
  // The vector channel seeds the walk like a symbol match: what it finds by meaning spreads to its neighbours.
  for (const [d, s] of evidence.vector) seeds.set(d, (seeds.get(d) ?? 0) + VECTOR_SEED * s);
  return seeds;
}
