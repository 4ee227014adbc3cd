import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { cp } from 'node:fs/promises';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { TravsrError } from '@travsr/protocol';
import type { AnalyzeFile, Node } from '../index.js';
import type { FileAnalysis, FileContext, FileResult, ProgramContext, SessionCapabilities, SessionInfo, SourceFile } from '../definition.js';
import { FileGraphBuilder } from '../graph-builder.js';
import type { PhaseASyntax } from '../tree-sitter/tags-syntax.js';
import { runExternalIndexer } from './external-indexer.js';
import { ScipGraph, type ScipGraphOptions } from './scip-graph.js';
import { startProxyBridge, type ProxyBridge, type ToolProxy } from './proxy-bridge.js';

/** The tools the host found for a session (`initialize.options.tools`): name → absolute path inside the sandbox. */
export type ToolPaths = Readonly<Record<string, string>>;

/** What {@link ScipIndexer.invocation} is given for one project. */
export interface ScipProjectRun {
  /** The repository root, absolute. */
  readonly root: string;
  /** The directory the tool runs in, absolute: the project's (the root, or a directory holding its build file), or its copy ({@link ScipIndexer.copyProject}). */
  readonly projectDir: string;
  /** The project's directory relative to the root (`''` for the root). */
  readonly project: string;
  /** Every tool the host found, by name. */
  readonly tools: ToolPaths;
  /** Where the indexer must write its index. */
  readonly output: string;
  /** A private writable directory for this run (caches, build output). */
  readonly scratchDir: string;
  /** The environment every indexer gets ({@link indexerEnv}, with the proxy), to extend. */
  readonly env: NodeJS.ProcessEnv;
  /**
   * The plugin's private cache directory kept between sessions (`constraints.cache`,
   * `initialize.options.cacheDir`), for what a build downloads (Maven, Gradle, NuGet caches);
   * undefined when the manifest asks for none. The host may empty it at any time.
   */
  readonly cacheDir?: string;
  /**
   * In the elevated tier, the host's allowlist proxy on loopback (already in `env` as
   * `HTTPS_PROXY`/`HTTP_PROXY`; JVM tools take it as `-Dhttps.proxyHost`/`-Dhttps.proxyPort`).
   */
  readonly proxy?: ToolProxy;
}

/** How to start the indexer on one project. */
export interface ScipInvocation {
  /** Default: the path of the indexer's first tool. */
  readonly command?: string;
  readonly args: readonly string[];
  /** Default: the run's `env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Default: the project's directory. */
  readonly cwd?: string;
  /**
   * Where the tool writes its index when it cannot be told (scip-php always writes `index.scip`
   * in its working directory): absolute, or relative to `cwd`. It is moved to the run's `output`.
   * Default: the run's `output` (the tool was given it).
   */
  readonly writes?: string;
}

/**
 * A SCIP indexer as a plugin runs it: the tools it needs, where the projects of a repository
 * are, the command line for one of them, and how its index reads. Everything else — finding
 * the projects, running the tool in the plugin's sandbox with a time limit and heartbeats,
 * reading the index a document at a time, merging its resolutions into the Phase A graph — is
 * {@link ScipAnalyzer}'s.
 *
 * @example
 * ```ts
 * const scipRuby: ScipIndexer = {
 *   name: 'scip-ruby',
 *   tools: ['scip-ruby'],
 *   installHint: 'install scip-ruby (https://github.com/sourcegraph/scip-ruby/releases) on PATH',
 *   invocation: ({ output }) => ({ args: ['--index-file', output, '.'] }),
 * };
 * ```
 */
