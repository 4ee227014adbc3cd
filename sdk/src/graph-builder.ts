import type { Diagnostic, Edge, EdgeKind, Node, NodeKind, Provenance, Range, UnresolvedRef, VName } from '@travsr/protocol';
import type { FileAnalysis } from './definition.js';

/**
 * Where a {@link FileGraphBuilder} addresses its nodes.
 *
 * @example
 * ```ts
 * new FileGraphBuilder({ corpus: 'github.com/acme/app', path: 'src/app.lua', language: 'lua' });
 * ```
 */
export interface FileGraphInit {
  /** VName corpus (from `initialize`). */
  corpus: string;
  /** File path relative to the repository root, `/`-separated. */
  path: string;
  /** Language id of the file. */
  language: string;
  /** VName root; empty unless the corpus has several roots. */
  root?: string;
  /** Provenance of edges that name none, `contains` included: `phase-b` for a Phase B graph. Default `phase-a`. */
  provenance?: Provenance;
}

/**
 * A definition to add with {@link FileGraphBuilder.define}.
 *
 * @example
 * ```ts
 * graph.define({ kind: 'method', name: 'push', qualifiedName: 'Stack.push', parent: stack, range, skeleton: 'function Stack:push(x)' });
 * ```
 */
export interface DefinitionInput {
  kind: NodeKind;
  /** Short name as declared, e.g. `parse`. */
  name: string;
  /** Dotted name including enclosing scopes, e.g. `Parser.parse`. */
  qualifiedName?: string;
  /**
   * VName signature, unique within the file. Defaults to the qualified name (or the name);
   * a repeated signature gets `@2`, `@3`, … in order of definition.
   */
  signature?: string;
  /** Extent of the whole definition. */
  range?: Range;
  /** Signature line and leading doc comment, for display and embedding. */
  skeleton?: string;
  /** Enclosing scope; a `contains` edge is added from it. Defaults to the file node; `null` adds no edge. */
  parent?: Node | VName | null;
}

/**
 * Options of an edge added with {@link FileGraphBuilder.edge}.
 *
 * @example
 * ```ts
 * graph.edge(call, target, 'calls', { confidence: 0.4 }); // a name-matched guess
 * ```
 */
export interface EdgeOptions {
  /** 0–1. A name-matched guess must stay low (≤ 0.5); a fact from syntax or a compiler is 1. */
  confidence: number;
  /** Default `phase-a`. */
  provenance?: Provenance;
}

/**
 * Confidence of a `contains` edge: syntactic nesting is a fact, not a guess.
 *
 * @example
 * ```ts
 * graph.contains(cls, method).confidence === CONTAINS_CONFIDENCE; // true
 * ```
 */
export const CONTAINS_CONFIDENCE = 1;

const LIMITS = { name: 1024, qualifiedName: 4096, signature: 8192, skeleton: 16384, refName: 1024, message: 4096 } as const;

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max);
}

function vnameOf(x: Node | VName): VName {
  return 'vname' in x ? x.vname : x;
}

