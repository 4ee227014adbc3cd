/**
 * Rust: Phase A from tree-sitter-rust (items with qualified paths, skeletons, attributes, refs
 * as written) and Phase B from the native resolver over the crate graph (calls, method calls,
 * trait implementations and uses resolved to items of the repository, never guessed).
 */
import type {
  AnalyzeFile,
  Diagnostic,
  Edge,
  EdgeKind,
  FileAnalysis,
  FileContext,
  FileGraphBuilder,
  FileResult,
  ProgramContext,
  SessionCapabilities,
  SessionInfo,
  SourceFile,
  VName,
} from '@travsr/sdk';
import { LineIndex } from '@travsr/sdk/tree-sitter';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BodyResolver } from './resolve/bodies.js';
import { RustAnalyzerUpgrade } from './scip/rust-analyzer-runner.js';
import type { ScipRustCallbacks, ScipRustEdge, ScipRustIndex } from './scip/scip-rust-edges.js';
import { type ItemRef, itemOf, Names } from './resolve/names.js';
import { Program } from './resolve/program.js';
import { Types } from './resolve/types.js';
import { emitDefinitions, emitRefs, type FileNodes, ownerNode } from './syntax/emit.js';
import type { FileIR } from './syntax/file-ir.js';
import { RustSyntax, type RustSyntaxResources } from './syntax/rust-syntax.js';

export type RustAnalyzerResources = RustSyntaxResources;

const LANGUAGE = 'rust';
/**
 * Confidence of a call resolved in a body a `macro_rules!` wrote: the expansion is this
 * plugin's reading of the macro (fragments matched up to the next literal token), not the
 * compiler's, so the call is as sure as that reading.
 */
export const EXPANDED_CONFIDENCE = 0.9;

/** Items a `types` edge may point at. */
const TYPE_TARGETS = new Set(['struct', 'enum', 'union', 'trait', 'type']);

/** How the call sites of a run fared. */
export interface ResolutionCounts {
  /** Resolved to an item of the repository. */
  resolved: number;
  /** The callee is outside the repository (std, a crate that is not indexed, a derived trait). */
  external: number;
  /** The callee could not be known (a receiver of unknown type, a closure, a macro-made item). */
  unknown: number;
}

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
    if (!this.program || this.program.root !== root) this.program = new Program(root, (path, text) => this.syntax.read(path, text));
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
      yield* this.resolveFiles(files, ctx, program, names, types, total, scip);
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
          ex = this.syntax.readWithBodies(file.path, text);
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

/** Adds the call, implements and import edges of one file; returns its call-site counts. */
function addEdges(
  ir: FileIR,
  graph: FileGraphBuilder,
  nodes: FileNodes,
  sites: ReturnType<BodyResolver['resolve']>,
  names: Names,
  corpus: string,
  upgraded?: { calls: ScipRustEdge[]; implements: ScipRustEdge[] },
): ResolutionCounts {
  const vname = (r: ItemRef): VName | undefined => {
    const sig = itemOf(r).sig;
    return sig ? { corpus, root: '', path: r.file.path, language: LANGUAGE, signature: sig } : undefined;
  };
  const seen = new Set<string>();
  const edge = (src: VName, dst: VName, kind: EdgeKind, confidence = 1, provenance?: 'scip') => {
    const key = `${kind}\0${src.signature}\0${dst.path}\0${dst.signature}`;
    if (seen.has(key)) return;
    seen.add(key);
    graph.edge(src, dst, kind, { confidence, ...(provenance ? { provenance } : {}) });
  };
  const at = (path: string, signature: string): VName => ({ corpus, root: '', path, language: LANGUAGE, signature });
  for (const e of upgraded?.calls ?? []) edge(at(ir.path, e.srcSig), at(e.dstPath, e.dstSig), 'calls', 1, 'scip');
  for (const e of upgraded?.implements ?? []) edge(at(ir.path, e.srcSig), at(e.dstPath, e.dstSig), 'implements', 1, 'scip');
  const counts: ResolutionCounts = { resolved: 0, external: 0, unknown: 0 };
  for (const s of sites) {
    if (!s.inExpansion) counts[s.outcome]++;
    if (s.targets.length === 0 || (upgraded && !s.expanded)) continue;
    const src = ownerNode(ir, nodes, s.caller).vname;
    for (const t of s.targets) {
      const dst = vname(t);
      if (dst) edge(src, dst, 'calls', s.expanded ? EXPANDED_CONFIDENCE : 1);
    }
  }
  // Each member of a trait impl implements the trait's item of the same name.
  ir.items.forEach((it, i) => {
    if (it.kind !== 'impl' || !it.implTrait) return;
    const mod = names.moduleFor(ir, i);
    if (!mod) return;
    const impl: ItemRef = { file: ir, i, mod };
    const trait = names.typePath(names.itemScope(impl), it.implTrait, it).find((r) => r.t === 'item' && itemOf(r.ref).kind === 'trait');
    if (trait?.t !== 'item') return;
    ir.items.forEach((m, j) => {
      if (m.parent !== i || !nodes.items[j]) return;
      for (const t of names.traitClosure(trait.ref)) {
        const decl = names.membersNamed(t, m.name)[0];
        const dst = decl ? vname(decl) : undefined;
        if (dst) {
          edge(nodes.items[j].vname, dst, 'implements');
          break;
        }
      }
    });
  });
  // Types named by signatures: parameters, returns, fields, bounds (`types`), supertraits
  // (`inherits`), the trait an impl implements (`implements`, from the type when this file declares it).
  for (const t of ir.typeRefs) {
    const owner = ir.items[t.owner]!;
    const src = t.kind === 'implements' ? nodes.implTypes.get(t.owner)?.vname : ownerNode(ir, nodes, t.owner).vname;
    const mod = names.moduleFor(ir, t.owner);
    if (!src || !mod) continue;
    for (const r of names.typePath(names.itemScope({ file: ir, i: t.owner, mod }), t.type, owner)) {
      if (r.t !== 'item') continue;
      const k = itemOf(r.ref).kind;
      if (t.kind === 'types' ? !TYPE_TARGETS.has(k) : k !== 'trait') continue;
      const dst = vname(r.ref);
      if (dst) edge(src, dst, t.kind);
    }
  }
  // Imports: the files a `use` names items of.
  const fileMod = names.program.modulesOf(ir.path)[0];
  if (fileMod)
    for (const u of ir.uses) {
      if (u.glob) continue;
      for (const r of names.resolveUse(u, fileMod)) {
        const path = r.t === 'item' ? r.ref.file.path : r.t === 'mod' ? r.m.file.path : undefined;
        if (path && path !== ir.path) edge(graph.fileNode.vname, { corpus, root: '', path, language: LANGUAGE, signature: '' }, 'imports');
      }
    }
  return counts;
}

