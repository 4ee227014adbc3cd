import { pprWeight } from '@travsr/protocol';
import { visibilityMask, type AccessPolicy } from './access-policy.js';
import type { CodeGraph } from './code-graph.js';
import { GraphSnapshot } from './graph-snapshot.js';
import type { Completeness } from './index-completeness.js';
import { coreShells } from './kcore-cache.js';
import { knapsack } from './knapsack.js';
import { location, type NodeRef } from './node-ref.js';
import { prizeCollectingSteinerTree } from './pcst.js';
import { localPersonalizedPageRank } from './personalized-pagerank.js';
import { queryMentions } from './query-mentions.js';
import { refsOf } from './graph-queries.js';
import { countTokens, TOKENIZER } from './token-count.js';

/** One piece of code in a {@link ContextResult}. */
export interface ContextItem {
  node: NodeRef;
  score: number;
  /** Why it was chosen, in words: the lexical match, the graph relation, the structural role. */
  why: string[];
  snippet: { startLine: number; endLine: number; text: string; truncated: boolean; stale: boolean } | null;
  /** Why the source is not shown when the file is no longer a plain file of the repository (a link, a FIFO, …). */
  withheld?: string;
  /** Tokens of this item as rendered (header + code). */
  tokens: number;
}

/** The answer of {@link getContext}. */
export interface ContextResult {
  query: string;
  budget: number;
  /** Tokens of the rendered answer ({@link renderContext}); never above `budget`. */
  tokens: number;
  tokenizer: string;
  items: ContextItem[];
  /** Files ranked by relevance (at least 20 when the graph has them), for "where should I look". */
  files: { path: string; score: number; signals?: FileSignals }[];
  /** Further ranked nodes that did not fit the budget (no snippet). */
  more: { node: NodeRef; score: number }[];
  completeness: Completeness;
  stats: { seeds: number; candidates: number; steinerNodes: number; exactKnapsack: boolean; ms: number; stageMs: Record<string, number> };
}

/** Options of {@link getContext}. */
export interface ContextOptions {
  policy: AccessPolicy;
  /** Hard limit on the rendered answer's tokens (default 8000, at least 200). */
  budget?: number;
  /** Ranked files to return (default 30). */
  files?: number;
  /** Other weights than {@link DEFAULT_WEIGHTS} (for evaluation and tuning). */
  weights?: Partial<ContextWeights>;
  /** Put each file's {@link FileSignals} in the result (for evaluation and tuning). */
  explain?: boolean;
}

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

/** How get_context weighs its evidence. Chosen with the localization benchmark (test/bench/localization.js). */
export interface ContextWeights {
  nodeLexical: number;
  nodeBody: number;
  nodeMention: number;
  nodePpr: number;
  nodeFileText: number;
  nodePathMention: number;
  /** The node's file's score relative to the best file's. */
  nodeFileRank: number;
  coreLift: number;
  fileText: number;
  fileSymbol: number;
  fileBody: number;
  fileMention: number;
  filePpr: number;
  fileNamed: number;
  fileQuoted: number;
  fileNameWord: number;
  /** Multiplies the score of an {@link isAuxiliary} file. */
  auxiliaryFactor: number;
}

/** The weights get_context uses unless told otherwise. */
export const DEFAULT_WEIGHTS: ContextWeights = {
  nodeLexical: 0.35,
  nodeBody: 1,
  nodeMention: 0.9,
  nodePpr: 0.35,
  nodeFileText: 0.3,
  nodePathMention: 0.3,
  nodeFileRank: 1,
  coreLift: 0.15,
  // Files (localization benchmark, 66 SWE-bench issues: 841 of 5,184 weightings on the grid
  // around these reach file Acc@5 ≥ 80; these reach 81.8).
  fileText: 1,
  fileSymbol: 0.3,
  fileBody: 0.3,
  fileMention: 0.5,
  filePpr: 0.15,
  fileNamed: 0.25,
  fileQuoted: 1,
  fileNameWord: 0.6,
  auxiliaryFactor: 0.5,
};

