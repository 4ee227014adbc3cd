import { resolve } from 'node:path';
import type { IndexProgress } from '../indexer/indexer.js';
import type { IndexSummary } from '../indexer/index-summary.js';
import type { Logger } from '../log/logger.js';
import type { AccessPolicy } from '../retrieval/access-policy.js';
import { TOOL_DEFINITIONS } from '../tools/tool-definitions.js';
import { ToolPool } from '../tools/tool-pool.js';
import type { JsonParts } from '../tools/tool-runner.js';
import { persistentTraceSink } from '../traces/trace-sink.js';
import { indexWorkspace } from '../workspace/index-workspace.js';
import { forgetRepo, knownRepos, rememberRepo } from '../workspace/known-repos.js';
import { initializedGitRoot } from '../workspace/initialized-root.js';
import type {
  AnswerParts,
  CallToolReply,
  CallToolRequest,
  CacheStatus,
  GraphChange,
  RepoReply,
  RepoStatus,
  ToolDefinitionMessage,
} from './daemon-service.js';
import { DaemonError, DaemonErrorCode } from './errors.js';
import { ManagedRepo } from './managed-repo.js';
import { QueryCache, type CachedAnswer } from './query-cache.js';
import { SemanticLayer } from '../models/semantic-layer.js';
import { semanticRun } from '../models/semantic-repos.js';
import type { UpdateEvent } from './repo-updater.js';

/** Options of a {@link DaemonCore}. */
export interface DaemonCoreOptions {
  logger: Logger;
  /** Manage only these repositories (`--repo`); default: every known one (`travsr init`, `daemon add`). */
  repos?: readonly string[];
  /** Tool calls at once (worker threads). */
  toolWorkers: number;
  /** Default limit of one tool call (ms). */
  toolTimeoutMs: number;
  cache: { maxEntries: number; maxBytes: number };
}

/**
 * What the daemon does, apart from how it is reached: the repositories it manages (each
 * watched and kept up to date), the tool calls it answers through a query cache, and the
 * stream of graph changes. The gRPC server (`daemon-server.ts`) is a thin layer over it.
 */
export class DaemonCore {
  readonly startedAt = Date.now();
  private readonly repos = new Map<string, ManagedRepo>();
  private readonly opening = new Map<string, Promise<ManagedRepo>>();
  private pool: ToolPool | undefined;
  private readonly cache: QueryCache;
  private readonly listeners = new Set<(c: GraphChange) => void>();
  private closed = false;
  /** The semantic layer (vector channel, reranker), its models' sessions kept warm. */
  private readonly semantic: SemanticLayer;

  constructor(private readonly opts: DaemonCoreOptions) {
    this.cache = new QueryCache(opts.cache);
    this.semantic = new SemanticLayer(opts.logger);
  }

  /** Opens every repository to manage; one that cannot be opened is logged and left out. */
  async start(): Promise<void> {
    const roots = this.opts.repos ? this.opts.repos.map((r) => resolve(r)) : knownRepos();
    for (const root of roots) {
      try {
        await this.open(root);
      } catch (e) {
        this.opts.logger.log('warn', `daemon: not managing ${root}: ${(e as Error).message}`);
      }
    }
    // The workers start now (threads, retrieval modules), not at the first question.
    this.tools_();
  }

  /** The managed repositories' roots, sorted. */
  roots(): string[] {
    return [...this.repos.keys()].sort();
  }

  /** The managed repository holding `path`, if any. */
  repoOf(path: string): ManagedRepo | undefined {
    const abs = resolve(path);
    // A managed root named as such (every tool call names its repositories) needs no look-up on disk.
    const direct = this.repos.get(abs);
    if (direct) return direct;
    const root = initializedGitRoot(abs) ?? abs;
    return this.repos.get(root) ?? [...this.repos.values()].find((r) => abs === r.root || abs.startsWith(`${r.root}/`));
  }

  /** Starts managing a repository (remembered for the next start too). */
  async addRepo(path: string): Promise<RepoReply> {
    const known = this.repoOf(path);
    if (known) return { root: known.root, changed: false, message: `${known.root} is managed already` };
    const repo = await this.open(resolve(path));
    rememberRepo(repo.root);
    this.tools_();
    return { root: repo.root, changed: true, message: `managing ${repo.root}` };
  }

  /** Stops managing a repository (and forgets it, so the next start leaves it out). */
  async removeRepo(path: string): Promise<RepoReply> {
    const repo = this.repoOf(path);
    const root = repo?.root ?? resolve(path);
    forgetRepo(root);
    if (!repo) return { root, changed: false, message: `${root} was not managed` };
    this.repos.delete(repo.root);
    this.resetTools();
    await repo.close();
    return { root, changed: true, message: `no longer managing ${root}` };
  }

