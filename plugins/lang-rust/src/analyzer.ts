/**
 * Rust: Phase A from tree-sitter-rust (items with qualified paths, skeletons, attributes, refs
 * as written) and Phase B from the native resolver over the crate graph (calls, method calls,
 * trait implementations and uses resolved to items of the repository, never guessed).
 */
import type {
  AnalyzeFile,
  Edge,
  FileAnalysis,
  FileContext,
  FileResult,
  ProgramContext,
  SessionCapabilities,
  SessionInfo,
  SourceFile,
} from '@travsr/sdk';
import { LineIndex } from '@travsr/sdk/tree-sitter';
import { BodyResolver } from './resolve/bodies.js';
import {
  addEdges,
  includeDiagnostics,
  type ResolutionCounts,
  resolverLimitDiagnostic,
  scipCallbacks,
  unresolvedModules,
} from './resolve/file-edges.js';
import { Names } from './resolve/names.js';
import { Program } from './resolve/program.js';
import { ProgramMacros } from './resolve/program-macros.js';
import { Types } from './resolve/types.js';
import { RustAnalyzerUpgrade } from './scip/rust-analyzer-runner.js';
import type { ScipRustIndex } from './scip/scip-rust-edges.js';
import { emitDefinitions, emitRefs } from './syntax/emit.js';
import { forgetBodyWalks } from './syntax/extract.js';
import { freeParse, KeptParses, type Parse } from './syntax/kept-parses.js';
import { RustSyntax, type RustSyntaxResources } from './syntax/rust-syntax.js';

export type RustAnalyzerResources = RustSyntaxResources;

/**
 * One session's analyzer. Phase A keeps each file's IR so that Phase B resolves against every
 * file without reading it twice; files Phase B needs and Phase A did not see (an incremental
 * run sends only changed files) are read from disk on demand.
 *
 * @example
 * ```ts
 * const analyzer = new RustAnalyzer({ grammar: new URL('./tree-sitter-rust.wasm', import.meta.url) });
 * await runAnalyzer({ …, initialize: (s) => analyzer.initialize(s), analyzeFile: (f, c) => analyzer.analyzeFile(f, c), analyze: (f, c) => analyzer.analyze(f, c) });
 * ```
 */
export class RustAnalyzer {
  private readonly syntax: RustSyntax;
  /** Phase A's parses, kept for Phase B of the session (when it will run) within a byte budget. */
  private readonly parses = new KeptParses();
  private keepParses = true;
  /** The rust-analyzer upgrade, when the option is on and the host found the tool. */
  private upgrade: RustAnalyzerUpgrade | undefined;
  private upgradeNote: string | undefined;
  private program: Program | undefined;
  private manifestProblemsLogged = false;

  constructor(resources: RustAnalyzerResources) {
    this.syntax = new RustSyntax(resources);
  }

  /** Starts loading the grammar before the session begins; {@link initialize} waits for it. */
  preload(): void {
    this.syntax.initialize().catch(() => undefined);
  }

  /** Loads the grammar. */
  async initialize(session: Pick<SessionInfo, 'root' | 'phases' | 'options'>): Promise<SessionCapabilities> {
    await this.syntax.initialize();
    this.keepParses = session.phases === undefined || session.phases.includes('B');
    const upgrade = RustAnalyzerUpgrade.available(session.options ?? {});
    if ('tool' in upgrade) this.upgrade = new RustAnalyzerUpgrade(upgrade.tool);
    // Only worth saying when the user asked for the upgrade and cannot have it.
    else if (upgrade.requested) this.upgradeNote = upgrade.missing;
    this.programFor(session.root);
    return {};
  }

  /**
   * Paths the host saw change since this session's previous request (`ctx.changed`, the same
   * array for every file of a request): their files are read again, and a manifest or a file
   * that came or went starts the program afresh.
   */
  noteChanged(changed: readonly string[] | undefined): void {
    if (!changed || changed === this.lastChanged || changed.length === 0) return;
    this.lastChanged = changed;
    this.parses.clear();
    if (this.program?.forget(changed)) this.program = undefined;
  }

  private lastChanged: readonly string[] = [];

