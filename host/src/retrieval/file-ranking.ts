import type { ContextWeights } from './context-weights.js';
import { filesByDependents } from './file-nodes.js';
import type { LexicalEvidence } from './lexical-evidence.js';
import { roundScore } from './score-rounding.js';
import { isVisibleNode, type VisibleGraph } from './visible-graph.js';

/** The evidence behind a file's rank, each in [0, 1]. */
export interface FileSignals {
  /** BM25 of the question over the file's text, relative to the best file. */
  text: number;
  /** The best symbol-search match among the file's definitions. */
  symbol: number;
  /** The best match of the question over one of the file's definitions' own code. */
  body: number;
  /** Definitions the question names exactly (shared names count less). */
  mention: number;
  /** Personalized PageRank mass on the file's nodes, relative to the file with the most. */
  ppr: number;
  /** 1 when the question names the file's path (or a stack frame is in it). */
  named: number;
  /** Lines or messages the question quotes that occur in the file's text (2+ → 1). */
  quoted: number;
  /** 1 when a word of the question is the file's name, 0.5 when it names one of its directories. */
  nameWord: number;
  /** The vector channel's best hit among the file's definitions (similarity relative to the best hit). */
  vector: number;
  /** 1 for tests, docs, examples and data files: they rank below source with the same evidence. */
  auxiliary: number;
}

/** Tests, documentation, examples, and data/config formats rather than code. */
export function isAuxiliary(path: string): boolean {
  return (
    /(^|\/)(tests?|testing|__tests__|spec|specs|docs?|examples?|benchmarks?)\//i.test(path) ||
    /(^|\/)(test_[^/]*|[^/]*_test|conftest|[^/]*\.(test|spec))\.[a-z]+$/i.test(path) ||
    /\.(ya?ml|json|toml|xml|ini|cfg|md|rst|txt|lock)$/i.test(path) ||
    /(^|\/)\.[^/]+\//.test(path)
  );
}

/** The files with evidence: their signals and their score (the weighted signals, auxiliary files damped). */
export interface FileRanking {
  /** By path, in the order the evidence was found. */
  signals: Map<string, FileSignals>;
  score: Map<string, number>;
  /** The best file's score (0 when no file has evidence). */
  best: number;
}

/**
 * Step 3 of get_context, for files: the file's own text match, the best symbol evidence in
 * it, the relevance mass the graph walk left in it, and whether the question names it, quotes
 * it or says its name.
 */
export function rankFiles(
  g: VisibleGraph,
  evidence: LexicalEvidence,
  relevance: ReadonlyMap<number, number>,
  W: ContextWeights,
): FileRanking {
  const { snap } = g;
  const signals = new Map<string, FileSignals>();
  const sig = (path: string) => {
    let f = signals.get(path);
    if (!f)
      signals.set(
        path,
        (f = {
          text: evidence.fileText.get(path) ?? 0,
          symbol: 0,
          body: 0,
          mention: 0,
          ppr: 0,
          named: evidence.namedFiles.has(path) ? 1 : 0,
          quoted: Math.min(1, (evidence.quotedFiles.get(path) ?? 0) / 2),
          nameWord: evidence.nameWordFiles.get(path) ?? 0,
          vector: 0,
          auxiliary: isAuxiliary(path) ? 1 : 0,
        }),
      );
    return f;
  };
  for (const path of evidence.fileText.keys()) sig(path);
  for (const path of evidence.namedFiles) sig(path);
  for (const path of evidence.quotedFiles.keys()) sig(path);
  for (const path of evidence.nameWordFiles.keys()) sig(path);
  for (const [d, s] of evidence.nodes) {
    if (!isVisibleNode(g, d) || snap.kinds[d] === 'external') continue;
    const f = sig(snap.paths[d]!);
    f.symbol = Math.max(f.symbol, s.lexical);
    f.body = Math.max(f.body, s.body);
    f.mention += s.mention;
  }
  for (const [d, v] of evidence.vector) {
    const f = sig(snap.paths[d]!);
    f.vector = Math.max(f.vector, v);
  }
  let maxMass = 0;
  for (const [d, p] of relevance) {
    if (!isVisibleNode(g, d) || snap.kinds[d] === 'external') continue;
    const f = sig(snap.paths[d]!);
    f.ppr += p;
    maxMass = Math.max(maxMass, f.ppr);
  }
  const score = new Map<string, number>();
  for (const [path, f] of signals) {
    if (maxMass > 0) f.ppr /= maxMass;
    f.mention = Math.min(1, f.mention);
    const evidence =
      W.fileText * f.text +
      W.fileSymbol * f.symbol +
      W.fileBody * f.body +
      W.fileMention * f.mention +
      W.filePpr * f.ppr +
      W.fileNamed * f.named +
      W.fileQuoted * f.quoted +
      W.fileNameWord * f.nameWord +
      W.fileVector * f.vector;
    score.set(path, evidence * (f.auxiliary ? W.auxiliaryFactor : 1));
  }
  let best = 0;
  for (const v of score.values()) best = Math.max(best, v);
  return { signals, score, best };
}

/**
 * The `files` of the answer: the `want` best files by score (ties by path), with their
 * signals when `explain`. Fewer files with evidence than asked for: the rest in order of how
 * much of the code base depends on them (score 0), so a caller always gets a full ranked list.
 */
export function rankedFileList(
  g: VisibleGraph,
  ranking: FileRanking,
  want: number,
  explain: boolean | undefined,
): { path: string; score: number; signals?: FileSignals }[] {
  const files = [...ranking.score]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, want)
    .map(([path, s]) => ({ path, score: roundScore(s), ...(explain ? { signals: ranking.signals.get(path)! } : {}) }));
  if (files.length < want)
    for (const path of filesByDependents(g.snap, g.visible)) {
      if (files.length >= want) break;
      if (!ranking.score.has(path)) files.push({ path, score: 0 });
    }
  return files;
}