export interface ScipIndexer {
  /** The indexer's name in logs and messages: `scip-ruby`. */
  readonly name: string;
  /**
   * The tools it needs, as the manifest's `constraints.tools` names them, the indexer first
   * (`['scip-go', 'go']`): any one missing makes Phase B unavailable for the session.
   */
  readonly tools: readonly string[];
  /** The language as users name it (`Ruby`), in messages. */
  readonly languageName: string;
  /** What to do when the indexer is missing, appended to the reason: `install it with …`. */
  readonly installHint: string;
  /** What to do when another of its tools is missing (`{ go: 'install Go (https://go.dev/dl/)' }`). */
  readonly toolHints?: Readonly<Record<string, string>>;
  /**
   * The projects to index, relative to the root (`''` = the root): e.g. {@link projectDirs}
   * with the build files of the language. Default: the root alone. An empty list means there is
   * nothing the indexer can run on; Phase B then keeps the Phase A graph and says why.
   */
  projects?(root: string): Promise<readonly string[]>;
  /** The command line for one project. */
  invocation(run: ScipProjectRun): ScipInvocation;
  /** How the index's occurrences are read ({@link ScipGraphOptions}). */
  readonly graph?: Pick<ScipGraphOptions, 'callOfType' | 'unspecifiedEncoding'>;
  /** Default 20 minutes per project. */
  readonly timeoutMs?: number;
  /** What a file the index does not hold is told (a `NOT_IN_SCIP_INDEX` info diagnostic). */
  readonly notIndexed?: string;
  /** What the message says when no project was found (e.g. `no compile_commands.json`). */
  readonly noProjects?: string;
  /**
   * The tool writes into the project it indexes (a build: `target/`, `build/`, `obj/`), and the
   * repository is read-only in the sandbox: it then runs on a copy of the project in the scratch
   * directory, and the index is read as the project's. What the copy needs not hold: `skip`,
   * names at the project's top (`target`: its own build output, not a source package of that
   * name); `skipAnywhere`, names at any depth (`obj` of every .NET project); `.git` is never
   * copied. Default: it runs in the project itself.
   */
  readonly copyProject?: { readonly skip: readonly string[]; readonly skipAnywhere?: readonly string[] };
}

/** Phase B failed for the whole session: the indexer could not run on any project, or wrote nothing readable. */
export class ScipPhaseBError extends TravsrError {
  readonly code = 'SCIP_PHASE_B_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'ScipPhaseBError';
  }
}

/**
 * The environment an indexer starts from: nothing of the plugin's but `PATH` (with the tools'
 * directories first), `HOME` (the scratch directory unless the sandbox has one), `LANG`, and the
 * proxy variables the host's elevated tier sets. Caches go to the scratch directory.
 */
export function indexerEnv(tools: ToolPaths, scratchDir: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const dirs = Object.values(tools).map((p) => dirname(p));
  const env: NodeJS.ProcessEnv = {
    PATH: [...new Set([...dirs, ...(base['PATH'] ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)])].join(delimiter),
    HOME: base['HOME'] ?? scratchDir,
    LANG: 'C.UTF-8',
    TMPDIR: scratchDir,
    XDG_CACHE_HOME: join(scratchDir, 'cache'),
  };
  for (const key of [
    'TRAVSR_PROXY_SOCKET',
    'TRAVSR_PROXY_ADDRESS',
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'http_proxy',
    'https_proxy',
    'NO_PROXY',
    'no_proxy',
  ])
    if (base[key] !== undefined) env[key] = base[key];
  return env;
}

/** The tools the host passed (`initialize.options.tools`), or why the indexer cannot run. */
export function toolsFor(
  indexer: Pick<ScipIndexer, 'tools' | 'languageName' | 'installHint' | 'toolHints'>,
  options: Record<string, unknown>,
): ToolPaths | { missing: string } {
  const raw = options['tools'];
  const map = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const tools: Record<string, string> = {};
  for (const [name, path] of Object.entries(map)) if (typeof path === 'string') tools[name] = path;
  const missing = indexer.tools.filter((t) => tools[t] === undefined);
  if (missing.length === 0) return tools;
  const first = indexer.tools[0]!;
  const what = missing.length === 1 ? `${missing[0]} is not on PATH` : `${missing.join(' and ')} are not on PATH`;
  const needs = missing.includes(first) ? '' : `, and ${first} needs ${missing.length === 1 ? 'it' : 'them'}`;
  const hints = missing
    .map((t) => (t === first ? indexer.installHint : indexer.toolHints?.[t]))
    .filter((h): h is string => h !== undefined);
  return {
    missing: `${what}${needs}: ${indexer.languageName} is analyzed at Phase A only (names matched, not resolved)${hints.length > 0 ? `; ${hints.join('; ')}` : ''}`,
  };
}

