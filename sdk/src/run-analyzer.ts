import {
  DEFAULT_MAX_FRAME_BYTES,
  MIN_MAX_FRAME_BYTES,
  WireErrorCode,
  WireException,
  type AnalyzeFile,
  type AnalyzeParams,
  type AnalyzeResult,
  type HelloResult,
  type InitializeParams,
  type InitializeResult,
} from '@travsr/protocol';
import type { Connection, RequestContext } from '@travsr/protocol/node';
import type {
  AnalyzerDefinition,
  FileAnalysis,
  FileContext,
  FileResult,
  LogFunction,
  Phase,
  ProgramContext,
  SessionCapabilities,
  SessionInfo,
  SourceFile,
} from './definition.js';
import { FileEmitter } from './file-emitter.js';
import { FileGraphBuilder } from './graph-builder.js';
import { ProgressReporter } from './progress.js';
import { readSourceFile, readSourceFileSync, SourceReadError } from './read-source.js';
import { errorText, PluginSession } from './plugin-session.js';
import { ID_PATTERN, runPluginProcess, SEMVER_PATTERN, type SessionIo } from './process-io.js';
import { broughtScipIndexers, BroughtScipPhaseB } from './scip/bring-your-own.js';

const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
const LANGUAGE_PATTERN = /^[a-z0-9][a-z0-9+#._-]*$/;

export type { SessionIo } from './process-io.js';

/**
 * Runs the calling process as a Travsr analyzer sidecar: checks the handshake cookie,
 * speaks the protocol on stdin/stdout (hello, initialize, analyze with streamed
 * `graph/file` notifications, cancel, ping, shutdown), reports progress at a bounded
 * rate, honours back-pressure and exits cleanly. It returns when the session ends.
 *
 * Started by hand (no `TRAVSR_PLUGIN_COOKIE`), it prints one line explaining what it is
 * and how to try it, and exits with code 1. A protocol error from the host (e.g. a frame
 * over the negotiated limit) ends the process with code 2; `shutdown` or the host
 * closing stdin end it with code 0.
 *
 * @example
 * ```ts
 * import { runAnalyzer } from '@travsr/sdk';
 *
 * await runAnalyzer({
 *   id: 'example-todo',
 *   version: '0.1.0',
 *   languages: ['text'],
 *   analyzeFile(file, { graph }) {
 *     file.text.split('\n').forEach((line, i) => {
 *       const at = line.indexOf('TODO');
 *       if (at >= 0) graph.define({ kind: 'key', name: `TODO@${i + 1}`,
 *         range: { startLine: i + 1, startCol: at, endLine: i + 1, endCol: at + 4 } });
 *     });
 *     return graph.build();
 *   },
 * });
 * ```
 */
export async function runAnalyzer(definition: AnalyzerDefinition): Promise<void> {
  await runPluginProcess({ name: 'runAnalyzer', kind: 'analyzer' }, definition, definitionProblem(definition), (io) =>
    new AnalyzerSession(definition, io).run(),
  );
}

function definitionProblem(def: AnalyzerDefinition): string | undefined {
  if (typeof def.id !== 'string' || !ID_PATTERN.test(def.id))
    return `id ${JSON.stringify(def.id)} must look like "lang-lua" (lowercase, digits, . _ -)`;
  if (typeof def.version !== 'string' || !SEMVER_PATTERN.test(def.version))
    return `version ${JSON.stringify(def.version)} of ${def.id} must be semver like "1.2.3"`;
  if (!def.analyzeFile && !def.analyze) return `${def.id} defines neither analyzeFile nor analyze`;
  if (def.phases !== undefined && def.phases.length === 0) return `phases of ${def.id} must not be empty (use ["A"], ["B"] or ["A", "B"])`;
  for (const p of def.phases ?? []) if (p !== 'A' && p !== 'B') return `phase ${JSON.stringify(p)} of ${def.id} must be "A" or "B"`;
  for (const l of def.languages ?? [])
    if (!LANGUAGE_PATTERN.test(l)) return `language ${JSON.stringify(l)} of ${def.id} must look like "lua" or "c++" (lowercase)`;
  if (def.protocolVersions !== undefined && def.protocolVersions.length === 0) return `protocolVersions of ${def.id} must not be empty`;
  if (def.maxFrameBytes !== undefined && !(Number.isInteger(def.maxFrameBytes) && def.maxFrameBytes >= MIN_MAX_FRAME_BYTES)) {
    return `maxFrameBytes of ${def.id} must be an integer ≥ ${MIN_MAX_FRAME_BYTES}`;
  }
  return undefined;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function cancelled(method: string): WireException {
  return new WireException(WireErrorCode.Cancelled, `${method} was cancelled`);
}

/** Resolves with `work`, or rejects with a Cancelled error as soon as `signal` aborts. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelled('analyze'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled('analyze'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** One protocol session on a pair of streams. Internal: plugins call {@link runAnalyzer}. */
export class AnalyzerSession extends PluginSession<AnalyzerDefinition> {
  private phases: Phase[];
  private readonly maxFileBytes: number;
  /** `analyze.params.changed` of the request being served. */
  private changed: readonly string[] = [];
  private info: SessionInfo = { root: '', corpus: '', options: {}, phases: [] };
  /** The SCIP indexers the user brought (`initialize.options.scip`), when any can run. */
  private brought: BroughtScipPhaseB | undefined;
  /** The context of the request being served, for a brought indexer's Phase A. */
  private current: Omit<FileContext, 'graph' | 'phase'> | undefined;
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(def: AnalyzerDefinition, io: SessionIo) {
    super(def, io, def.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.phases = def.phases ? [...new Set(def.phases as Phase[])] : def.analyzeFile ? ['A'] : ['A', 'B'];
    this.maxFileBytes = def.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  protected serveMethods(c: Connection): void {
    c.onRequest('analyze', (p, ctx) => this.track(this.analyze(p, ctx)));
  }

  protected capabilities(): HelloResult['capabilities'] {
    return { phases: [...this.phases], cancellation: true, progress: true, ...(this.def.incremental ? { incremental: true } : {}) };
  }

  protected override settle(): Promise<unknown> {
    return Promise.allSettled([...this.inflight]);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.catch(() => undefined).finally(() => this.inflight.delete(p));
    return p;
  }

  protected async initialize(params: InitializeParams): Promise<InitializeResult> {
    this.requireState('initialize', false);
    const info: SessionInfo = {
      root: params.root,
      corpus: params.corpus,
      options: params.options ?? {},
      phases: params.phases ? this.phases.filter((p) => params.phases!.includes(p)) : [...this.phases],
    };
    let session: SessionCapabilities | void = undefined;
    if (this.def.initialize) {
      try {
        session = await this.def.initialize({ ...info, log: this.logFn });
      } catch (e) {
        this.io.stderr(`${this.def.id}: initialize hook failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        throw new WireException(WireErrorCode.InternalError, `${this.def.id} failed to initialize: ${errorText(e)}`);
      }
    }
    this.info = info;
    const broughtProblems = await this.bringIndexers(info);
    this.state = 'initialized';
    const result: InitializeResult = { languages: [...(this.def.languages ?? [])] };
    if (this.brought) result.phases = [...this.phases];
    if (session?.unavailable && session.unavailable.length > 0) {
      const off = new Set(session.unavailable.map((u) => u.phase));
      const phases = this.phases.filter((p) => !off.has(p));
      if (phases.length === 0)
        throw new WireException(
          WireErrorCode.InternalError,
          `${this.def.id} can run no phase: ${session.unavailable.map((u) => u.reason).join('; ')}`,
        );
      this.phases = phases;
      info.phases = info.phases.filter((p) => phases.includes(p));
      result.phases = [...phases];
      result.unavailable = session.unavailable.map((u) => ({ phase: u.phase, reason: u.reason.slice(0, 1024) }));
    }
    if (broughtProblems.length > 0 && !this.phases.includes('B'))
      result.unavailable = [
        ...(result.unavailable ?? []),
        ...broughtProblems.map((reason) => ({ phase: 'B' as const, reason: reason.slice(0, 1024) })),
      ];
    return result;
  }

  /**
   * The plugin's Phase A of one file, added to `graph`: its `analyzeFile`, or its whole-program
   * hook asked for that file alone at phase A (a plugin, such as lang-typescript, with one hook for
   * both phases).
   */
  private async phaseAOf(source: SourceFile, graph: FileGraphBuilder): Promise<void> {
    const ctx = this.current ?? { ...this.context('B', this.stopAll.signal) };
    if (this.def.analyzeFile) {
      await this.def.analyzeFile(source, { ...ctx, phase: 'A', graph });
      return;
    }
    const file = { path: source.path, language: source.language };
    const program: ProgramContext = {
      ...ctx,
      phase: 'A',
      readFile: (f) => readSourceFile(this.info.root, f, this.maxFileBytes),
      graphFor: (f) => this.graphFor(f, 'A'),
    };
    const results = this.def.analyze!([file], program);
    for await (const r of results as AsyncIterable<FileResult>) if (r.path === source.path) graph.adopt(r);
  }

  /**
   * Sets up the SCIP indexers the user brought for this plugin's languages
   * (`initialize.options.scip`, see {@link BroughtScipPhaseB}): they serve Phase B of their
   * languages — a Phase-A-only plugin gains a Phase B — with the plugin's `analyzeFile` as the
   * Phase A they merge into. Returns why those that cannot run (their program is not on PATH) do not.
   */
  private async bringIndexers(info: SessionInfo): Promise<string[]> {
    const entries = broughtScipIndexers(info.options);
    if (entries.length === 0) return [];
    const brought = new BroughtScipPhaseB(entries, (source, graph) => this.phaseAOf(source, graph));
    const problems = await brought.initialize(info);
    for (const p of problems) this.sendLog('warn', p);
    if (!brought.active) return problems;
    this.brought = brought;
    if (!this.phases.includes('B')) this.phases = [...this.phases, 'B'];
    if (!info.phases.includes('B')) info.phases = [...info.phases, 'B'];
    return problems;
  }

  private readonly logFn: LogFunction = (level, message, data) => this.sendLog(level, message, data);

  private async analyze(params: AnalyzeParams, rc: RequestContext): Promise<AnalyzeResult> {
    this.requireState('analyze', true);
    const phase = params.phase;
    if (!this.phases.includes(phase)) {
      throw new WireException(
        WireErrorCode.InvalidParams,
        `${this.def.id} does not run phase ${phase}; it runs phase(s) ${this.phases.join(', ')}`,
      );
    }
    const signal = AbortSignal.any([rc.signal, this.stopAll.signal]);
    const emitter = new FileEmitter(this.conn, rc.id, phase, (line) => this.io.stderr(`${this.def.id}: ${line}`));
    const progress = new ProgressReporter(this.conn, rc.id, params.files.length);
    const useProgram =
      (this.def.analyze !== undefined || (this.brought !== undefined && phase === 'B')) &&
      (phase === 'B' || this.def.analyzeFile === undefined);
    this.changed = params.changed ?? [];
    if (useProgram) await this.analyzeProgram(params.files, phase, signal, emitter, progress);
    else await this.analyzeEachFile(params.files, phase, signal, emitter, progress);
    if (signal.aborted) throw cancelled('analyze');
    await progress.finish();
    return emitter.counts;
  }

  private context(phase: Phase, signal: AbortSignal) {
    return { ...this.info, phase, signal, log: this.logFn, changed: this.changed };
  }

  /** A builder for a file of a request: its edges default to the request's phase (`phase-a` / `phase-b`). */
  private graphFor(file: AnalyzeFile, phase: Phase): FileGraphBuilder {
    return new FileGraphBuilder({
      corpus: this.info.corpus,
      path: file.path,
      language: file.language,
      provenance: phase === 'B' ? 'phase-b' : 'phase-a',
    });
  }

  private async analyzeEachFile(
    files: readonly AnalyzeFile[],
    phase: Phase,
    signal: AbortSignal,
    emitter: FileEmitter,
    progress: ProgressReporter,
  ): Promise<void> {
    const analyzeFile = this.def.analyzeFile!.bind(this.def);
    let done = 0;
    for (const file of files) {
      // Yield so that ping and cancel frames are read between files, even when the
      // analyzer itself never awaits anything.
      await yieldToEventLoop();
      if (signal.aborted) throw cancelled('analyze');
      let source;
      try {
        source = readSourceFileSync(this.info.root, file, this.maxFileBytes);
      } catch (e) {
        const code = e instanceof SourceReadError ? e.code : 'FILE_UNREADABLE';
        await emitter.failed(file, code, errorText(e));
        await progress.update(++done);
        continue;
      }
      let analysis: FileAnalysis;
      try {
        const ctx = { ...this.context(phase, signal), graph: this.graphFor(file, phase) };
        analysis = await raceAbort(
          Promise.resolve().then(() => analyzeFile(source, ctx)),
          signal,
        );
      } catch (e) {
        if (signal.aborted) throw cancelled('analyze');
        this.io.stderr(`${this.def.id}: analyzer threw on ${file.path}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        await emitter.failed(file, 'ANALYZER_ERROR', `the analyzer failed on this file: ${errorText(e)}`);
        await progress.update(++done);
        continue;
      }
      await emitter.emit(file, 'ok', analysis);
      await progress.update(++done);
    }
  }

  private async analyzeProgram(
    files: readonly AnalyzeFile[],
    phase: Phase,
    signal: AbortSignal,
    emitter: FileEmitter,
    progress: ProgressReporter,
  ): Promise<void> {
    const requested = new Map<string, AnalyzeFile>();
    for (const f of files) if (!requested.has(f.path)) requested.set(f.path, f);
    const reported = new Set<string>();
    const ctx: ProgramContext = {
      ...this.context(phase, signal),
      readFile: (file) => readSourceFile(this.info.root, file, this.maxFileBytes),
      graphFor: (file) => this.graphFor(file, phase),
    };
    let iterator: AsyncIterator<FileResult> | Iterator<FileResult>;
    let thrown: string | undefined;
    this.current = ctx;
    try {
      const own = this.def.analyze?.bind(this.def);
      const iterable = this.brought && phase === 'B' ? this.brought.analyze(files, ctx, own) : own!(files, ctx);
      iterator = Symbol.asyncIterator in iterable ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
    } catch (e) {
      throw new WireException(WireErrorCode.AnalysisFailed, `${this.def.id} failed to start the analysis: ${errorText(e)}`);
    }
    for (;;) {
      await yieldToEventLoop();
      let step: IteratorResult<FileResult>;
      try {
        step = await raceAbort(
          Promise.resolve().then(() => iterator.next()),
          signal,
        );
      } catch (e) {
        if (signal.aborted) {
          void Promise.resolve()
            .then(() => iterator.return?.())
            .catch(() => undefined);
          throw cancelled('analyze');
        }
        this.io.stderr(`${this.def.id}: analyze hook threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        thrown = errorText(e);
        break; // files not reported yet are reported failed below, with this reason
      }
      if (step.done) break;
      const result = step.value;
      const file = requested.get(result.path);
      if (!file) {
        this.io.stderr(`${this.def.id}: analyze hook reported "${result.path}", which was not requested; ignored`);
        continue;
      }
      if (reported.has(result.path)) {
        this.io.stderr(`${this.def.id}: analyze hook reported "${result.path}" twice; the second result was ignored`);
        continue;
      }
      reported.add(result.path);
      await emitter.emit(file, result.status ?? 'ok', result);
      await progress.update(reported.size);
    }
    for (const file of requested.values()) {
      if (reported.has(file.path)) continue;
      if (signal.aborted) throw cancelled('analyze');
      if (thrown !== undefined) await emitter.failed(file, 'ANALYSIS_FAILED', `the analysis stopped before this file: ${thrown}`);
      else await emitter.failed(file, 'NOT_REPORTED', 'the analyzer finished without reporting this file');
      reported.add(file.path);
      await progress.update(reported.size);
    }
  }
}
