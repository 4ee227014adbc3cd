/**
 * Phase B's edges of one module: every call, import, base class and annotation the
 * {@link Evaluator} resolves to a definition of the repository, with provenance `phase-b` and
 * confidence 1. What does not resolve gets no edge, and is counted.
 */
import type { Diagnostic, VName } from '@travsr/sdk';
import type { FileGraphBuilder } from '@travsr/sdk';
import { type ModuleNodes, ownerNode } from '../syntax/emit-definitions.js';
import type { Evaluator } from './evaluator.js';
import type { Mod } from './program.js';
import type { DefRef, Ty } from './types.js';

/** How the call sites of a file fared. */
export interface ResolutionCounts {
  /** Call sites resolved to a definition of the repository. */
  resolved: number;
  /** Call sites whose callee is outside the repository (standard library, installed packages, builtins). */
  external: number;
  /** Call sites whose callee could not be known (an untyped receiver, a parameter, a dynamic value). */
  unknown: number;
  /** Of the unknown ones, call sites the resolver failed on (an internal limit); logged, not guessed. */
  faults: number;
}

const LANGUAGE = 'python';

/**
 * Adds the resolved edges of `mod` to its Phase B graph.
 *
 * @returns the call-site counts and diagnostics for imports of the repository that do not resolve
 */
export function addResolvedEdges(
  ev: Evaluator,
  mod: Mod,
  graph: FileGraphBuilder,
  nodes: ModuleNodes,
  corpus: string,
): { counts: ResolutionCounts; diagnostics: Diagnostic[] } {
  const vname = (d: DefRef): VName => ({ corpus, root: '', path: d.mod.path, language: LANGUAGE, signature: d.mod.ir.defs[d.def]!.sig });
  const fileVName = (path: string): VName => ({ corpus, root: '', path, language: LANGUAGE, signature: '' });
  const seen = new Set<string>();
  const edge = (src: VName, dst: VName, kind: 'calls' | 'imports' | 'inherits' | 'types') => {
    const key = `${kind}\0${src.path}\0${src.signature}\0${dst.path}\0${dst.signature}`;
    if (seen.has(key)) return;
    seen.add(key);
    graph.edge(src, dst, kind, { confidence: 1 });
  };
  const emitted = (d: DefRef) => d.mod.ir.defs[d.def]!.sig !== '';
  const counts: ResolutionCounts = { resolved: 0, external: 0, unknown: 0, faults: 0 };
  const diagnostics: Diagnostic[] = [];

  for (const call of mod.ir.calls) {
    let r;
    try {
      r = ev.resolveExpr(mod, call.scope, call.callee);
    } catch {
      // A resolver fault on one call (a pathological chain) costs that call, not the file.
      counts.unknown++;
      counts.faults++;
      continue;
    }
    const targets = r.decls.filter(emitted);
    if (targets.length === 0) {
      if (r.values.length > 0 && r.values.every((v) => v.t === 'ext')) counts.external++;
      else counts.unknown++;
      continue;
    }
    counts.resolved++;
    const src = ownerNode(mod.ir, nodes, call.caller).vname;
    for (const t of targets) edge(src, vname(t), 'calls');
  }

  const unresolvedImports: string[] = [];
  for (const imp of mod.ir.imports) {
    const loc = ev.locate(mod, imp.module, imp.level);
    if (!loc) {
      // Relative imports can only mean this repository: say so. Absolute ones are usually libraries.
      if (imp.level > 0) unresolvedImports.push('.'.repeat(imp.level) + imp.module);
      continue;
    }
    if (loc.file && loc.file !== mod.path) edge(graph.fileNode.vname, fileVName(loc.file), 'imports');
    for (const name of imp.names) {
      const r = ev.moduleMember(loc, name);
      for (const v of r.values)
        if (v.t === 'module' && v.loc.file && v.loc.file !== mod.path) edge(graph.fileNode.vname, fileVName(v.loc.file), 'imports');
      for (const d of r.decls) if (d.mod.path !== mod.path) edge(graph.fileNode.vname, fileVName(d.mod.path), 'imports');
    }
  }
  if (unresolvedImports.length > 0) {
    diagnostics.push({
      severity: 'info',
      code: 'UNRESOLVED_IMPORT',
      message: `no module of the repository for ${unresolvedImports.slice(0, 5).join(', ')}${unresolvedImports.length > 5 ? ` and ${unresolvedImports.length - 5} more` : ''}: names imported from it are not resolved`,
    });
  }

  for (const ref of mod.ir.typeRefs) {
    const src = ownerNode(mod.ir, nodes, ref.owner).vname;
    if (ref.kind === 'inherits') {
      const base = ref.expr.k === 'sub' ? ref.expr.obj : ref.expr;
      for (const v of ev.resolveExpr(mod, ref.scope, base).values) if (v.t === 'class' && emitted(v.c)) edge(src, vname(v.c), 'inherits');
    } else {
      // The annotation's classes, including those inside containers (`List[Session]`).
      for (const c of classesOf(ev.annotationType(mod, ref.scope, ref.expr))) if (emitted(c)) edge(src, vname(c), 'types');
    }
  }
  return { counts, diagnostics };
}

/** The classes among annotation values, inside builtin containers too. */
function classesOf(values: readonly Ty[]): DefRef[] {
  const out: DefRef[] = [];
  const visit = (t: Ty) => {
    if (t.t === 'builtin') for (const a of t.args ?? []) for (const x of a) visit(x);
    else if (t.t === 'inst' || t.t === 'class') out.push(t.c);
  };
  for (const t of values) visit(t);
  return out;
}
