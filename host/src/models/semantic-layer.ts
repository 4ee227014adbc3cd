import type { Logger } from '../log/logger.js';
import type { SemanticReport } from '../retrieval/context-result.js';
import { RepoFileReader } from '../retrieval/repo-file-reader.js';
import { missingVectorsNote } from '../retrieval/vector-channel.js';
import type { GraphStore } from '../store/index.js';
import type { ToolCallExtras } from '../tools/tool-runner.js';
import { WarmModel } from './warm-model.js';

/** How long embedding one question, or scoring one shortlist, may take once the model runs. */
export const SEMANTIC_TIMEOUT_MS = 2_000;
/** The best definitions of a first answer the reranker scores. */
export const RERANK_CANDIDATES = 20;
/** Lines of a candidate's code (from its first line) the reranker reads. */
const CANDIDATE_LINES = 40;

/** A repository a tool call reads, as the semantic layer needs it. */
export interface SemanticRepo {
  root: string;
  corpus: string;
  store: Pick<GraphStore, 'vectorModels' | 'getFile'>;
}

/** A definition of a first answer, as its structured content gives it (`functions`). */
export interface ShortlistEntry {
  id: string;
  kind: string;
  path: string;
  qualified_name: string;
  corpus: string;
  start_line: number | null;
  end_line: number | null;
}

/** How {@link SemanticLayer.call} runs the tool: a first answer's shortlist, and the answer itself. */
export interface SemanticRun<R> {
  /** The answer, with what the layer prepared. */
  answer(extras: ToolCallExtras): Promise<R>;
  /** The `functions` of the answer with these extras (run only when a reranker is registered). */
  shortlist(extras: ToolCallExtras): Promise<readonly ShortlistEntry[]>;
}

/**
 * The query side of the semantic layer, in the process that receives tool calls, around the
 * synchronous tools: before get_context runs, the question is embedded by the registered
 * embedding model (the vector channel); when a cross-encoder is registered, the first answer's
 * best definitions are scored against the question and the answer is made again in the model's
 * order (an arbiter over what the graph found, never a source of candidates). Every model call
 * is bounded ({@link SEMANTIC_TIMEOUT_MS}); a model that cannot serve is reported in the answer,
 * which is then the lexical and graph one (or the unreranked order), and left off for a minute.
 * Without registered models it only runs the tool.
 */
export class SemanticLayer {
  private readonly embedder: WarmModel;
  private readonly reranker: WarmModel;
  private readonly timeoutMs: number;

  constructor(logger: Logger, options: { timeoutMs?: number } = {}) {
    this.embedder = new WarmModel('embed', logger);
    this.reranker = new WarmModel('rerank', logger);
    this.timeoutMs = options.timeoutMs ?? SEMANTIC_TIMEOUT_MS;
  }

  /** Runs tool `name` through `run`, with the vector channel and the reranker when they apply. */
  async call<R>(name: string, args: unknown, repos: readonly SemanticRepo[], run: SemanticRun<R>): Promise<R> {
    const query = name === 'get_context' ? (args as { query?: unknown } | undefined)?.query : undefined;
    if (typeof query !== 'string' || query.length === 0) return run.answer({});
    const extras = await this.vector(query, repos);
    const model = await this.reranker.registered();
    const broken = this.reranker.registrationProblem();
    if (!model && broken)
      return run.answer({ ...extras, semantic: { ...extras.semantic, rerank: { model: 'rerank', scored: 0, ms: 0, note: broken } } });
    if (!model) return run.answer(extras);
    // Every reranker note is a passing state (left off after a failure, a failure now): not to be cached.
    const note = (why: string, ms = 0): ToolCallExtras => ({
      ...extras,
      semantic: { ...extras.semantic, rerank: { model: model.key, scored: 0, ms, note: why } } satisfies SemanticReport,
      transient: true,
    });
    const off = this.reranker.off();
    if (off) return run.answer(note(off));
    const shortlist = (await run.shortlist(extras)).slice(0, RERANK_CANDIDATES);
    if (shortlist.length < 2) return run.answer(extras);
    const texts = candidateTexts(shortlist, repos);
    const t0 = performance.now();
    let scores: number[];
    try {
      scores = await this.reranker.use(model, (c) => c.score(query, texts, { timeoutMs: this.timeoutMs }));
    } catch (e) {
      return run.answer(note(`${(e as Error).message}; the unreranked order`, Math.round(performance.now() - t0)));
    }
    return run.answer({
      ...extras,
      rerank: {
        model: model.key,
        scores: new Map(shortlist.map((s, i) => [s.id, scores[i]!])),
        ms: Math.round((performance.now() - t0) * 10) / 10,
      },
    });
  }

  /** The registered models, as a cache keys answers on them (`embed:<key>|rerank:<key>`). */
  async models(): Promise<string> {
    const [embed, rerank] = await Promise.all([this.embedder.registered(), this.reranker.registered()]);
    return `embed:${embed?.key ?? '-'}|rerank:${rerank?.key ?? '-'}`;
  }

  /** Stops the models' sessions. */
  async close(): Promise<void> {
    await Promise.all([this.embedder.close(), this.reranker.close()]);
  }

  /** The vector channel's part: the question embedded, or why it is not. */
  private async vector(query: string, repos: readonly SemanticRepo[]): Promise<ToolCallExtras> {
    const model = await this.embedder.registered();
    const broken = this.embedder.registrationProblem();
    if (!model && broken) return { semantic: { vector: { model: 'embed', hits: 0, ms: 0, note: broken } }, transient: true };
    if (!model) return {};
    const off = (note: string, transient: boolean): ToolCallExtras => ({
      semantic: { vector: { model: model.key, hits: 0, ms: 0, note } },
      ...(transient ? { transient } : {}),
    });
    const missing = missingVectorsNote(
      model.key,
      repos.flatMap((r) => r.store.vectorModels().map((m) => m.model)),
    );
    if (missing) return off(missing, false);
    const down = this.embedder.off();
    if (down) return off(down, true);
    try {
      const [vector] = await this.embedder.use(model, (c) => c.embed([query], { timeoutMs: this.timeoutMs }));
      return { queryVector: { model: model.key, vector: vector! } };
    } catch (e) {
      return off((e as Error).message, true);
    }
  }
}

/** What the reranker reads of each candidate: its kind and name, then its first lines of code. */
function candidateTexts(shortlist: readonly ShortlistEntry[], repos: readonly SemanticRepo[]): string[] {
  const readers = new Map(repos.map((r) => [r.corpus, { reader: new RepoFileReader(r.root), repo: r }]));
  const files = new Map<string, string[] | undefined>();
  return shortlist.map((s) => {
    const head = `${s.kind} ${s.qualified_name}`;
    const at = readers.get(s.corpus);
    if (!at || s.start_line === null) return head;
    const key = `${s.corpus}\0${s.path}`;
    if (!files.has(key)) {
      const read = at.reader.read(s.path, at.repo.store.getFile(s.path)?.sha256);
      // A file changed since it was indexed: its line ranges are stale, the candidate is its head only.
      files.set(key, read.ok && !read.changed ? read.bytes.toString('utf8').split('\n') : undefined);
    }
    const lines = files.get(key);
    if (!lines) return head;
    const last = Math.min(s.end_line ?? s.start_line, s.start_line + CANDIDATE_LINES - 1);
    return [head, ...lines.slice(s.start_line - 1, last)].join('\n');
  });
}