// Tuning (checked by the localization benchmark, see test/bench/localization.js).
const SYMBOL_HITS = 200;
const FILE_HITS = 100;
const PPR_ALPHA = 0.25;
const PPR_EPSILON = 1e-5;
const CANDIDATES = 300;
const SNIPPET_MAX_LINES = 60;
// A class or module is shown by its head (signature, doc, first members): its methods are items of their own.
const CONTAINER_MAX_LINES = 20;
const CONTAINERS = new Set(['class', 'interface', 'module', 'namespace', 'package', 'trait', 'struct', 'enum', 'impl']);
const MIN_BUDGET = 200;

interface Scored {
  lexical: number;
  body: number;
  mention: number;
  file: number;
  why: Set<string>;
}

/**
 * get_context: the code that answers `query`, cut to a token budget.
 * 1. Lexical seeds: BM25 over symbols (FTS5, identifier tokens, synonyms), BM25 over whole
 *    files, and exact names, paths and stack frames the query quotes.
 * 2. Personalized PageRank (local push, edge weights per kind × confidence, both directions)
 *    spreads relevance from the seeds through calls, imports, inheritance and types.
 * 3. k-core shells (cached per graph version) lift well-connected nodes: the "buried middle".
 * 4. A Prize-Collecting Steiner Tree over the candidates connects the winners through the
 *    nodes between them.
 * 5. 0-1 knapsack picks the snippets (value = score, weight = rendered tokens) within the
 *    budget, which is a hard limit.
 * Deterministic for the same graph and query. RBAC is the visibility mask every stage
 * takes: a node the caller may not see is never scored, expanded or counted.
 */