/** How rust-analyzer's index finds the plugin's definitions and callers (see {@link ScipRustCallbacks}). */
function scipCallbacks(program: Program, root: string): ScipRustCallbacks {
  const texts = new Map<string, string | undefined>();
  return {
    definitionAt: (path, line, name) =>
      program.file(path)?.items.find((it) => it.nameLine === line && it.name === name && it.sig !== '')?.sig,
    callerAt: (path, line, column) => {
      let best: FileIR['items'][number] | undefined;
      for (const it of program.file(path)?.items ?? []) {
        if (it.kind !== 'fn' || !it.body || it.sig === '') continue;
        const r = it.range;
        const inside =
          (line > r.startLine || (line === r.startLine && column >= r.startCol)) &&
          (line < r.endLine || (line === r.endLine && column <= r.endCol));
        if (inside && (!best || r.endLine - r.startLine < best.range.endLine - best.range.startLine)) best = it;
      }
      return best?.sig;
    },
    textOf: (path) => {
      if (!texts.has(path)) {
        let text: string | undefined;
        try {
          text = readFileSync(join(root, path), 'utf8');
        } catch {
          text = undefined;
        }
        texts.set(path, text);
      }
      return texts.get(path);
    },
  };
}

/** `include!(…)` of source the build writes (`OUT_DIR`) or reads from elsewhere: not indexed. */
function includeDiagnostics(ir: FileIR): Diagnostic[] {
  return (ir.includes ?? []).map((inc) => ({
    severity: 'info',
    code: 'UNRESOLVED_INCLUDE',
    message: `${inc.written} (line ${inc.line}) reads source at build time: its items are not indexed, and calls to them get no edge`,
    range: { startLine: inc.line, startCol: 0, endLine: inc.line, endCol: 0 },
  }));
}

/** `mod x;` declarations whose file is not in the repository. */
function unresolvedModules(ir: FileIR, program: Program): Diagnostic[] {
  const mods = program.modulesOf(ir.path);
  if (mods.length === 0) return [];
  const missing: string[] = [];
  ir.items.forEach((it, i) => {
    if (it.kind !== 'mod' || !it.external || it.local) return;
    const found = program.modules.some((m) => m.parent && m.parent.file === ir && m.name === it.name && m.file !== ir);
    if (!found) missing.push(it.name);
    void i;
  });
  if (missing.length === 0) return [];
  return [
    {
      severity: 'info',
      code: 'UNRESOLVED_MODULE',
      message: `no file for mod ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} (generated, or outside the repository): names in ${missing.length === 1 ? 'it are' : 'them are'} not resolved`,
    },
  ];
}

/** Source bytes whose parses Phase A keeps for Phase B (beyond that, Phase B parses again). */
const KEEP_PARSES_BYTES = 48 * 1024 * 1024;

type Parse = ReturnType<RustSyntax['readWithBodies']>;

function freeParse(p: Parse): void {
  p.tree.delete();
  for (const t of p.extraTrees) t.delete();
}

/** Parses kept from Phase A for Phase B, by path, within {@link KEEP_PARSES_BYTES} of source. */
class KeptParses {
  private readonly byPath = new Map<string, { parse: Parse; bytes: number }>();
  private bytes = 0;

  /** Keeps a parse (true), or says it could not (over budget: the caller frees it). */
  keep(path: string, parse: Parse, bytes: number): boolean {
    if (this.bytes + bytes > KEEP_PARSES_BYTES) return false;
    this.drop(path);
    this.byPath.set(path, { parse, bytes });
    this.bytes += bytes;
    return true;
  }

  /** The kept parse of a file, handed over (the caller frees it). */
  take(path: string): Parse | undefined {
    const e = this.byPath.get(path);
    if (!e) return undefined;
    this.byPath.delete(path);
    this.bytes -= e.bytes;
    return e.parse;
  }

  private drop(path: string): void {
    const p = this.take(path);
    if (p) freeParse(p);
  }

  clear(): void {
    for (const e of this.byPath.values()) freeParse(e.parse);
    this.byPath.clear();
    this.bytes = 0;
  }
}

function failed(path: string, message: string, code: string): FileResult {
  return { path, status: 'failed', nodes: [], edges: [], diagnostics: [{ severity: 'error', code, message }] };
}

export type { Edge };