  private programFor(root: string): Program {
    if (!this.program || this.program.root !== root)
      this.program = new Program(root, (path, text) => this.syntax.read(path, text), { parse: (text) => this.syntax.parseScript(text) });
    return this.program;
  }

  /** Phase A: one file's items and refs as written. */
  analyzeFile(file: SourceFile, ctx: Pick<FileContext, 'graph' | 'root'> & { changed?: readonly string[] }): FileAnalysis {
    this.noteChanged(ctx.changed);
    const program = this.programFor(ctx.root);
    const parsed = this.syntax.readWithBodies(file.path, file.text);
    let kept = false;
    try {
      const { ir, bodies, expanded } = parsed;
      program.add(ir);
      const nodes = emitDefinitions(ir, ctx.graph, program.crates.modulePathOf(file.path));
      emitRefs(ir, ctx.graph, nodes, bodies, new LineIndex(file.text), expanded);
      forgetBodyWalks([parsed.tree, ...parsed.extraTrees]);
      if (ir.parseError) ctx.graph.diagnostic(ir.parseError);
      for (const d of includeDiagnostics(ir)) ctx.graph.diagnostic(d);
      const result = ctx.graph.build();
      kept = this.keepParses && this.parses.keep(file.path, parsed, file.text.length);
      return result;
    } finally {
      if (!kept) freeParse(parsed);
    }
  }

  /** Phase B: every requested file's items with the edges the resolver proves. */
  async *analyze(files: readonly AnalyzeFile[], ctx: ProgramContext): AsyncIterable<FileResult> {
    this.noteChanged(ctx.changed);
    const program = this.programFor(ctx.root);
    const started = performance.now();
    const fromDiskBefore = program.loadedFromDisk;
    const macros = this.expandProgramMacros(program);
    program.applyMacroWrappers();
    const names = new Names(program);
    const types = new Types(names);
    if (!this.manifestProblemsLogged) {
      this.manifestProblemsLogged = true;
      for (const p of program.crates.problems)
        ctx.log('warn', `${p.path} could not be read (${p.message}): the crates it declares are not resolved across`);
    }
    const total: ResolutionCounts = { resolved: 0, external: 0, unknown: 0 };
    const scip = await this.scipIndex(ctx);
    try {
      yield* this.resolveFiles(files, ctx, program, names, types, total, scip, macros);
    } finally {
      // Phase A's parses of files this request did not ask for are not needed any more.
      this.parses.clear();
    }
    const sites = total.resolved + total.external + total.unknown;
    ctx.log(
      'info',
      `lang-rust phase B: ${files.length} files in ${Math.round(performance.now() - started)} ms; ${program.crates.crates.length} crates; ` +
        `${sites} call sites: ${total.resolved} resolved in the repository, ${total.external} outside it, ${total.unknown} unknown (no edge); ` +
        `${program.loadedFromDisk - fromDiskBefore} files read for resolution`,
    );
  }

  /**
   * Reads again, with the program's macros, every file that invokes at item position a macro of
   * another file (`FileIR.foreignMacros`) whose meaning changed since it was read: Phase A could
   * not expand those. The new parse replaces the kept one. Returns the macros for later reads.
   */
  private expandProgramMacros(program: Program): ProgramMacros {
    const macros = new ProgramMacros(program);
    for (const ir of [...program.irs()]) {
      if (macros.appliedKey(ir) === (ir.foreignApplied ?? '')) continue;
      const text = program.text(ir.path);
      if (text === undefined) continue;
      let ex: Parse;
      try {
        ex = this.readWithProgramMacros(ir.path, text, macros);
      } catch {
        continue; // the file as Phase A read it stays
      }
      program.replace(ex.ir);
      // Phase A's parse of the file is out of date: the new one takes its place, or none does
      // (the file is read again, with the macros, if this request asks for it).
      const old = this.parses.take(ir.path);
      if (old) freeParse(old);
      if (!(old && this.parses.keep(ir.path, ex, text.length))) freeParse(ex);
    }
    return macros;
  }