/** Options of {@link ScipAnalyzer}. */
export interface ScipAnalyzerOptions {
  /** Where indexes are written (the sandbox's /tmp). Default `$TMPDIR`. */
  readonly scratchDir?: string;
  /** How often a running indexer is reported (well under the host's analyze idle timeout). Default 20 s. */
  readonly heartbeatMs?: number;
  /**
   * The language of a repository path the index defines symbols in, to parse that file's
   * definitions (edges point at them); undefined for a file this plugin does not parse. Default:
   * the plugin's one language for every path (`languages: ['ruby']`).
   */
  readonly languageOf?: (path: string) => string | undefined;
}

/**
 * A language plugin whose Phase A is a structural pass ({@link PhaseASyntax}: a tree-sitter
 * grammar and tags query) and whose Phase B is an external SCIP indexer: each project of the
 * repository is indexed once per session in the plugin's sandbox, the indexes are read a
 * document at a time, and their occurrences turn the Phase A refs into resolved edges
 * ({@link ScipGraph.merge}). Without the indexer's tools, `initialize` says Phase B is
 * unavailable and why; a project the indexer fails on keeps its Phase A graph.
 *
 * @example
 * ```ts
 * const analyzer = new ScipAnalyzer(new TagsSyntax({ language: 'ruby', grammar, query }), scipRuby);
 * await runAnalyzer({ id, version, languages, phases: ['A', 'B'], ...analyzer.hooks() });
 * ```
 */
export class ScipAnalyzer {
  private tools: ToolPaths | undefined;
  private cacheDir: string | undefined;
  private semantic: Promise<ScipGraph> | undefined;
  private proxy: Promise<ProxyBridge | undefined> | undefined;
  private readonly definitionCache = new Map<string, Promise<readonly Node[] | undefined>>();
  private readonly scratchDir: string;
  private readonly heartbeatMs: number;
  private languageOf: (path: string) => string | undefined;

  constructor(
    readonly syntax: PhaseASyntax,
    readonly indexer: ScipIndexer,
    options: ScipAnalyzerOptions = {},
  ) {
    this.scratchDir = options.scratchDir ?? process.env['TMPDIR'] ?? tmpdir();
    this.heartbeatMs = options.heartbeatMs ?? 20_000;
    this.languageOf = options.languageOf ?? (() => this.sessionLanguage);
  }

  /** The language of the files analyzed, for a single-language plugin's default {@link ScipAnalyzerOptions.languageOf}. */
  private sessionLanguage: string | undefined;

  /** The three hooks, to spread into `runAnalyzer({...})`. */
  hooks(): {
    initialize: (session: SessionInfo) => Promise<SessionCapabilities>;
    analyzeFile: (file: SourceFile, ctx: FileContext) => FileAnalysis | Promise<FileAnalysis>;
    analyze: (files: readonly AnalyzeFile[], ctx: ProgramContext) => AsyncIterable<FileResult>;
  } {
    return {
      initialize: (session) => this.initialize(session),
      analyzeFile: (file, ctx) => this.analyzeFile(file, ctx),
      analyze: (files, ctx) => this.analyze(files, ctx),
    };
  }

  /** Loads the grammar; says Phase B is unavailable when a tool of the indexer was not found. */
  async initialize(session: Pick<SessionInfo, 'options'>): Promise<SessionCapabilities> {
    await this.syntax.initialize();
    const tools = toolsFor(this.indexer, session.options);
    if ('missing' in tools) return { unavailable: [{ phase: 'B', reason: tools.missing }] };
    this.tools = tools;
    const cacheDir = session.options['cacheDir'];
    this.cacheDir = typeof cacheDir === 'string' && cacheDir !== '' ? cacheDir : undefined;
    return {};
  }

