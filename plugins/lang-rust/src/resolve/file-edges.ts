/**
 * Phase B's edges of one file: the calls the body resolver proved (or rust-analyzer's, with the
 * upgrade), `implements` edges of trait impls, `types`/`inherits`/`implements` edges of the
 * types signatures name, file `imports`, and the diagnostics for what the build makes that the
 * repository does not hold (`mod x;` without a file, `include!`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic, EdgeKind, FileGraphBuilder, VName } from '@travsr/sdk';
import type { ScipRustCallbacks, ScipRustEdge } from '../scip/scip-rust-edges.js';
import { callerNode, type FileNodes, ownerNode } from '../syntax/emit.js';
import type { FileIR } from '../syntax/file-ir.js';
import type { CallSite } from './bodies.js';
import { type ItemRef, itemOf, type Names } from './names.js';
import type { Program } from './program.js';

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

/** Adds the call, implements and import edges of one file; returns its call-site counts. */
export function addEdges(
  ir: FileIR,
  graph: FileGraphBuilder,
  nodes: FileNodes,
  sites: readonly CallSite[],
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
    const src = callerNode(ir, nodes, s.caller).vname;
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

const FUNCTIONS: ReadonlySet<string> = new Set(['fn']);
const VALUES: ReadonlySet<string> = new Set(['const', 'static']);

/** How rust-analyzer's index finds the plugin's definitions and callers (see {@link ScipRustCallbacks}). */
export function scipCallbacks(program: Program, root: string): ScipRustCallbacks {
  const texts = new Map<string, string | undefined>();
  return {
    definitionAt: (path, line, name) =>
      program.file(path)?.items.find((it) => it.nameLine === line && it.name === name && it.sig !== '')?.sig,
    // As the native resolver attributes calls (`callerNode`): the innermost function around, else
    // the innermost const or static whose value holds the call.
    callerAt: (path, line, column) => {
      const innermost = (kinds: ReadonlySet<string>) => {
        let best: FileIR['items'][number] | undefined;
        for (const it of program.file(path)?.items ?? []) {
          if (!kinds.has(it.kind) || (it.kind === 'fn' && !it.body) || it.sig === '') continue;
          const r = it.range;
          const inside =
            (line > r.startLine || (line === r.startLine && column >= r.startCol)) &&
            (line < r.endLine || (line === r.endLine && column <= r.endCol));
          if (inside && (!best || r.endLine - r.startLine < best.range.endLine - best.range.startLine)) best = it;
        }
        return best;
      };
      return (innermost(FUNCTIONS) ?? innermost(VALUES))?.sig;
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

/** Function bodies the resolver cut short (see `BodyResolver.faults`). */
export function resolverLimitDiagnostic(bodies: number): Diagnostic {
  return {
    severity: 'info',
    code: 'RESOLVER_LIMIT',
    message: `${bodies} function bod${bodies === 1 ? 'y is' : 'ies are'} deeper than the resolver follows (an expression thousands of terms deep, or macros expanding into more macros than it reads): calls past that depth get no edge`,
  };
}

/** `include!(…)` of source the build writes (`OUT_DIR`) or reads from elsewhere: not indexed. */
export function includeDiagnostics(ir: FileIR): Diagnostic[] {
  return (ir.includes ?? []).map((inc) => ({
    severity: 'info',
    code: 'UNRESOLVED_INCLUDE',
    message: `${inc.written} (line ${inc.line}) reads source at build time: its items are not indexed, and calls to them get no edge`,
    range: { startLine: inc.line, startCol: 0, endLine: inc.line, endCol: 0 },
  }));
}

/** `mod x;` declarations whose file is not in the repository. */
export function unresolvedModules(ir: FileIR, program: Program): Diagnostic[] {
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
