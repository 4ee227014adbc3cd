import { GraphSnapshot } from './graph-snapshot.js';
import type { ContextWeights } from './context-weights.js';
import { bestHits } from '../store/index.js';
import { filesMatching } from './file-nodes.js';
import { isAuxiliary, type FileRanking } from './file-ranking.js';
import type { LexicalEvidence } from './lexical-evidence.js';
import type { FrameSite } from './query-mentions.js';
import { isVisibleNode, type VisibleGraph } from './visible-graph.js';

/** The node kinds the function stage ranks: what a fix edits — callables and the types that hold them. */
export const RANKED_DEFINITION_KINDS: ReadonlySet<string> = new Set([
  'function',
  'method',
  'constructor',
  'class',
  'interface',
  'struct',
  'enum',
  'trait',
  'type',
  'macro',
]);

// Tuning (checked by the localization benchmark, see test/bench/localization.js).
// Every definition of the best files is a candidate; elsewhere only those with evidence of their own.
const CANDIDATE_FILES = 20;
// Lines at which a definition's size stops counting (log scale).
const SIZE_CAP_LINES = 400;

/** The evidence behind a definition's rank, each in [0, 1]. */
export interface DefinitionSignals {
  /** BM25 of the question over the definition's own code (signature, docstring, body), relative to the best. */
  text: number;
  /** Compound identifiers the question quotes that its code uses, the rarer the more (relative to the best). */
  identifiers: number;
  /** Lines or messages the question quotes that its code holds (2+ → 1). */
  quoted: number;
  /** Symbol search: its name matches the question's words (split identifiers too). */
  name: number;
  /** The question names it exactly (shared names count less). */
  mention: number;
  /** A stack frame of the question is in it: 1 when the frame's file and line land in it, 0.75 by file and name. */
  frame: number;
  /** The best named or framed definition it calls or is called by, times the edge's confidence (resolved 1, name-matched less). */
  neighbour: number;
  /** Personalized PageRank relevance. */
  ppr: number;
  /** The class (or other type) it is a member of: the question names it (shared names count less). */
  ownerMention: number;

  /** Its file's score relative to the best file's. */
  file: number;
  /** 1 when its file is a test, doc, example or data file (`isAuxiliary`). */
  auxiliary: number;
  /** Its size, log-scaled: 1 at 400 lines and beyond. */
  size: number;
  /** The vector channel: its embedding's similarity to the question's, relative to the channel's best hit. */
  vector: number;
}

/** One ranked definition of the function stage. */
export interface RankedDefinition {
  dense: number;
  score: number;
  signals: DefinitionSignals;
  /** Why, in words. */
  why: string[];
}

/**
 * The function stage of get_context, after the file ranking: every function, method and type
 * of the best files and every other definition with evidence of its own, scored on its own
 * code's match with the question (BM25 over signature, docstring and body; the compound
 * identifiers and the messages the question quotes, verbatim), its name, the exact mentions and
 * stack frames that land in it or name its class, its call-graph neighbours' mentions (resolved
 * edges count more than name-matched ones), its relevance from the graph walk, its size, and its
 * file's rank; tests, docs and examples damped. Best first (ties by dense index), at most
 * `limit`. Deterministic for the same graph and evidence.
 */