export function getContext(cg: CodeGraph, query: string, opts: ContextOptions): ContextResult {
  const t0 = performance.now();
  const budget = Math.max(MIN_BUDGET, Math.floor(opts.budget ?? 8000));
  const snap = cg.snapshot();
  const visible = visibilityMask(snap, opts.policy);
  const allowed = (d: number | undefined): d is number => d !== undefined && visible[d] === 1;

  // 1. Lexical evidence.
  const scored = new Map<number, Scored>();
  const entry = (d: number) => {
    let s = scored.get(d);
    if (!s) scored.set(d, (s = { lexical: 0, body: 0, mention: 0, file: 0, why: new Set() }));
    return s;
  };
  const symbolHits = cg.store.searchSymbols(query, { limit: SYMBOL_HITS });
  const maxSymbol = symbolHits[0]?.score ?? 1;
  for (const h of symbolHits) {
    const d = snap.denseOf(h.node.id);
    if (!allowed(d)) continue;
    const s = entry(d);
    s.lexical = Math.max(s.lexical, h.score / maxSymbol);
    s.why.add('its name matches the query');
  }
  const bodyHits = cg.store.searchDefinitions(query, { limit: SYMBOL_HITS });
  const maxBody = bodyHits[0]?.score ?? 1;
  for (const h of bodyHits) {
    const d = snap.denseOf(h.id);
    if (!allowed(d)) continue;
    const s = entry(d);
    s.body = Math.max(s.body, h.score / maxBody);
    s.why.add('its code uses the words of the query');
  }
  const fileHits = cg.store.searchFiles(query, { limit: FILE_HITS }).filter((f) => fileVisible(cg, snap, visible, f.path));
  const maxFile = fileHits[0]?.score ?? 1;
  const fileLexical = new Map(fileHits.map((f) => [f.path, f.score / maxFile]));
  const mentions = queryMentions(query);
  const mentionedFiles = new Set<string>();
  for (const p of mentions.paths) for (const path of filesMatching(snap, p)) mentionedFiles.add(path);
  // Messages and lines the question quotes, found verbatim (as token runs) in few files.
  const quotedFiles = new Map<string, number>();
  for (const phrase of mentions.phrases) {
    const hits = cg.store.filesWithPhrase(phrase, 4).filter((p) => fileVisible(cg, snap, visible, p));
    if (hits.length === 0 || hits.length > 3) continue;
    for (const p of hits) quotedFiles.set(p, (quotedFiles.get(p) ?? 0) + 1 / hits.length);
  }
  // A word of the question that is a file's or directory's name (`skipping` → skipping.py).
  const nameWordFiles = new Map<string, number>();
  const questionWords = new Set(mentions.words);
  for (const path of fileNodeIndex(snap).keys()) {
    const parts = path.toLowerCase().split('/');
    const stem = parts[parts.length - 1]!.replace(/\.[^.]+$/, '');
    const w =
      questionWords.has(stem) && stem.length >= 4
        ? 1
        : parts.slice(0, -1).some((dir) => dir.length >= 4 && questionWords.has(dir))
          ? 0.5
          : 0;
    if (w > 0 && fileVisible(cg, snap, visible, path)) nameWordFiles.set(path, w);
  }
  const frames = new Set(mentions.frames);
  for (const id of mentions.identifiers) {
    const rows = cg.store.nodesNamed(id, 12).filter((r) => allowed(snap.denseOf(r.id)));
    if (rows.length === 0 || rows.length > 8) continue; // too common a name to be evidence
    for (const r of rows) {
      const s = entry(snap.denseOf(r.id)!);
      s.mention = Math.max(s.mention, (frames.has(id) ? 1.5 : 1) / rows.length);
      s.why.add(frames.has(id) ? `the query's stack trace passes through ${id}` : `the query names ${id}`);
    }
  }

  // Seeds: lexical symbol hits, named symbols, and the file nodes of the best text matches.
  const seeds = new Map<number, number>();
  for (const [d, s] of scored) seeds.set(d, s.lexical + s.body + 2 * s.mention);
  const fileNodes = fileNodeIndex(snap);
  for (const [path, w] of fileLexical) {
    const d = fileNodes.get(path);
    if (allowed(d)) seeds.set(d, (seeds.get(d) ?? 0) + w);
  }
  for (const path of mentionedFiles) {
    const d = fileNodes.get(path);
    if (allowed(d)) seeds.set(d, (seeds.get(d) ?? 0) + 1.5);
  }

  const stageMs: Record<string, number> = {};
  let mark = performance.now();
  const stage = (name: string) => {
    const now = performance.now();
    stageMs[name] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };
  stageMs.lexical = Math.round((mark - t0) * 10) / 10;
  // 2. Relevance spread over the graph.
  const ppr = localPersonalizedPageRank(snap.graph, seeds, {
    direction: 'both',
    weighted: true,
    reverseFactor: 0.7,
    alpha: PPR_ALPHA,
    epsilon: PPR_EPSILON,
    visible,
    limit: 4 * CANDIDATES,
  });
  const pprScore = new Map<number, number>();
  const maxPpr = ppr.scores[0] ?? 1;
  ppr.nodes.forEach((d, i) => pprScore.set(d, ppr.scores[i]! / maxPpr));

  stage('ppr');
  // 3. Structural lift.
  const shells = coreShells(cg, snap);
  let maxShell = 1;
  for (const d of pprScore.keys()) maxShell = Math.max(maxShell, shells[d] ?? 0);

  const W = { ...DEFAULT_WEIGHTS, ...opts.weights };
  // Files: the file's own text match, the best symbol evidence in it, the relevance mass the
  // graph walk left in it, and whether the question names it.
  const signals = new Map<string, FileSignals>();
  const sig = (path: string) => {
    let f = signals.get(path);
    if (!f)
      signals.set(
        path,
        (f = {
          text: fileLexical.get(path) ?? 0,
          symbol: 0,
          body: 0,
          mention: 0,
          ppr: 0,
          named: mentionedFiles.has(path) ? 1 : 0,
          quoted: Math.min(1, (quotedFiles.get(path) ?? 0) / 2),
          nameWord: nameWordFiles.get(path) ?? 0,
          auxiliary: isAuxiliary(path) ? 1 : 0,
        }),
      );
    return f;
  };
  for (const path of fileLexical.keys()) sig(path);
  for (const path of mentionedFiles) sig(path);
  for (const path of quotedFiles.keys()) sig(path);
  for (const path of nameWordFiles.keys()) sig(path);
  for (const [d, s] of scored) {
    if (!allowed(d) || snap.kinds[d] === 'external') continue;
    const f = sig(snap.paths[d]!);
    f.symbol = Math.max(f.symbol, s.lexical);
    f.body = Math.max(f.body, s.body);
    f.mention += s.mention;
  }
  let maxMass = 0;
  for (const [d, p] of pprScore) {
    if (!allowed(d) || snap.kinds[d] === 'external') continue;
    const f = sig(snap.paths[d]!);
    f.ppr += p;
    maxMass = Math.max(maxMass, f.ppr);
  }
  const fileScore = new Map<string, number>();
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
      W.fileNameWord * f.nameWord;
    fileScore.set(path, evidence * (f.auxiliary ? W.auxiliaryFactor : 1));
  }
  let maxFileScore = 0;
  for (const v of fileScore.values()) maxFileScore = Math.max(maxFileScore, v);
  // Final node score: lexical evidence, graph relevance, file-level text match, lift.
  const candidates = new Set<number>([...scored.keys(), ...pprScore.keys()]);
  const score = new Map<number, number>();
  for (const d of candidates) {
    if (!allowed(d) || snap.kinds[d] === 'external') continue;
    const s = scored.get(d);
    const path = snap.paths[d]!;
    const base =
      W.nodeLexical * (s?.lexical ?? 0) +
      W.nodeBody * (s?.body ?? 0) +
      W.nodeMention * Math.min(1, s?.mention ?? 0) +
      W.nodePpr * (pprScore.get(d) ?? 0) +
      W.nodeFileText * (fileLexical.get(path) ?? 0) +
      (mentionedFiles.has(path) ? W.nodePathMention : 0) +
      W.nodeFileRank * (maxFileScore > 0 ? (fileScore.get(path) ?? 0) / maxFileScore : 0);
    const lift = 1 + W.coreLift * ((shells[d] ?? 0) / maxShell);
    score.set(d, base * lift);
  }
  const ranked = [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const top = ranked.slice(0, CANDIDATES);

  stage('score');
  // 4. Connect the winners: PCST over the candidates' induced subgraph.
  const steiner = connectCandidates(snap, top, visible);

  stage('pcst');
  // 5. Snippets within the budget.
  const showable = (d: number) => snap.kinds[d] !== 'file' && snap.kinds[d] !== 'external' && snap.startLines[d]! > 0;
  const definitions = top.filter(([d]) => showable(d)).slice(0, 120);
  for (const d of steiner) if (showable(d) && !definitions.some(([x]) => x === d) && score.has(d)) definitions.push([d, score.get(d)!]);
  const refs = refsOf(
    cg,
    definitions.map(([d]) => d),
  );
  const fileSha = cg.fileSha256s();
  const items: (ContextItem & { dense: number })[] = [];
  for (const [d, sc] of definitions) {
    const ref = refs.get(d);
    if (!ref) continue;
    const why = [...(scored.get(d)?.why ?? [])];
    if (pprScore.has(d) && !scored.has(d)) why.push('connected to the matches in the graph');
    if (steiner.has(d) && !scored.has(d)) why.push('links other results (Steiner tree)');
    if ((fileLexical.get(ref.path) ?? 0) > 0.5) why.push('its file matches the query text');
    if (mentionedFiles.has(ref.path)) why.push('its file is named in the query');
    if ((shells[d] ?? 0) >= maxShell * 0.8 && maxShell > 2) why.push(`structural core (k-shell ${shells[d]})`);
    const snippet =
      ref.startLine === null
        ? undefined
        : cg.sources.snippet(ref.path, ref.startLine, ref.endLine ?? ref.startLine, {
            maxLines: CONTAINERS.has(ref.kind) ? CONTAINER_MAX_LINES : SNIPPET_MAX_LINES,
            indexedSha256: fileSha.get(ref.path),
          });
    const withheld = snippet || ref.startLine === null ? undefined : cg.sources.refusal(ref.path)?.detail;
    const item = {
      dense: d,
      node: ref,
      score: round(sc),
      why: why.length > 0 ? why : ['ranked by graph relevance'],
      snippet: snippet
        ? { startLine: snippet.startLine, endLine: snippet.endLine, text: snippet.text, truncated: snippet.truncated, stale: snippet.stale }
        : null,
      ...(withheld === undefined ? {} : { withheld }),
      tokens: 0,
    };
    item.tokens = countTokens(renderItem(item));
    items.push(item);
  }
  const preamble = countTokens(renderHeader(query, budget, cg.completeness()));
  const capacity = Math.max(0, budget - preamble);
  stage('snippets');
  const pick = knapsack(
    items.map((it) => ({ value: it.score, weight: it.tokens })),
    capacity,
  );
  const chosen = dropNested(pick.chosen.map((i) => items[i]!)).sort((a, b) => b.score - a.score || a.dense - b.dense);

  stage('knapsack');
  const wantFiles = Math.max(20, opts.files ?? 30);
  const files = [...fileScore]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, wantFiles)
    .map(([path, s]) => ({ path, score: round(s), ...(opts.explain ? { signals: signals.get(path)! } : {}) }));
  // Fewer files with evidence than asked for: the rest in order of how much of the code base
  // depends on them (score 0), so a caller always gets a full ranked list.
  if (files.length < wantFiles)
    for (const path of filesByDependents(snap, visible)) {
      if (files.length >= wantFiles) break;
      if (!fileScore.has(path)) files.push({ path, score: 0 });
    }

  const chosenSet = new Set(chosen.map((c) => c.dense));
  const moreIds = ranked
    .filter(([d]) => !chosenSet.has(d) && snap.kinds[d] !== 'file')
    .slice(0, 30)
    .map(([d]) => d);
  const moreRefs = refsOf(cg, moreIds);
  const result: ContextResult = {
    query,
    budget,
    tokens: 0,
    tokenizer: TOKENIZER,
    items: chosen.map(({ dense: _dense, ...it }) => it),
    files,
    more: moreIds.flatMap((d) => {
      const node = moreRefs.get(d);
      return node ? [{ node, score: round(score.get(d)!) }] : [];
    }),
    completeness: cg.completeness(),
    stats: {
      seeds: seeds.size,
      candidates: candidates.size,
      steinerNodes: steiner.size,
      exactKnapsack: pick.exact,
      ms: 0,
      stageMs,
    },
  };
  result.tokens = countTokens(renderContext(result));
  result.stats.ms = Math.round(performance.now() - t0);
  return result;
}