  /** Closes and opens every repository again (its configuration is read anew). */
  async reloadConfig(): Promise<number> {
    const roots = this.roots();
    for (const root of roots) {
      const repo = this.repos.get(root)!;
      this.repos.delete(root);
      await repo.close();
    }
    this.resetTools();
    for (const root of roots)
      await this.open(root).catch((e: unknown) => this.opts.logger.log('warn', `daemon: ${root}: ${(e as Error).message}`));
    return this.repos.size;
  }

  /** Status of the repositories named (all when none). */
  async status(roots: readonly string[]): Promise<RepoStatus[]> {
    const repos = roots.length > 0 ? roots.map((r) => this.mustRepo(r)) : [...this.repos.values()];
    return Promise.all(repos.map((r) => r.status()));
  }

  cacheStatus(): CacheStatus {
    return this.cache.stats();
  }

  /** A repository's HEAD moved: its graph follows (`wait`: resolves once it has). */
  async notifyCommit(path: string, wait: boolean): Promise<boolean> {
    const repo = this.repoOf(path);
    if (!repo) return false;
    repo.updater.commit();
    if (wait) await repo.updater.idle();
    return true;
  }

  /** A full index (or rebuild) of a managed repository, under its lock like every update. */
  async index(path: string, mode: 'full' | 'rebuild', onProgress: (p: IndexProgress) => void): Promise<IndexSummary> {
    const repo = this.mustRepo(path);
    await repo.updater.idle();
    const summary = await indexWorkspace(
      repo.ws,
      { kind: 'full', ...(mode === 'rebuild' ? { rebuild: true } : {}) },
      {
        progress: false,
        extra: { onProgress },
      },
    );
    this.publish(repo, {
      stage: 'done',
      cause: 'full',
      files: [],
      graphVersion: repo.ws.store.graphVersion(),
      ms: summary.durationMs,
      summary,
    });
    return summary;
  }

  /** The tools, as ListTools gives them. */
  tools(): ToolDefinitionMessage[] {
    return Object.values(TOOL_DEFINITIONS).map((d) => ({
      name: d.name,
      title: d.title,
      description: d.description,
      inputSchemaJson: JSON.stringify(d.inputSchema),
    }));
  }

  /**
   * Runs a tool over the managed repositories the call names (all when none) as the caller
   * may see them, answering from the query cache when the same call was answered at the same
   * graph versions.
   */
  async callTool(req: CallToolRequest, signal?: AbortSignal): Promise<CallToolReply> {
    const repos = req.repos.length > 0 ? req.repos.map((r) => this.mustRepo(r)) : [...this.repos.values()];
    const corpora = repos.map((r) => r.corpus);
    const policy: AccessPolicy = {
      corpora: req.fullAccess ? corpora : req.corpora.filter((c) => corpora.includes(c)),
      groups: req.groups,
    };
    let args: unknown;
    try {
      args = req.argumentsJson === '' ? {} : JSON.parse(req.argumentsJson);
    } catch (e) {
      throw new DaemonError(DaemonErrorCode.CallFailed, `the arguments of ${req.tool} are not JSON: ${(e as Error).message}`);
    }
    const versions = new Map(repos.map((r) => [r.root, r.ws.store.graphVersion()]));
    // `travsr embed` changes answers without changing the graph: the vectors' version is part of the key.
    const also = new Map(repos.map((r) => [r.root, r.ws.store.vectorVersion()]));
    const models = await this.semantic.models();
    const key = QueryCache.key({ tool: req.tool, args, corpora: policy.corpora, groups: policy.groups, versions, also, models });
    const parts = jsonParts(req.parts);
    const hit = this.cache.get(key, parts);
    if (hit) return reply(hit, true, versions, req.parts);
    const timeout = req.timeoutMs > 0 ? AbortSignal.timeout(req.timeoutMs) : undefined;
    const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    // A call reading another part than the one kept gets the whole answer, which replaces it.
    const held = this.cache.heldParts(key);
    const made = held === undefined || held === parts ? parts : 'both';
    const signal_ = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    let transient = false;
    const answer = await this.semantic.call(
      req.tool,
      args,
      repos.map((r) => ({ root: r.root, corpus: r.corpus, store: r.ws.store })),
      semanticRun(
        (extras) => {
          transient = extras.transient === true;
          return this.tools_().runJson(req.tool, args, policy, signal_, made, extras);
        },
        (extras) => this.tools_().run(req.tool, args, policy, signal_, extras),
      ),
    );
    // An answer a model failed to help with is not kept: the next call may have it.
    if (!transient) this.cache.set(key, answer, versions, made);
    return reply(answer, false, versions, req.parts);
  }