function lastSegment(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * Builds the graph of one file: VNames addressed at the file, a `file` node (signature
 * `""`), definitions with `contains` edges from their scope, edges, unresolved refs and
 * diagnostics. `build()` returns what `analyzeFile` must return.
 *
 * @example
 * ```ts
 * const graph = new FileGraphBuilder({ corpus: 'github.com/acme/app', path: 'src/json.lua', language: 'lua' });
 * const M = graph.define({ kind: 'module', name: 'M' });
 * const parse = graph.define({ kind: 'function', name: 'parse', qualifiedName: 'M.parse', parent: M,
 *   range: { startLine: 3, startCol: 0, endLine: 5, endCol: 3 } });
 * graph.ref(parse, 'calls', 'string.byte', { startLine: 4, startCol: 9, endLine: 4, endCol: 20 });
 * const { nodes, edges, refs } = graph.build(); // 3 nodes, 2 contains edges, 1 ref
 * ```
 */
export class FileGraphBuilder {
  /** The node of the file itself (kind `file`, signature `""`, name = base name). */
  readonly fileNode: Node;
  private readonly base: Omit<VName, 'signature'>;
  private readonly nodes: Node[] = [];
  private readonly edges: Edge[] = [];
  private readonly refs: UnresolvedRef[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private fileInterface: Record<string, string> | undefined;
  private readonly taken = new Set<string>();
  private readonly repeats = new Map<string, number>();

  private readonly provenance: Provenance;

  constructor(init: FileGraphInit) {
    this.provenance = init.provenance ?? 'phase-a';
    this.base = { corpus: init.corpus, root: init.root ?? '', path: init.path, language: init.language };
    this.fileNode = {
      vname: this.vname(''),
      kind: 'file',
      name: clip(lastSegment(init.path), LIMITS.name),
      qualifiedName: clip(init.path, LIMITS.qualifiedName),
    };
    this.taken.add('');
    this.nodes.push(this.fileNode);
  }

  /** The path every node of this builder is addressed at. */
  get path(): string {
    return this.base.path;
  }

  /** The language id every node of this builder carries. */
  get language(): string {
    return this.base.language;
  }

  /**
   * A VName in this file with the given signature.
   *
   * @example
   * ```ts
   * graph.vname('M.parse'); // { corpus, root: '', path: 'src/json.lua', language: 'lua', signature: 'M.parse' }
   * ```
   */
  vname(signature: string): VName {
    return { ...this.base, signature: clip(signature, LIMITS.signature) };
  }

  /**
   * Adds a definition node and a `contains` edge from its parent (the file by default).
   * Over-long strings are clipped to the protocol limits.
   *
   * @example
   * ```ts
   * const cls = graph.define({ kind: 'class', name: 'Stack', range });
   * graph.define({ kind: 'method', name: 'push', qualifiedName: 'Stack.push', parent: cls });
   * ```
   */
  define(def: DefinitionInput): Node {
    const wanted = clip(def.signature ?? def.qualifiedName ?? def.name, LIMITS.signature - 12);
    let n = this.repeats.get(wanted) ?? 1;
    let signature = n === 1 ? wanted : `${wanted}@${n}`;
    while (this.taken.has(signature)) signature = `${wanted}@${++n}`;
    this.repeats.set(wanted, n);
    this.taken.add(signature);
    const node: Node = { vname: this.vname(signature), kind: def.kind, name: clip(def.name, LIMITS.name) };
    if (def.qualifiedName !== undefined) node.qualifiedName = clip(def.qualifiedName, LIMITS.qualifiedName);
    if (def.range !== undefined) node.range = def.range;
    if (def.skeleton !== undefined) node.skeleton = clip(def.skeleton, LIMITS.skeleton);
    this.nodes.push(node);
    if (def.parent !== null) this.contains(def.parent ?? this.fileNode, node);
    return node;
  }

  /**
   * Takes in what another analysis produced for this same file (a plugin's whole-program hook
   * answering for it): its definitions (the file node aside), edges, refs and diagnostics. Its
   * `phase-a` edges take this builder's provenance (a Phase B builder holds none); a definition whose
   * signature this builder already has is left out.
   *
   * @example
   * ```ts
   * for await (const r of plugin.analyze([file], { ...ctx, phase: 'A' })) graph.adopt(r);
   * ```
   */
  adopt(analysis: Pick<FileAnalysis, 'nodes' | 'edges'> & Partial<Pick<FileAnalysis, 'refs' | 'diagnostics'>>): void {
    for (const n of analysis.nodes) {
      if (n.kind === 'file' && n.vname.signature === '') continue;
      if (n.vname.path !== this.base.path || this.taken.has(n.vname.signature)) continue;
      this.taken.add(n.vname.signature);
      this.nodes.push(n);
    }
    for (const e of analysis.edges) this.edges.push(e.provenance === 'phase-a' ? { ...e, provenance: this.provenance } : e);
    for (const r of analysis.refs ?? []) this.refs.push(r);
    for (const d of analysis.diagnostics ?? []) this.diagnostics.push(d);
  }

  /**
   * Adds a `contains` edge (confidence {@link CONTAINS_CONFIDENCE}, the builder's provenance: `phase-a` unless made for Phase B).
   *
   * @example
   * ```ts
   * graph.contains(graph.fileNode, fn);
   * ```
   */
  contains(parent: Node | VName, child: Node | VName): Edge {
    return this.edge(parent, child, 'contains', { confidence: CONTAINS_CONFIDENCE });
  }

  /**
   * Adds an edge. The source is usually in this file; the target may be anywhere
   * (another file's VName, another corpus).
   *
   * @example
   * ```ts
   * graph.edge(caller, otherFileGraph.vname('util.trim'), 'calls', { confidence: 1, provenance: 'phase-b' });
   * ```
   */
  edge(src: Node | VName, dst: Node | VName, kind: EdgeKind, options: EdgeOptions): Edge {
    const confidence = Math.min(1, Math.max(0, options.confidence));
    const edge: Edge = { src: vnameOf(src), dst: vnameOf(dst), kind, confidence, provenance: options.provenance ?? this.provenance };
    this.edges.push(edge);
    return edge;
  }

  /**
   * Records a reference the analyzer could not resolve (Phase A calls, imports, base classes).
   * Empty names are ignored.
   *
   * @example
   * ```ts
   * graph.ref(graph.fileNode, 'imports', 'json', range);
   * ```
   */
  ref(src: Node | VName, kind: EdgeKind, name: string, range?: Range): UnresolvedRef | undefined {
    if (name.length === 0) return undefined;
    const ref: UnresolvedRef = { src: vnameOf(src), kind, name: clip(name, LIMITS.refName) };
    if (range !== undefined) ref.range = range;
    this.refs.push(ref);
    return ref;
  }

  /**
   * Adds a diagnostic (a parse error, a skipped construct) to the file.
   *
   * @example
   * ```ts
   * graph.diagnostic({ severity: 'warning', code: 'PARSE_ERRORS', message: '2 syntax errors' });
   * ```
   */
  diagnostic(d: Diagnostic): void {
    this.diagnostics.push({ ...d, message: clip(d.message, LIMITS.message) });
  }

  /**
   * Declares what other files' analysis can observe of this file: per qualified name inside
   * it (`""`: the file as a whole), a digest that changes exactly when what a dependent reads
   * through that name changes. The host then re-analyzes only the dependents that name what
   * changed (protocol SPEC §9.11). Optional: without it every dependent is re-analyzed.
   *
   * @example
   * ```ts
   * graph.interface({ '': digest(moduleLevelFacts), parse: digest(parseSignature) });
   * ```
   */
  interface(digests: Readonly<Record<string, string>>): void {
    this.fileInterface = { ...digests };
  }

  /**
   * Everything added so far, as {@link FileAnalysis}.
   *
   * @example
   * ```ts
   * return graph.build();
   * ```
   */
  build(): FileAnalysis {
    return {
      nodes: [...this.nodes],
      edges: [...this.edges],
      refs: [...this.refs],
      diagnostics: [...this.diagnostics],
      ...(this.fileInterface ? { interface: { ...this.fileInterface } } : {}),
    };
  }
}