/** The answer as text an agent reads: a header with completeness, then each snippet. */
export function renderContext(r: Pick<ContextResult, 'query' | 'budget' | 'items' | 'completeness'>): string {
  return [renderHeader(r.query, r.budget, r.completeness), ...r.items.map(renderItem)].join('\n');
}

function renderHeader(query: string, budget: number, completeness: Completeness): string {
  return `Context for: ${query.length > 200 ? `${query.slice(0, 200)}…` : query}\nBudget ${budget} tokens (${TOKENIZER}). Graph: ${completeness.summary}\n`;
}

function renderItem(it: Pick<ContextItem, 'node' | 'why' | 'snippet' | 'score' | 'withheld'>): string {
  const head = `## ${location(it.snippet ? { path: it.node.path, startLine: it.snippet.startLine, endLine: it.snippet.endLine } : it.node)} ${it.node.kind} ${it.node.qualifiedName ?? it.node.name} — ${it.why.join('; ')}`;
  if (!it.snippet) return it.withheld === undefined ? `${head}\n` : `${head}\n(source not shown: ${it.withheld})\n`;
  const stale = it.snippet.stale ? '\n(the file changed since it was indexed; lines may be off)' : '';
  return `${head}${stale}\n\`\`\`\n${it.snippet.text}\n\`\`\`\n`;
}