export function rankDefinitions(
  g: VisibleGraph,
  evidence: LexicalEvidence,
  relevance: ReadonlyMap<number, number>,
  files: FileRanking,
  W: ContextWeights,
  limit: number,
): RankedDefinition[] {
  const { snap } = g;
  const byFile = definitionsByFile(snap);
  const ownerOf = owners(snap);
  const ranked = (d: number) => isVisibleNode(g, d) && RANKED_DEFINITION_KINDS.has(snap.kinds[d]!);
  const candidates = new Set<number>();
  const order = [...files.score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [path] of order.slice(0, CANDIDATE_FILES)) for (const d of byFile.get(path) ?? []) if (ranked(d)) candidates.add(d);
  for (const d of evidence.nodes.keys()) if (ranked(d)) candidates.add(d);
  for (const d of evidence.definitionIdentifiers.keys()) if (ranked(d)) candidates.add(d);
  for (const d of evidence.quotedDefinitions.keys()) if (ranked(d)) candidates.add(d);
  const frames = framedDefinitions(g, evidence.frameSites, byFile);
  for (const d of frames.keys()) if (ranked(d)) candidates.add(d);
  for (const d of evidence.vector.keys()) if (ranked(d)) candidates.add(d);

  // What a definition's neighbours pass on: the question names them or a frame is in them.
  const direct = (d: number) => Math.max(Math.min(1, evidence.nodes.get(d)?.mention ?? 0), frames.get(d) ?? 0);
  const neighbours = callNeighbourEvidence(g, [...evidence.nodes.keys(), ...frames.keys()], direct);
  // Per file, once: its score relative to the best and whether it is auxiliary.
  const fileOf = new Map<string, { rank: number; auxiliary: number }>();
  const fileFacts = (path: string) => {
    let f = fileOf.get(path);
    if (!f)
      fileOf.set(
        path,
        (f = { rank: files.best > 0 ? (files.score.get(path) ?? 0) / files.best : 0, auxiliary: isAuxiliary(path) ? 1 : 0 }),
      );
    return f;
  };
  // Every candidate is scored through one scratch record (a large file offers thousands of
  // candidates: an object each cost more than the scoring); the best get records of their own.
  const signalsOf = (d: number, into: DefinitionSignals): DefinitionSignals => {
    const s = evidence.nodes.get(d);
    const owner = ownerOf[d]!;
    const file = fileFacts(snap.paths[d]!);
    const lines = Math.max(1, snap.endLines[d]! - snap.startLines[d]! + 1);
    into.text = evidence.definitionText(d);
    into.identifiers = evidence.definitionIdentifiers.get(d) ?? 0;
    into.quoted = Math.min(1, (evidence.quotedDefinitions.get(d) ?? 0) / 2);
    into.name = s?.lexical ?? 0;
    into.mention = Math.min(1, s?.mention ?? 0);
    into.frame = frames.get(d) ?? 0;
    into.neighbour = neighbours.get(d) ?? 0;
    into.ppr = relevance.get(d) ?? 0;
    into.ownerMention = owner < 0 ? 0 : Math.min(1, evidence.nodes.get(owner)?.mention ?? 0);
    into.file = file.rank;
    into.auxiliary = file.auxiliary;
    into.size = Math.min(1, Math.log1p(lines) / Math.log1p(SIZE_CAP_LINES));
    into.vector = evidence.vector.get(d) ?? 0;
    return into;
  };
  const scratch = noSignals();
  const scores = new Map<number, number>();
  for (const d of candidates) {
    const score = definitionScore(signalsOf(d, scratch), W);
    if (score > 0) scores.set(d, score);
  }
  // Best first, ties by dense index; the reasons are written for the best only.
  return bestHits(scores, limit).map(([dense, score]) => {
    const signals = signalsOf(dense, noSignals());
    return { dense, score, signals, why: definitionReasons(signals, evidence.nodes.get(dense)?.why) };
  });
}

/** A definition's score: the weighted sum of its signals, damped in an auxiliary file. */
function definitionScore(signals: DefinitionSignals, W: ContextWeights): number {
  const score =
    W.definitionText * signals.text +
    W.definitionIdentifiers * signals.identifiers +
    W.definitionQuoted * signals.quoted +
    W.definitionName * signals.name +
    W.definitionMention * signals.mention +
    W.definitionFrame * signals.frame +
    W.definitionNeighbour * signals.neighbour +
    W.definitionPpr * signals.ppr +
    W.definitionOwnerMention * signals.ownerMention +
    W.definitionFile * signals.file +
    W.definitionSize * signals.size +
    W.definitionVector * signals.vector;
  return signals.auxiliary ? score * W.definitionAuxiliaryFactor : score;
}

function noSignals(): DefinitionSignals {
  return {
    text: 0,
    identifiers: 0,
    quoted: 0,
    name: 0,
    mention: 0,
    frame: 0,
    neighbour: 0,
    ppr: 0,
    ownerMention: 0,
    file: 0,
    auxiliary: 0,
    size: 0,
    vector: 0,
  };
}

/** The reasons of a ranked definition, strongest evidence first. */
function definitionReasons(s: DefinitionSignals, lexicalWhy: ReadonlySet<string> | undefined): string[] {
  const why: string[] = [];
  if (s.frame >= 1) why.push('a stack frame of the query is in it');
  else if (s.frame > 0) why.push('a stack frame of the query names it');
  if (s.quoted > 0) why.push('its code holds a line or message the query quotes');
  for (const w of lexicalWhy ?? []) if (!w.startsWith("the query's stack trace")) why.push(w);
  if (s.identifiers >= 0.3) why.push('its code uses identifiers the query quotes');
  if (s.ownerMention > 0) why.push('the query names its class');
  if (s.text >= 0.3 && !why.includes('its code uses the words of the query')) why.push('its code uses the words of the query');
  if (s.neighbour > 0) why.push('it calls or is called by a definition the query names');
  if (s.vector > 0) why.push('its code is close in meaning to the query (vector channel)');
  if (s.file >= 0.5) why.push('its file ranks high');
  if (why.length === 0) why.push('in a file that ranks high');
  return why;
}

/**
 * The definitions the question's stack frames land in: 1 when a frame's file and line fall in
 * the definition (the innermost one), 0.75 when the frame names it in that file without a line
 * that fits (the code moved since the trace was taken).
 */
