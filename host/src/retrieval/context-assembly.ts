import type { AccessPolicy } from './access-policy.js';
import { connectCandidates } from './candidate-tree.js';
import type { CodeGraph } from './code-graph.js';
import { chooseItems, contextItems, isShowable, moreNodes, showableDefinitions, withLeading } from './context-items.js';
import { leadingDefinitions, renderedContextTokens, renderHeader } from './context-render.js';
import type { ContextResult, RankedFunction, RerankScores, SemanticReport } from './context-result.js';
import { rankDefinitions, type RankedDefinition } from './definition-ranking.js';
import { refsOf } from './graph-queries.js';
import { DEFAULT_WEIGHTS, type ContextWeights } from './context-weights.js';
import { rankedFileList, rankFiles } from './file-ranking.js';
import { lexicalEvidence, lexicalSeeds } from './lexical-evidence.js';
import { scoreNodes, structuralCore } from './node-scoring.js';
import { spreadRelevance } from './relevance-spread.js';
import { StageClock } from './stage-clock.js';
import { countTokens, TOKENIZER } from './token-count.js';
import { roundScore } from './score-rounding.js';
import { vectorChannel, type QueryVector } from './vector-channel.js';
import { visibleGraph, type VisibleGraph } from './visible-graph.js';

export type { ContextItem, ContextResult, RerankScores, SemanticReport } from './context-result.js';
export type { QueryVector } from './vector-channel.js';
export { DEFAULT_WEIGHTS, type ContextWeights } from './context-weights.js';
export { isAuxiliary, type FileSignals } from './file-ranking.js';
export { renderContext } from './context-render.js';

/** Options of {@link getContext}. */
export interface ContextOptions {
  policy: AccessPolicy;
  /** Hard limit on the rendered answer's tokens (default 8000, at least 200). */
  budget?: number;
  /** Ranked files to return (default 30). */
  files?: number;
  /** Other weights than {@link DEFAULT_WEIGHTS} (for evaluation and tuning). */
  weights?: Partial<ContextWeights>;
  /** Ranked definitions to return (default 20). */
  functions?: number;
  /** Put each file's and definition's signals (`FileSignals`, `DefinitionSignals`) in the result (for evaluation and tuning). */
  explain?: boolean;
  /** The question's embedding (a registered embedding model): turns the vector channel on. */
  queryVector?: QueryVector;
  /** A cross-encoder's scores of the best definitions (a first answer's): they are ordered by them. */
  rerank?: RerankScores;
  /** What the caller has to say of the semantic layer when the channel could not run (no vectors, a failed model): put in the answer as it is. */
  semantic?: SemanticReport;
}

// Tuning (checked by the localization benchmark, see test/bench/localization.js).
// The best-scored nodes that go on to the Steiner tree and the snippets; PPR keeps four times as many.
const CANDIDATES = 300;
const MIN_BUDGET = 200;

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
  const clock = new StageClock();
  const budget = Math.max(MIN_BUDGET, Math.floor(opts.budget ?? 8000));
  const g = visibleGraph(cg, opts.policy);

  // 1. Lexical evidence (and the vector channel's, when the question was embedded), and the seeds of the graph walk.
  const channel = opts.queryVector ? vectorChannel(g, opts.queryVector) : undefined;
  const evidence = { ...lexicalEvidence(g, query), ...(channel ? { vector: channel.hits } : {}) };
  const seeds = lexicalSeeds(g, evidence);
  clock.stage('lexical');

  // 2. Relevance spread over the graph.
  const relevance = spreadRelevance(g, seeds, 4 * CANDIDATES);
  clock.stage('ppr');

  // 3. Structural lift; files ranked on all the evidence; the final node scores.
  const core = structuralCore(g, relevance);
  const W = { ...DEFAULT_WEIGHTS, ...opts.weights };
  const fileRanking = rankFiles(g, evidence, relevance, W);
  const nodes = scoreNodes(g, evidence, relevance, fileRanking, core, W);
  const ranked = reranked(
    g,
    rankDefinitions(g, evidence, relevance, fileRanking, W, Math.max(opts.functions ?? 20, leadingDefinitions(budget))),
    opts.rerank,
  );
  const functions = rankedFunctions(g, ranked.slice(0, opts.functions ?? 20), opts.explain, opts.rerank);
  const top = nodes.ranked.slice(0, CANDIDATES);
  clock.stage('score');

  // 4. Connect the winners: PCST over the candidates' induced subgraph.
  const tree = connectCandidates(g, top);
  clock.stage('pcst');

  // 5. Snippets within the budget (the header is paid for first).
  // The definitions the answer leads with have their code shown first.
  const leading = ranked.slice(0, leadingDefinitions(budget)).filter((r) => isShowable(g.snap, r.dense));
  const definitions = withLeading(
    showableDefinitions(g, top, tree, nodes.score),
    leading.map((r) => [r.dense, r.score] as const),
  );
  const items = contextItems(g, definitions, { evidence, relevance, core, tree, leading: new Map(leading.map((r) => [r.dense, r.why])) });
  const semantic = semanticReport(channel, opts, ranked);
  const capacity = Math.max(0, budget - countTokens(renderHeader(query, budget, cg.completeness(), functions, semantic)));
  clock.stage('snippets');
  const pick = chooseItems(
    items,
    capacity,
    leading.map((r) => r.dense),
  );
  clock.stage('knapsack');

  const files = rankedFileList(g, fileRanking, Math.max(20, opts.files ?? 30), opts.explain);
  const more = moreNodes(g, nodes.ranked, pick.chosen);
  clock.stage('lists');
  const result: ContextResult = {
    query,
    budget,
    tokens: 0,
    tokenizer: TOKENIZER,
    items: pick.chosen.map(({ dense: _dense, codeTokens: _codeTokens, ...it }) => it),
    files,
    functions,
    more,
    completeness: cg.completeness(),
    ...(semantic ? { semantic } : {}),
    stats: {
      seeds: seeds.size,
      candidates: nodes.candidates,
      steinerNodes: tree.size,
      exactKnapsack: pick.exact,
      ms: 0,
      stageMs: clock.stageMs,
    },
  };
  result.tokens = renderedContextTokens(
    result,
    pick.chosen.map((c) => c.codeTokens),
  );
  clock.stage('render');
  result.stats.ms = clock.elapsedMs();
  return result;
}