/** A nested chosen item (a method inside a chosen class snippet) repeats code: keep the outer one only when it was not truncated. */
function dropNested<T extends { node: NodeRef; snippet: ContextItem['snippet'] }>(items: T[]): T[] {
  return items.filter(
    (it) =>
      !items.some(
        (o) =>
          o !== it &&
          o.snippet &&
          it.snippet &&
          !o.snippet.truncated &&
          o.node.path === it.node.path &&
          o.snippet.startLine <= it.snippet.startLine &&
          it.snippet.endLine <= o.snippet.endLine &&
          (o.snippet.startLine < it.snippet.startLine || it.snippet.endLine < o.snippet.endLine),
      ),
  );
}

/** PCST over the candidates' induced subgraph; returns the dense nodes of the tree(s). */
function connectCandidates(snap: GraphSnapshot, top: [number, number][], visible: Uint8Array): Set<number> {
  if (top.length < 2) return new Set(top.map(([d]) => d));
  const local = new Map<number, number>();
  top.forEach(([d], i) => local.set(d, i));
  const prizes = new Float64Array(top.length);
  top.forEach(([, s], i) => (prizes[i] = s));
  const src: number[] = [];
  const dst: number[] = [];
  const cost: number[] = [];
  const g = snap.graph;
  for (const [d, i] of local) {
    for (let e = g.outOffsets[d]!; e < g.outOffsets[d + 1]!; e++) {
      const t = g.outTargets[e]!;
      const j = local.get(t);
      if (j === undefined || j === i || visible[t] !== 1) continue;
      src.push(i);
      dst.push(j);
      // Strong, certain edges are cheap to include; a name-matched import is dear.
      cost.push(0.05 / (pprWeight(GraphSnapshot.edgeKind(g.outKinds[e]!)) * Math.max(0.2, g.outConfidence[e]!)));
    }
  }
  if (src.length === 0) return new Set();
  const r = prizeCollectingSteinerTree(prizes, { src, dst, cost }, { maxTrees: 5 });
  return new Set([...r.nodes].map((i) => top[i]![0]));
}

