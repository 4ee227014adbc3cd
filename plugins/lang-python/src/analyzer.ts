/**
 * Python: Phase A from tree-sitter-python (definitions with qualified names, skeletons,
 * refs as written) and Phase B from the native resolver over the whole program (calls,
 * imports, bases and annotations resolved to definitions of the repository, never guessed).
 */
import type { AnalyzeFile, Edge } from '@travsr/sdk';
import type {
  FileAnalysis,
  FileContext,
  FileGraphBuilder,
  FileResult,
  ProgramContext,
  SessionCapabilities,
  SessionInfo,
  SourceFile,
} from '@travsr/sdk';
import type { DefinitionAt, PythonFileFacts } from './scip/facts.js';
import { Evaluator } from './resolve/evaluator.js';
import { IrCache, type ModuleSource, textOf } from './resolve/ir-cache.js';
import { definitionAtIn, factsOf } from './resolve/scip-facts.js';
import type { ScipPythonIndex } from './scip/scip-python-edges.js';
import { ScipPythonUpgrade } from './scip/scip-python-runner.js';
import { addResolvedEdges, type ResolutionCounts } from './resolve/file-edges.js';
import { moduleInterface } from './resolve/module-interface.js';
import { type Mod, Program } from './resolve/program.js';
import { emitDefinitions, emitRefs } from './syntax/emit-definitions.js';
import type { ModuleIR } from './syntax/module-ir.js';
import { PythonSyntax, type PythonSyntaxResources } from './syntax/python-syntax.js';
import { warmUp } from './syntax/warm-up.js';

export type PythonAnalyzerResources = PythonSyntaxResources;

/** How long the end of a session may spend writing cache entries still pending (the rest are dropped). */
const SHUTDOWN_FLUSH_MS = 300;

/**
 * One session's analyzer. Phase A keeps each module's IR (when Phase B will run) so that
 * Phase B parses nothing twice; modules Phase B needs and Phase A did not see (an
 * incremental run sends only changed files) are read from disk on demand.
 *
 * @example
 * ```ts
 * const analyzer = new PythonAnalyzer({ grammar: new URL('./tree-sitter-python.wasm', import.meta.url) });
 * await runAnalyzer({ …, initialize: (s) => analyzer.initialize(s), analyzeFile: (f, c) => analyzer.analyzeFile(f, c), analyze: (f, c) => analyzer.analyze(f, c) });
 * ```
 */
export class PythonAnalyzer {
  private readonly syntax: PythonSyntax;
  private program: Program | undefined;
  private evaluator: Evaluator | undefined;
  /** Whether Phase B will be asked for: only then are Phase A's IRs kept. */
  private keepModules = true;
  /** The scip-python upgrade, when the option is on and the host found the tool. */
  private upgrade: ScipPythonUpgrade | undefined;
  private upgradeNote: string | undefined;
  /** The last `ctx.changed` applied ({@link noteChanged}). */
  private lastChanged: readonly string[] = [];
  /** Module IRs kept between sessions, when the host gave the plugin a cache directory. */
  private cache = new IrCache(undefined);

  constructor(resources: PythonAnalyzerResources) {
    this.syntax = new PythonSyntax(resources);
  }

  /**
   * Starts loading the grammar before the session begins, so that compiling its wasm overlaps
   * the handshake; {@link initialize} waits for it (and reports its failure).
   */
  preload(): void {
    this.syntax.initialize().catch(() => undefined);
  }

  /** Loads the grammar. */
  async initialize(session: Pick<SessionInfo, 'root' | 'phases' | 'options'>): Promise<SessionCapabilities> {
    await this.syntax.initialize();
    this.keepModules = session.phases === undefined || session.phases.includes('B');
    this.cache = new IrCache(session.options?.['cacheDir'], (path, text) => this.syntax.read(path, text));
    const upgrade = ScipPythonUpgrade.available(session.options ?? {});
    if ('tool' in upgrade) this.upgrade = new ScipPythonUpgrade(upgrade.tool);
    // Only worth saying when the user asked for the upgrade and cannot have it.
    else if (session.options?.['scipPython'] === true || session.options?.['scipPython'] === 'true') this.upgradeNote = upgrade.missing;
    this.programFor(session.root);
    // Once `initialize` is answered, while the host works out what to send (see warm-up.ts).
    setImmediate(() => warmUp(this.syntax));
    return {};
  }

  /**
   * Paths the host saw change since this session's previous request (`ctx.changed`, the same
   * array for every file of a request): their modules are read again, every inference is made
   * again (another module's types may have changed), and a file that came or went starts the
   * program afresh. The session then serves the next update as a new one would, without the
   * start-up and with the unchanged modules already read.
   */
  noteChanged(changed: readonly string[] | undefined): void {
    if (!changed || changed === this.lastChanged || changed.length === 0) return;
    this.lastChanged = changed;
    if (!this.program) return;
    if (this.program.forget(changed)) this.program = undefined;
    else this.evaluator = new Evaluator(this.program);
  }

  private programFor(root: string): Program {
    if (!this.program || this.program.root !== root) {
      this.program = new Program(root, (path, source) => this.readModule(path, source));
      this.evaluator = new Evaluator(this.program);
    }
    return this.program;
  }