/** The function stage's definitions as the answer gives them: node, score, reasons (and signals when `explain`, the reranker's score when it ran). */
function rankedFunctions(
  g: VisibleGraph,
  ranked: readonly RankedDefinition[],
  explain: boolean | undefined,
  rerank: RerankScores | undefined,
): RankedFunction[] {
  const refs = refsOf(
    g.cg,
    ranked.map((r) => r.dense),
  );
  return ranked.flatMap((r) => {
    const node = refs.get(r.dense);
    if (!node) return [];
    const rerankScore = rerank?.scores.get(node.id);
    return [
      {
        node,
        score: roundScore(r.score),
        why: r.why,
        ...(explain ? { signals: r.signals } : {}),
        ...(rerankScore !== undefined ? { rerankScore: roundScore(rerankScore) } : {}),
      },
    ];
  });
}

/**
 * The function stage's order after the reranker: the definitions it scored (the first answer's
 * best) first, by its score (ties: their own order), then the others as they were. It never adds a
 * definition: one it scored that is not ranked here (the graph moved meanwhile) is ignored.
 */
function reranked(g: VisibleGraph, ranked: RankedDefinition[], rerank: RerankScores | undefined): RankedDefinition[] {
  if (!rerank || rerank.scores.size === 0) return ranked;
  const refs = refsOf(
    g.cg,
    ranked.map((r) => r.dense),
  );
  const scored: [RankedDefinition, number, number][] = [];
  const rest: RankedDefinition[] = [];
  ranked.forEach((r, i) => {
    const s = rerank.scores.get(refs.get(r.dense)?.id ?? '');
    if (s === undefined) rest.push(r);
    else {
      scored.push([r, s, i]);
      r.why = [`the reranker scored it ${roundScore(s)}`, ...r.why];
    }
  });
  scored.sort((a, b) => b[1] - a[1] || a[2] - b[2]);
  return [...scored.map(([r]) => r), ...rest];
}

/** What the answer says of the semantic layer: the vector channel's hits or note, the reranker's run or note. */
function semanticReport(
  channel: ReturnType<typeof vectorChannel> | undefined,
  opts: ContextOptions,
  ranked: readonly RankedDefinition[],
): SemanticReport | undefined {
  const report: SemanticReport = { ...opts.semantic };
  if (channel && opts.queryVector)
    report.vector = {
      model: opts.queryVector.model,
      hits: channel.hits.size,
      ms: Math.round(channel.ms * 10) / 10,
      ...(channel.note ? { note: channel.note } : {}),
    };
  if (opts.rerank)
    report.rerank = { model: opts.rerank.model, scored: Math.min(opts.rerank.scores.size, ranked.length), ms: opts.rerank.ms };
  return report.vector || report.rerank ? report : undefined;
}