  private readWithProgramMacros(path: string, text: string, macros: ProgramMacros): Parse {
    const ex = this.syntax.readWithBodies(path, text, macros.lookup(path));
    forgetBodyWalks([ex.tree, ...ex.extraTrees]);
    const key = macros.appliedKey(ex.ir);
    if (key) ex.ir.foreignApplied = key;
    return ex;
  }

  /** rust-analyzer's index of the repository, when the upgrade runs (once per session); undefined when it fails, with a warning. */
  private async scipIndex(ctx: ProgramContext): Promise<ScipRustIndex | undefined> {
    if (this.upgradeNote) {
      ctx.log('info', this.upgradeNote);
      this.upgradeNote = undefined;
    }
    if (!this.upgrade) return undefined;
    try {
      const index = await this.upgrade.run(ctx.root, ctx.signal, ctx.log);
      if (ctx.changed.length > 0) index.forget(ctx.changed);
      return index;
    } catch (e) {
      ctx.log('warn', `the rust-analyzer upgrade failed, Phase B resolves natively: ${(e as Error).message}`);
      this.upgrade = undefined;
      return undefined;
    }
  }

  private async *resolveFiles(
    files: readonly AnalyzeFile[],
    ctx: ProgramContext,
    program: Program,
    names: Names,
    types: Types,
    total: ResolutionCounts,
    scip: ScipRustIndex | undefined,
    macros: ProgramMacros,
  ): AsyncIterable<FileResult> {
    const callbacks = scip ? scipCallbacks(program, ctx.root) : undefined;
    for (const file of files) {
      if (ctx.signal.aborted) return;
      // Phase A's parse when this session kept it, else the file read and parsed again.
      let ex = this.parses.take(file.path);
      if (!ex) {
        let text: string;
        try {
          text = (await ctx.readFile(file)).text;
        } catch (e) {
          yield failed(file.path, (e as Error).message, 'FILE_UNREADABLE');
          continue;
        }
        try {
          ex = this.readWithProgramMacros(file.path, text, macros);
        } catch (e) {
          yield failed(file.path, (e as Error).message, 'ANALYSIS_FAILED');
          continue;
        }
      }
      try {
        try {
          // The IR the program resolves against (Phase A's, or this one when Phase A did not run here).
          let ir = program.file(file.path);
          if (!ir || ir.items.length !== ex.ir.items.length) {
            program.add(ex.ir);
            ir = ex.ir;
          }
          const graph = ctx.graphFor(file);
          const nodes = emitDefinitions(ir, graph, program.crates.modulePathOf(file.path));
          const resolver = new BodyResolver(names, types, (snippet) => {
            try {
              return this.syntax.parse(snippet, file.path);
            } catch {
              return undefined;
            }
          });
          // With rust-analyzer's index of the file, its calls replace the native ones (not those of
          // macro-written bodies, which it has no occurrences for); implements edges add up.
          const upgraded =
            scip && callbacks && scip.has(file.path)
              ? { calls: scip.callEdges(file.path, callbacks), implements: scip.implementsEdges(file.path, callbacks) }
              : undefined;
          const counts = addEdges(ir, graph, nodes, resolver.resolve(ir, ex.bodies, ex.expanded), names, ctx.corpus, upgraded);
          total.resolved += counts.resolved;
          total.external += counts.external;
          total.unknown += counts.unknown;
          if (ir.parseError) graph.diagnostic(ir.parseError);
          if (resolver.faults > 0) graph.diagnostic(resolverLimitDiagnostic(resolver.faults));
          for (const d of unresolvedModules(ir, program)) graph.diagnostic(d);
          for (const d of includeDiagnostics(ir)) graph.diagnostic(d);
          yield { path: file.path, ...graph.build() };
        } finally {
          freeParse(ex);
        }
      } catch (e) {
        ctx.log('debug', `lang-rust phase B failed on ${file.path}: ${(e as Error).stack ?? String(e)}`);
        yield failed(file.path, (e as Error).message, 'ANALYSIS_FAILED');
      }
    }
  }
}

function failed(path: string, message: string, code: string): FileResult {
  return { path, status: 'failed', nodes: [], edges: [], diagnostics: [{ severity: 'error', code, message }] };
}

export type { Edge };