  /** Phase A: one module's definitions and refs as written. */
  analyzeFile(file: SourceFile, ctx: Pick<FileContext, 'graph' | 'root'> & { changed?: readonly string[] }): FileAnalysis {
    this.noteChanged(ctx.changed);
    const program = this.programFor(ctx.root);
    const ir = this.readModule(file.path, file.text);
    const name = program.finder.moduleName(file.path);
    if (this.keepModules) program.add(file.path, ir);
    const nodes = emitDefinitions(ir, ctx.graph, name);
    emitRefs(ir, ctx.graph, nodes);
    // What importers can see of it: the host re-resolves only the dependents an edit reaches (at
    // Phase B; a session without it has no dependents to spare).
    if (this.keepModules) ctx.graph.interface(moduleInterface(ir));
    if (ir.parseError) ctx.graph.diagnostic(ir.parseError);
    return ctx.graph.build();
  }

  /** Phase B: every requested module's definitions with the edges the resolver proves. */
  async *analyze(files: readonly AnalyzeFile[], ctx: ProgramContext): AsyncIterable<FileResult> {
    this.noteChanged(ctx.changed);
    const program = this.programFor(ctx.root);
    const evaluator = this.evaluator!;
    const total: ResolutionCounts = { resolved: 0, external: 0, unknown: 0, faults: 0 };
    const started = performance.now();
    const fromDiskBefore = program.loadedFromDisk;
    const scip = await this.scipIndex(ctx);
    const definitionAt = scip ? definitionAtIn(program, ctx.corpus) : undefined;
    let scipEdges = 0;
    for (const file of files) {
      if (ctx.signal.aborted) return;
      let mod: Mod;
      try {
        mod = await this.moduleOf(program, file, ctx);
      } catch (e) {
        yield failed(file.path, (e as Error).message, 'FILE_UNREADABLE');
        continue;
      }
      try {
        const graph = ctx.graphFor(file);
        const nodes = emitDefinitions(mod.ir, graph, mod.name);
        const { counts, diagnostics } = addResolvedEdges(evaluator, mod, graph, nodes, ctx.corpus);
        if (scip && definitionAt) scipEdges += mergeScip(scip, graph, factsOf(mod, nodes), definitionAt);
        total.resolved += counts.resolved;
        total.external += counts.external;
        total.unknown += counts.unknown;
        total.faults += counts.faults;
        // The host keeps the diagnostics of a file's last phase: the parse warning again.
        if (mod.ir.parseError) graph.diagnostic(mod.ir.parseError);
        for (const d of diagnostics) graph.diagnostic(d);
        yield { path: file.path, ...graph.build() };
      } catch (e) {
        yield failed(file.path, (e as Error).message, 'ANALYSIS_FAILED');
      }
    }
    const sites = total.resolved + total.external + total.unknown;
    ctx.log(
      'info',
      `lang-python phase B: ${files.length} files in ${Math.round(performance.now() - started)} ms; ` +
        `${sites} call sites: ${total.resolved} resolved in the repository, ${total.external} outside it, ${total.unknown} unknown (no edge${total.faults > 0 ? `, ${total.faults} of them past a resolver limit` : ''}); ` +
        `${program.loadedFromDisk - fromDiskBefore} modules read for resolution` +
        (this.cache.enabled ? `; module cache: ${this.cache.hits} hits, ${this.cache.misses} misses` : '') +
        (scip ? `; scip-python added ${scipEdges} edges` : ''),
    );
  }

  /** The scip-python index of the repository, when the upgrade runs (once per session); undefined when it fails, with a warning. */
  private async scipIndex(ctx: ProgramContext): Promise<ScipPythonIndex | undefined> {
    if (this.upgradeNote) {
      ctx.log('info', this.upgradeNote);
      this.upgradeNote = undefined;
    }
    if (!this.upgrade) return undefined;
    try {
      return await this.upgrade.run(ctx.root, ctx.signal, ctx.log);
    } catch (e) {
      ctx.log('warn', `the scip-python upgrade failed, Phase B resolves natively: ${(e as Error).message}`);
      this.upgrade = undefined;
      return undefined;
    }
  }

  /** At the end of the session: writes the cache entries still pending, for at most `budgetMs`. */
  shutdown(budgetMs = SHUTDOWN_FLUSH_MS): void {
    this.cache.flush(budgetMs);
  }

  /** The module of a requested file: the one Phase A read in this session, else parsed now. */
  private async moduleOf(program: Program, file: AnalyzeFile, ctx: ProgramContext): Promise<Mod> {
    if (program.has(file.path)) return program.module(file.path)!;
    const source = await ctx.readFile(file);
    return program.add(file.path, this.readModule(file.path, source.text));
  }

  /** A module's IR: from the cache when its source was read before, else parsed (and kept). */
  private readModule(path: string, source: ModuleSource): ModuleIR {
    return this.cache.get(path, source) ?? this.cache.put(source, this.syntax.read(path, textOf(source)));
  }
}

/** Adds scip-python's call and hierarchy edges that the native resolver did not already prove; returns how many. */
function mergeScip(index: ScipPythonIndex, graph: FileGraphBuilder, facts: PythonFileFacts, definitionAt: DefinitionAt): number {
  if (!index.has(facts.path)) return 0;
  const key = (e: Edge) => `${e.kind}\0${e.src.signature}\0${e.dst.path}\0${e.dst.signature}`;
  const have = new Set(graph.build().edges.map(key));
  let added = 0;
  for (const e of [...index.callEdges(facts, definitionAt), ...index.hierarchyEdges(facts, definitionAt)]) {
    if (have.has(key(e))) continue;
    have.add(key(e));
    graph.edge(e.src, e.dst, e.kind, { confidence: e.confidence, provenance: e.provenance });
    added++;
  }
  return added;
}

function failed(path: string, message: string, code: string): FileResult {
  return { path, status: 'failed', nodes: [], edges: [], diagnostics: [{ severity: 'error', code, message }] };
}