  /** Phase A: one file's structural graph (synchronous when the syntax is, as a tree-sitter one). */
  analyzeFile(file: SourceFile, ctx: Pick<FileContext, 'graph'>): FileAnalysis | Promise<FileAnalysis> {
    const added = this.syntax.addTo(ctx.graph, file.text);
    return added instanceof Promise ? added.then(() => ctx.graph.build()) : ctx.graph.build();
  }

  /** Phase B: every requested file's graph with the indexer's resolutions merged in. */
  async *analyze(files: readonly AnalyzeFile[], ctx: ProgramContext): AsyncIterable<FileResult> {
    if (!this.tools) {
      const t = toolsFor(this.indexer, ctx.options);
      throw new ScipPhaseBError(`Phase B was asked for, but ${'missing' in t ? t.missing : 'the session was not initialized'}`);
    }
    const graph = await this.semanticGraph(ctx);
    for (const file of files) {
      if (ctx.signal.aborted) return;
      let source: SourceFile;
      try {
        source = await ctx.readFile(file);
      } catch (e) {
        yield failed(file.path, 'FILE_UNREADABLE', (e as Error).message);
        continue;
      }
      this.sessionLanguage ??= file.language;
      try {
        const builder = ctx.graphFor(file);
        const syntax = await this.syntax.addTo(builder, source.text);
        // The file's own definitions, for edges from other files to it: parsed just now.
        if (!this.definitionCache.has(file.path))
          this.definitionCache.set(file.path, Promise.resolve([builder.fileNode, ...syntax.definitions]));
        const { analysis } = await graph.merge(builder, syntax, (path) => this.definitionsOf(path, ctx));
        if (!graph.has(file.path)) {
          analysis.diagnostics = [
            ...(analysis.diagnostics ?? []),
            {
              severity: 'info',
              code: 'NOT_IN_SCIP_INDEX',
              message:
                this.indexer.notIndexed ??
                `${this.indexer.name} did not index this file (no project of it holds it): its refs are matched by name`,
            },
          ];
        }
        yield { path: file.path, ...analysis };
      } catch (e) {
        yield failed(file.path, 'ANALYSIS_FAILED', (e as Error).message);
      }
    }
  }

  /** Runs the indexer on every project of the repository (once per session) and opens the indexes. */
  private semanticGraph(ctx: ProgramContext): Promise<ScipGraph> {
    this.semantic ??= (async () => {
      const tools = this.tools!;
      const name = this.indexer.name;
      const projects = this.indexer.projects ? await this.indexer.projects(ctx.root) : [''];
      if (projects.length === 0)
        throw new ScipPhaseBError(this.indexer.noProjects ?? `${name} found no project to index in the repository`);
      const indexes: { path: string; projectRoot: string; ranInCopy: boolean }[] = [];
      const failures: string[] = [];
      for (const project of projects) {
        const started = performance.now();
        const label = project || '.';
        try {
          indexes.push(await this.runOn(project, tools, ctx));
          ctx.log('info', `${name} indexed ${label} in ${Math.round(performance.now() - started)} ms`);
        } catch (e) {
          failures.push((e as Error).message);
          ctx.log('warn', (e as Error).message);
        }
      }
      if (indexes.length === 0) throw new ScipPhaseBError(failures.join('; '));
      // Read a document at a time: a large project's index is never held whole.
      const graph = await ScipGraph.open(indexes, ctx.root, {
        ...this.indexer.graph,
        // A project whose index cannot be read keeps its Phase A refs; the others are merged.
        onUnreadable: (path, e) => {
          failures.push(`${name} wrote an index that cannot be read (${path}): ${e.message}`);
          ctx.log('warn', failures.at(-1)!);
        },
      });
      if (graph.documentCount === 0 && failures.length > 0) throw new ScipPhaseBError(failures.join('; '));
      ctx.log('info', `${name}'s indexes hold ${graph.documentCount} files`);
      return graph;
    })();
    this.semantic.catch(() => {
      this.semantic = undefined;
    });
    return this.semantic;
  }