function framedDefinitions(
  g: VisibleGraph,
  sites: readonly FrameSite[],
  byFile: ReadonlyMap<string, readonly number[]>,
): Map<number, number> {
  const { snap } = g;
  const framed = new Map<number, number>();
  const set = (d: number, w: number) => framed.set(d, Math.max(framed.get(d) ?? 0, w));
  const filesOf = new Map<string, string[]>();
  for (const site of sites) {
    if (!site.path) continue;
    let paths = filesOf.get(site.path);
    if (!paths) filesOf.set(site.path, (paths = filesMatching(snap, site.path)));
    const last = site.name?.slice(site.name.lastIndexOf('.') + 1);
    for (const path of paths) {
      const defs = byFile.get(path) ?? [];
      let innermost: number | undefined;
      if (site.line !== undefined)
        for (const d of defs)
          if (
            snap.startLines[d]! <= site.line &&
            site.line <= snap.endLines[d]! &&
            (innermost === undefined || snap.startLines[d]! >= snap.startLines[innermost]!)
          )
            innermost = d;
      if (innermost !== undefined && (last === undefined || snap.names[innermost] === last)) set(innermost, 1);
      else if (last !== undefined) for (const d of defs) if (snap.names[d] === last) set(d, 0.75);
    }
  }
  for (const d of [...framed.keys()]) if (!isVisibleNode(g, d)) framed.delete(d);
  return framed;
}

const OWNERS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'impl']);

/**
 * The owner of every definition, by dense index (-1 for none): the innermost class (interface,
 * struct, enum, trait, impl) of the same file whose lines hold the definition's. One sweep per
 * file in line order with a stack of the open containers; cached per snapshot.
 */
function owners(snap: GraphSnapshot): Int32Array {
  const cached = ownerCache.get(snap);
  if (cached) return cached;
  const owner = new Int32Array(snap.nodeCount).fill(-1);
  for (const defs of definitionsByFile(snap).values()) {
    const open: number[] = [];
    for (const d of defs) {
      while (open.length > 0 && snap.endLines[open[open.length - 1]!]! < snap.endLines[d]!) open.pop();
      const top = open[open.length - 1];
      if (top !== undefined && !(snap.startLines[top] === snap.startLines[d] && snap.endLines[top] === snap.endLines[d])) owner[d] = top;
      if (OWNERS.has(snap.kinds[d]!)) open.push(d);
    }
  }
  ownerCache.set(snap, owner);
  return owner;
}
const ownerCache = new WeakMap<GraphSnapshot, Int32Array>();

/**
 * For each node a call edge joins to a node with `direct` evidence (named by the question, or
 * a stack frame in it): the best such evidence among its callers and callees, times the edge's
 * confidence. Walked from the few nodes with evidence rather than from every candidate.
 */
function callNeighbourEvidence(g: VisibleGraph, nodes: Iterable<number>, direct: (n: number) => number): Map<number, number> {
  const csr = g.snap.graph;
  const best = new Map<number, number>();
  const pass = (d: number, v: number) => {
    if (v > (best.get(d) ?? 0)) best.set(d, v);
  };
  for (const n of new Set(nodes)) {
    const evidence = direct(n);
    if (!(evidence > 0) || !isVisibleNode(g, n)) continue;
    // n's callees have n among their callers, and its callers have it among their callees.
    for (let e = csr.outOffsets[n]!; e < csr.outOffsets[n + 1]!; e++)
      if (csr.outKinds[e] === CALLS && csr.outTargets[e] !== n) pass(csr.outTargets[e]!, csr.outConfidence[e]! * evidence);
    for (let e = csr.inOffsets[n]!; e < csr.inOffsets[n + 1]!; e++)
      if (csr.inKinds[e] === CALLS && csr.inSources[e] !== n) pass(csr.inSources[e]!, csr.inConfidence[e]! * evidence);
  }
  return best;
}
const CALLS = GraphSnapshot.edgeKindIndex('calls');

/** The definitions of each file with source lines, as dense indexes in line order, an enclosing one before those it holds (cached per snapshot). */
export function definitionsByFile(snap: GraphSnapshot): Map<string, number[]> {
  const cached = byFileCache.get(snap);
  if (cached) return cached;
  const m = new Map<string, number[]>();
  for (let d = 0; d < snap.nodeCount; d++) {
    const kind = snap.kinds[d]!;
    if (kind === 'file' || kind === 'external' || !(snap.startLines[d]! > 0)) continue;
    const path = snap.paths[d]!;
    let list = m.get(path);
    if (!list) m.set(path, (list = []));
    list.push(d);
  }
  for (const list of m.values())
    list.sort((a, b) => snap.startLines[a]! - snap.startLines[b]! || snap.endLines[b]! - snap.endLines[a]! || a - b);
  byFileCache.set(snap, m);
  return m;
}
const byFileCache = new WeakMap<GraphSnapshot, Map<string, number[]>>();
