import type { AnalyzeFile, Diagnostic, Edge, LogLevel, Node, UnresolvedRef } from '@travsr/protocol';
import type { FileGraphBuilder } from './graph-builder.js';

/**
 * An analysis phase: `A` is structural (per file, syntax only), `B` is semantic (whole program).
 *
 * @example
 * ```ts
 * const phases: Phase[] = ['A', 'B'];
 * ```
 */
export type Phase = 'A' | 'B';

/**
 * Everything an analyzer found in one file: what `analyzeFile` returns.
 * Every node must be addressed at this file's path; edges may point anywhere.
 *
 * @example
 * ```ts
 * const analysis: FileAnalysis = { nodes: [graph.fileNode], edges: [], diagnostics: [] };
 * ```
 */
export interface FileAnalysis {
  nodes: Node[];
  edges: Edge[];
  /** References the analyzer could not resolve; the host may match them by name, with low confidence. */
  refs?: UnresolvedRef[];
  diagnostics?: Diagnostic[];
  /** What other files can observe of this one, per name (see {@link FileGraphBuilder.interface}). */
  interface?: Record<string, string>;
}

/**
 * One file's result from the whole-program hook {@link AnalyzerDefinition.analyze}.
 *
 * @example
 * ```ts
 * yield { path: 'src/a.lua', nodes, edges };                                  // analyzed
 * yield { path: 'src/b.lua', status: 'failed', nodes: [], edges: [],
 *         diagnostics: [{ severity: 'error', message: 'could not resolve' }] }; // not analyzed
 * ```
 */
export interface FileResult extends FileAnalysis {
  /** The path as it was requested. */
  path: string;
  /** `ok` (default) or `failed`: a failed file replaces nothing the host already stored. */
  status?: 'ok' | 'failed';
}

/**
 * A source file handed to {@link AnalyzerDefinition.analyzeFile}, already read from the repository.
 *
 * @example
 * ```ts
 * analyzeFile(file) { return file.text.includes('TODO') ? ... : ...; }
 * ```
 */
export interface SourceFile {
  /** Path relative to the repository root, `/`-separated, as the host sent it. */
  path: string;
  /** Language id the host assigned to the file. */
  language: string;
  /** Where the file is on disk, as the plugin sees it (inside the sandbox). */
  absolutePath: string;
  /** The raw bytes. */
  bytes: Uint8Array;
  /** The bytes decoded as UTF-8 (invalid sequences become U+FFFD). */
  text: string;
}

/**
 * What `initialize` told the plugin about this session.
 *
 * @example
 * ```ts
 * initialize(session) { strict = session.options['strict'] === true; }
 * ```
 */
export interface SessionInfo {
  /** Absolute path of the repository root as the plugin sees it. */
  root: string;
  /** VName corpus of every node in this session. */
  corpus: string;
  /**
   * Plugin options from the user's configuration (opaque to the protocol), plus the host's
   * own: `tools` (constraints.tools found, name → path) and `cacheDir` (constraints.cache: a
   * private directory kept between sessions for this repository, which the host may empty).
   */
  options: Record<string, unknown>;
  /** Phases the host means to ask for in this session (`initialize.phases`; default: all the plugin implements). */
  phases: readonly Phase[];
}

/**
 * What a plugin's `initialize` hook may return: phases it implements but cannot run in this
 * session, each with a reason the user sees (`travsr index`, `travsr lang list`).
 *
 * @example
 * ```ts
 * initialize(session) {
 *   if (!session.options['tools']?.['scip-go']) return { unavailable: [{ phase: 'B', reason: 'scip-go is not on PATH' }] };
 * }
 * ```
 */
export interface SessionCapabilities {
  unavailable?: { phase: Phase; reason: string }[];
}

/**
 * Sends a `log` notification to the host (or writes to stderr before the handshake).
 *
 * @example
 * ```ts
 * ctx.log('warn', 'vendored file skipped', { path: file.path });
 * ```
 */
export type LogFunction = (level: LogLevel, message: string, data?: unknown) => void;

/**
 * Context of one `analyze` request, shared by both analyzer hooks.
 *
 * @example
 * ```ts
 * if (ctx.signal.aborted) return graph.build(); // the harness answers Cancelled
 * ```
 */
export interface AnalyzerContext extends SessionInfo {
  /** The phase the host asked for. */
  phase: Phase;
  /** Aborted when the host cancels the request or shuts the plugin down. */
  signal: AbortSignal;
  log: LogFunction;
  /**
   * Repository paths written, created or deleted since this session's previous request, as
   * the host saw them (`analyze.params.changed`); empty when it sent none. Sent only to an
   * {@link AnalyzerDefinition.incremental} plugin whose session serves another run.
   */
  changed: readonly string[];
}