  /** Runs the indexer on one project; the index stays in the scratch directory for the session. */
  private async runOn(
    project: string,
    tools: ToolPaths,
    ctx: ProgramContext,
  ): Promise<{ path: string; projectRoot: string; ranInCopy: boolean }> {
    mkdirSync(this.scratchDir, { recursive: true });
    const work = mkdtempSync(join(this.scratchDir, `${this.indexer.name.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
    const output = join(work, 'index.scip');
    const original = project ? join(ctx.root, project) : ctx.root;
    const scratch = join(work, 'scratch');
    mkdirSync(scratch);
    const copy = this.indexer.copyProject;
    let projectDir = original;
    if (copy) {
      projectDir = join(work, 'project');
      const top = new Set(copy.skip);
      const anywhere = new Set(['.git', ...(copy.skipAnywhere ?? [])]);
      await cp(original, projectDir, {
        recursive: true,
        filter: (src) => src === original || (!anywhere.has(basename(src)) && !(dirname(src) === original && top.has(basename(src)))),
      });
    }
    const env = indexerEnv(tools, scratch);
    // Started once per session, and only in the elevated tier (where the host passes a proxy).
    this.proxy ??= startProxyBridge();
    const proxy = await this.proxy;
    if (proxy) {
      for (const key of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) env[key] = proxy.url;
      env['NO_PROXY'] = env['no_proxy'] = '';
    }
    try {
      const run: ScipProjectRun = {
        root: ctx.root,
        projectDir,
        project,
        tools,
        output,
        scratchDir: scratch,
        env,
        ...(proxy ? { proxy } : {}),
        ...(this.cacheDir !== undefined ? { cacheDir: this.cacheDir } : {}),
      };
      const inv = this.indexer.invocation(run);
      const cwd = inv.cwd ?? projectDir;
      const writes = inv.writes === undefined ? output : isAbsolute(inv.writes) ? inv.writes : join(cwd, inv.writes);
      await runExternalIndexer({
        name: this.indexer.name,
        command: inv.command ?? tools[this.indexer.tools[0]!]!,
        args: inv.args,
        cwd,
        env: inv.env ?? env,
        output: writes,
        signal: ctx.signal,
        ...(this.indexer.timeoutMs !== undefined ? { timeoutMs: this.indexer.timeoutMs } : {}),
        // A large project takes minutes: a log line now and then tells the host the plugin is alive
        // (it stops a plugin silent for longer than its analyze idle timeout) and the user why it waits.
        heartbeat: (s) => ctx.log('info', `${this.indexer.name} is still indexing ${project || '.'} (${s} s)`),
        heartbeatMs: this.heartbeatMs,
      });
      if (writes !== output) renameSync(writes, output);
      rmSync(scratch, { recursive: true, force: true });
      if (copy) rmSync(projectDir, { recursive: true, force: true });
      return { path: output, projectRoot: original, ranInCopy: copy !== undefined };
    } catch (e) {
      rmSync(work, { recursive: true, force: true });
      throw e;
    }
  }

  /** A file's Phase A definitions (with its file node), parsed once per session. */
  private definitionsOf(path: string, ctx: ProgramContext): Promise<readonly Node[] | undefined> {
    let entry = this.definitionCache.get(path);
    if (!entry) {
      entry = (async () => {
        try {
          const language = this.languageOf(path);
          if (language === undefined) return undefined;
          const source = await ctx.readFile({ path, language });
          const builder = new FileGraphBuilder({ corpus: ctx.corpus, path, language });
          const { definitions } = await this.syntax.addTo(builder, source.text);
          return [builder.fileNode, ...definitions];
        } catch {
          return undefined;
        }
      })();
      this.definitionCache.set(path, entry);
    }
    return entry;
  }
}

function failed(path: string, code: string, message: string): FileResult {
  return { path, status: 'failed', nodes: [], edges: [], diagnostics: [{ severity: 'error', code, message }] };
}