  /** Listens to graph changes; returns the function that stops listening. */
  onChange(listener: (c: GraphChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits until no repository has an update queued or running (tests, benchmarks). */
  async settled(): Promise<void> {
    await Promise.all([...this.repos.values()].map((r) => r.updater.idle()));
  }

  /** Stops watching, waits for the updates under way, closes stores and tool workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.repos.values()].map((r) => r.close()));
    this.repos.clear();
    await this.pool?.close();
    this.pool = undefined;
    await this.semantic.close();
  }

  private mustRepo(path: string): ManagedRepo {
    const repo = this.repoOf(path);
    if (!repo)
      throw new DaemonError(
        DaemonErrorCode.InvalidOption,
        `the daemon does not manage ${resolve(path)}; add it with \`travsr daemon add ${path}\` (it must be \`travsr init\`-ed)`,
      );
    return repo;
  }

  private async open(root: string): Promise<ManagedRepo> {
    const pending = this.opening.get(root);
    if (pending) return pending;
    const opening = ManagedRepo.open(
      root,
      (repo, e) => this.publish(repo, e),
      (r, changes) => this.pool?.noteChanges(r, changes),
    );
    this.opening.set(root, opening);
    try {
      const repo = await opening;
      if (this.closed) {
        await repo.close();
        throw new DaemonError(DaemonErrorCode.CallFailed, 'the daemon is stopping');
      }
      this.repos.set(repo.root, repo);
      this.resetTools();
      return repo;
    } finally {
      this.opening.delete(root);
    }
  }

  private publish(repo: ManagedRepo, e: UpdateEvent): void {
    if (e.stage === 'done') {
      const s = e.summary;
      this.opts.logger.log(
        'info',
        `daemon: ${repo.root}: ${e.cause} update of ${e.files.length} paths in ${Math.round(e.ms)} ms${s ? ` (${s.analyzed} analyzed, ${s.unchanged} unchanged, ${s.failed} failed, ${s.removed} removed)` : ''}, graph version ${e.graphVersion}`,
      );
    }
    if (e.stage === 'failed') return;
    this.cache.dropStale(repo.root, e.graphVersion);
    const change: GraphChange = {
      root: repo.root,
      graphVersion: e.graphVersion,
      stage: changeStage(e),
      files: [...e.files].slice(0, 1000),
      at: Date.now(),
    };
    for (const l of this.listeners) l(change);
  }

  /** The tool workers, over the repositories managed now. */
  private tools_(): ToolPool {
    if (!this.pool) {
      const repos = [...this.repos.values()];
      this.pool = new ToolPool({
        graphs: repos.map((r) => ({ root: r.root, corpus: r.corpus })),
        size: this.opts.toolWorkers,
        timeoutMs: this.opts.toolTimeoutMs,
        saveTrace: persistentTraceSink(repos[0]?.root, this.opts.logger),
      });
    }
    return this.pool;
  }

  /** The set of repositories changed: the workers (and cached answers) are made anew. */
  private resetTools(): void {
    const old = this.pool;
    this.pool = undefined;
    this.cache.clear();
    void old?.close();
  }
}

/** The reply of a `CallTool`: the parts of the answer the caller asked for (an error's text always). */
function reply(r: CachedAnswer, cached: boolean, versions: ReadonlyMap<string, number>, parts: AnswerParts | undefined): CallToolReply {
  return {
    text: parts === 'ANSWER_PARTS_STRUCTURED' && !r.isError ? '' : r.text,
    structuredJson: parts === 'ANSWER_PARTS_TEXT' ? '' : r.structuredJson,
    traceId: r.traceId,
    isError: r.isError,
    cached,
    graphVersions: Object.fromEntries(versions),
  };
}

/** The parts of an answer the worker makes for a call asking `parts` (the default: both). */
function jsonParts(parts: AnswerParts | undefined): JsonParts {
  return parts === 'ANSWER_PARTS_TEXT' ? 'text' : parts === 'ANSWER_PARTS_STRUCTURED' ? 'structured' : 'both';
}

/** The stream's name of an update event: its stage while it runs; once it ended, its cause (a watched edit's end is its resolved graph). */
function changeStage(e: UpdateEvent): GraphChange['stage'] {
  if (e.stage === 'phase-a' || e.stage === 'phase-b') return e.stage;
  return e.cause === 'watch' ? 'phase-b' : e.cause;
}