/**
 * Context of one file in {@link AnalyzerDefinition.analyzeFile}.
 *
 * @example
 * ```ts
 * analyzeFile(file, { graph }) {
 *   graph.define({ kind: 'function', name: 'main', range });
 *   return graph.build();
 * }
 * ```
 */
export interface FileContext extends AnalyzerContext {
  /** A fresh builder whose VNames are addressed at this file (corpus, path, language). */
  graph: FileGraphBuilder;
}

/**
 * Context of the whole-program hook {@link AnalyzerDefinition.analyze}.
 *
 * @example
 * ```ts
 * async *analyze(files, ctx) {
 *   for (const file of files) {
 *     const source = await ctx.readFile(file);
 *     const graph = ctx.graphFor(file);
 *     graph.define({ kind: 'module', name: file.path, skeleton: source.text.slice(0, 80) });
 *     yield { path: file.path, ...graph.build() };
 *   }
 * }
 * ```
 */
export interface ProgramContext extends AnalyzerContext {
  /**
   * Reads a repository file the way `analyzeFile` receives it (size-limited, confined to the root).
   * @throws Error with a `code` of `FILE_UNREADABLE`, `FILE_TOO_LARGE` or `PATH_OUTSIDE_ROOT`.
   */
  readFile(file: AnalyzeFile): Promise<SourceFile>;
  /** A builder for a file's graph, as {@link FileContext.graph}. */
  graphFor(file: AnalyzeFile): FileGraphBuilder;
}

/**
 * What a plugin passes to {@link runAnalyzer}: who it is and the hooks that do the work.
 * Provide `analyzeFile` (per-file, the usual Phase A shape), `analyze` (whole-program, e.g.
 * Phase B), or both (then `analyze` serves Phase B and `analyzeFile` Phase A).
 *
 * @example
 * ```ts
 * import manifest from '../travsr-plugin.json' with { type: 'json' };
 * await runAnalyzer({
 *   id: manifest.id,
 *   version: manifest.version,
 *   languages: manifest.languages,
 *   analyzeFile(file, { graph }) {
 *     graph.define({ kind: 'module', name: file.path });
 *     return graph.build();
 *   },
 * });
 * ```
 */
export interface AnalyzerDefinition {
  /** Plugin id, equal to `id` in travsr-plugin.json. */
  id: string;
  /** Plugin version (semver), equal to `version` in travsr-plugin.json. */
  version: string;
  /** Languages answered in `initialize`; defaults to none declared. */
  languages?: readonly string[];
  /** Phases this plugin runs (`A`, `B`); defaults to `A`, plus `B` when only `analyze` is given. */
  phases?: readonly string[];
  /** Protocol versions spoken; defaults to every version this SDK speaks. */
  protocolVersions?: readonly string[];
  /** The plugin's own frame limit (bytes, ≥ 64 KiB); the session uses the smaller of both sides. Default 16 MiB. */
  maxFrameBytes?: number;
  /** Files larger than this are reported failed instead of read. Default 8 MiB. */
  maxFileBytes?: number;
  /**
   * True when one session may serve several index runs over a repository that changes in
   * between (`capabilities.incremental`): the daemon then keeps the session warm instead of
   * starting one per run. Every request must be answered from the files as they are on disk
   * when it comes: drop or re-check what was derived from {@link AnalyzerContext.changed}.
   * Default false (a session serves one run, and may cache whatever it reads).
   */
  incremental?: boolean;
  /**
   * Called on `initialize`, before any `analyze`. A throw answers `initialize` with an error.
   * Return {@link SessionCapabilities} to say a phase cannot run in this session (a tool it
   * needs is missing); the host then asks only for the others.
   */
  initialize?(session: SessionInfo & { log: LogFunction }): void | SessionCapabilities | Promise<void | SessionCapabilities>;
  /** Analyzes one file. A throw reports the file `failed` with a diagnostic; the session goes on. */
  analyzeFile?(file: SourceFile, ctx: FileContext): FileAnalysis | Promise<FileAnalysis>;
  /** Analyzes a whole request at once, yielding one result per requested file, in any order. */
  analyze?(files: readonly AnalyzeFile[], ctx: ProgramContext): AsyncIterable<FileResult> | Iterable<FileResult>;
  /** Called on `shutdown`, before the plugin answers and exits. */
  shutdown?(): void | Promise<void>;
}