/** Visible files by the number of edges into their nodes from other files, most first (cached per visibility mask, itself cached per snapshot and policy). */
function filesByDependents(snap: GraphSnapshot, visible: Uint8Array): string[] {
  const cached = dependentsCache.get(visible);
  if (cached) return cached;
  const g = snap.graph;
  const count = new Map<string, number>();
  for (let d = 0; d < snap.nodeCount; d++) {
    if (visible[d] !== 1 || snap.kinds[d] === 'external') continue;
    const path = snap.paths[d]!;
    let n = count.get(path) ?? 0;
    for (let e = g.inOffsets[d]!; e < g.inOffsets[d + 1]!; e++) if (snap.paths[g.inSources[e]!] !== path) n++;
    count.set(path, n);
  }
  const ranked = [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
  dependentsCache.set(visible, ranked);
  return ranked;
}
const dependentsCache = new WeakMap<Uint8Array, string[]>();

/** Dense index of each file's `file` node. */
function fileNodeIndex(snap: GraphSnapshot): Map<string, number> {
  const cached = fileNodeCache.get(snap);
  if (cached) return cached;
  const m = new Map<string, number>();
  for (let d = 0; d < snap.nodeCount; d++) if (snap.kinds[d] === 'file') m.set(snap.paths[d]!, d);
  fileNodeCache.set(snap, m);
  return m;
}
const fileNodeCache = new WeakMap<GraphSnapshot, Map<string, number>>();

/** Indexed files a mentioned path names (exact, or the mention is a suffix: `models.py` → `requests/models.py`). */
function filesMatching(snap: GraphSnapshot, mention: string): string[] {
  const files = [...fileNodeIndex(snap).keys()];
  const exact = files.filter((f) => f === mention);
  if (exact.length > 0) return exact;
  const parts = mention.split('/');
  // Try ever shorter suffixes of the mention (a stack frame's absolute path ends in the repo path).
  for (let i = 0; i < parts.length; i++) {
    const suffix = parts.slice(i).join('/');
    const hits = files.filter((f) => f === suffix || f.endsWith(`/${suffix}`));
    if (hits.length > 0 && hits.length <= 3) return hits;
    if (hits.length > 3) return [];
  }
  return [];
}

function fileVisible(cg: CodeGraph, snap: GraphSnapshot, visible: Uint8Array, path: string): boolean {
  const d = fileNodeIndex(snap).get(path);
  return d !== undefined ? visible[d] === 1 : cg.store.fileNodes(path).some((n) => visible[snap.denseOf(n.id) ?? -1] === 1);
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
