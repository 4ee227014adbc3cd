// Turns scip-python's SCIP index into edges between the native analyzer's nodes. scip-python
// (pyright) names what each identifier refers to; the analyzer knows where its definitions and
// call sites are. A call site is matched to the reference occurrence that starts at its callee
// name, that occurrence's symbol to the symbol's definition occurrence, and that position to the
// analyzer's node with `definitionAt`. Nothing is matched by name: a call scip-python did not
// resolve gets no edge here.
import type { Edge, EdgeKind, Node, NodeKind, VName } from '@travsr/sdk';
import {
  decodeScipIndex,
  parseSymbol,
  ROLE_DEFINITION,
  scipDocumentPath,
  symbolNamespace,
  type ScipDocument,
  type ScipIndex,
} from '@travsr/sdk/scip';
import type { DefinitionAt, PythonCallSite, PythonFileFacts } from './facts.js';

/** Confidence of an edge scip-python resolved (a type checker did). */
export const SCIP_CONFIDENCE = 1;

/**
 * What became of one call site:
 * - `resolved`: scip-python names a definition of the repository; {@link CallResolution.callees} holds its node.
 * - `external`: the callee is defined outside the repository (the standard library, a package, installed or not).
 * - `local`: the callee is a parameter or local variable (a function value): no definition to point at.
 * - `no-occurrence`: scip-python has no reference at the callee name (it could not resolve it).
 * - `unmapped`: the callee is defined in the repository but at no position `definitionAt` knows.
 */
export type CallOutcome = 'resolved' | 'external' | 'local' | 'no-occurrence' | 'unmapped';

/** One call site and what scip-python resolved it to. */
export interface CallResolution {
  site: PythonCallSite;
  outcome: CallOutcome;
  /** The definitions called (one, or several when scip-python names several symbols there); empty unless `resolved`. */
  callees: Node[];
}

/** Where a symbol is defined: repository path, 1-based line and UTF-16 column of its name. */
interface DefinitionSite {
  path: string;
  line: number;
  col: number;
}

/** A file's occurrences by start position (`line0:char`): references and definitions apart. */
interface DocumentPositions {
  references: Map<string, string[]>;
  definitions: Map<string, string[]>;
}

/** When one symbol is defined at several places (a redefinition, `try`/`except` fallbacks), the node kind preferred as its target. */
const KIND_RANK: Partial<Record<NodeKind, number>> = { class: 0, function: 1, method: 1, constructor: 1, property: 2 };

function rankOf(node: Node): number {
  return KIND_RANK[node.kind] ?? 3;
}

function vnameKey(v: VName): string {
  return `${v.corpus}\0${v.root}\0${v.path}\0${v.language}\0${v.signature}`;
}

/** The `<manager> <name> <version>` part of a symbol (`python shop local`), or '' for locals. */
function packageOf(symbol: string): string {
  return symbol.startsWith('local ') ? '' : (parseSymbol(symbol)?.package ?? '');
}

/**
 * A decoded scip-python index of a repository, with the lookups edge mapping needs (built once,
 * shared by every file of the session).
 *
 * @example
 * ```ts
 * const index = ScipPythonIndex.decode(readFileSync('/tmp/index.scip'), '/repo');
 * const edges = callEdges(index, facts, definitionAt);
 * ```
 */
export class ScipPythonIndex {
  /** The indexer that wrote it (`scip-python` `0.6.6`). */
  readonly tool: { name: string; version: string };
  private readonly docs = new Map<string, ScipDocument>();
  private readonly definitionSites = new Map<string, DefinitionSite[]>();
  private readonly implementations = new Map<string, string[]>();
  /** Packages of the symbols defined in the repository: a symbol of another package is external. */
  private readonly ownPackages = new Set<string>();
  private readonly positions = new Map<string, DocumentPositions>();
  /** Module name → repository path, from each document's module symbol (`` `shop.ledger`/__init__: ``). */
  private readonly moduleFiles = new Map<string, string>();
  private readonly repaired = new Map<string, Node | undefined>();

  /**
   * @param index what scip-python wrote
   * @param repoRoot the repository root as the plugin sees it (document paths are made relative to it)
   */
  constructor(index: ScipIndex, repoRoot: string) {
    this.tool = index.tool;
    for (const doc of index.documents) {
      const path = scipDocumentPath(index, doc, repoRoot);
      if (path === undefined) continue;
      this.docs.set(path, doc);
      for (const occ of doc.occurrences) {
        if ((occ.roles & ROLE_DEFINITION) === 0 || occ.symbol.startsWith('local ')) continue;
        const sites = this.definitionSites.get(occ.symbol);
        const site = { path, line: occ.startLine + 1, col: occ.startChar };
        if (sites) sites.push(site);
        else this.definitionSites.set(occ.symbol, [site]);
        this.ownPackages.add(packageOf(occ.symbol));
        if (occ.symbol.endsWith('/__init__:')) {
          const module = symbolNamespace(parseSymbol(occ.symbol));
          if (module !== undefined && !this.moduleFiles.has(module)) this.moduleFiles.set(module, path);
        }
      }
      for (const info of doc.symbols) {
        const implemented = info.relationships.filter((r) => r.isImplementation).map((r) => r.symbol);
        if (implemented.length > 0) this.implementations.set(info.symbol, implemented);
      }
    }
  }

  /**
   * Decodes the bytes of `index.scip`.
   * @throws ScipFormatError (`SCIP_MALFORMED`) when they are not a SCIP index.
   */
  static decode(bytes: Uint8Array, repoRoot: string): ScipPythonIndex {
    return new ScipPythonIndex(decodeScipIndex(bytes), repoRoot);
  }

  /** Number of files scip-python indexed. */
  get documentCount(): number {
    return this.docs.size;
  }

  /** True when scip-python indexed this repository path (a file it skipped keeps its native edges only). */
  has(path: string): boolean {
    return this.docs.has(path);
  }

  /**
   * What scip-python resolved each call site of a file to. Sites of a file scip-python did not
   * index come back `no-occurrence`.
   */
  resolveCalls(facts: PythonFileFacts, definitionAt: DefinitionAt): CallResolution[] {
    const at = this.positionsOf(facts.path);
    return facts.callSites.map((site) => {
      const symbols = at?.references.get(`${site.line - 1}:${site.col}`);
      if (!symbols || symbols.length === 0) return { site, outcome: 'no-occurrence', callees: [] };
      let outcome: CallOutcome = 'local';
      let best: Node[] = [];
      for (const symbol of symbols) {
        const target = this.definitionOf(symbol, definitionAt);
        if (typeof target === 'string') {
          // Report the most informative failure: unmapped (a gap to fix) over external over local.
          if (target === 'unmapped' || (target === 'external' && outcome === 'local')) outcome = target;
          continue;
        }
        if (best.length === 0 || rankOf(target) < rankOf(best[0]!)) best = [target];
        else if (rankOf(target) === rankOf(best[0]!) && !best.some((b) => vnameKey(b.vname) === vnameKey(target.vname))) best.push(target);
      }
      return best.length > 0 ? { site, outcome: 'resolved', callees: best } : { site, outcome, callees: [] };
    });
  }

  /**
   * `calls` edges (provenance `scip`, confidence 1) from each call site's caller to what
   * scip-python resolved it to, one edge per caller and callee. A call of a class is an edge
   * to the class, as scip-python names the class there.
   */
  callEdges(facts: PythonFileFacts, definitionAt: DefinitionAt): Edge[] {
    const edges = new EdgeSet();
    for (const r of this.resolveCalls(facts, definitionAt)) for (const callee of r.callees) edges.add(r.site.caller, callee.vname, 'calls');
    return edges.list;
  }

  /**
   * The class hierarchy of the definitions in a file, from scip-python's `is_implementation`
   * relationships: `inherits` from a class to each base class defined in the repository, and
   * `overrides` from a method to the method of a base class it overrides. Bases and methods of
   * the standard library or installed packages get no edge.
   */
  hierarchyEdges(facts: PythonFileFacts, definitionAt: DefinitionAt): Edge[] {
    const edges = new EdgeSet();
    const at = this.positionsOf(facts.path);
    if (!at) return [];
    for (const def of facts.definitions) {
      const kind = def.node.kind;
      if (kind !== 'class' && kind !== 'method') continue;
      for (const symbol of at.definitions.get(`${def.nameLine - 1}:${def.nameCol}`) ?? []) {
        const isClass = symbol.endsWith('#');
        if (isClass !== (kind === 'class') || (!isClass && !symbol.endsWith(').'))) continue;
        for (const base of this.implementations.get(symbol) ?? []) {
          if (base.endsWith('#') !== isClass) continue;
          const target = this.definitionOf(base, definitionAt);
          if (typeof target !== 'string' && target.kind === kind)
            edges.add(def.node.vname, target.vname, isClass ? 'inherits' : 'overrides');
        }
      }
    }
    return edges.list;
  }

  /** The node a symbol is defined as, or why there is none. */
  private definitionOf(symbol: string, definitionAt: DefinitionAt): Node | 'external' | 'local' | 'unmapped' {
    // A parameter (`run().(pay)`) is a function value, like a local variable: no definition to call.
    if (symbol.startsWith('local ') || symbol.endsWith(')') || symbol.endsWith(']')) return 'local';
    const sites = this.definitionSites.get(symbol);
    if (!sites) {
      // scip-python files a module it could not find (a dependency not installed: `click`) under
      // the repository's own package: a symbol is the repository's only if its module is.
      const own = this.ownPackages.has(packageOf(symbol)) && this.moduleFiles.has(symbolNamespace(parseSymbol(symbol)) ?? '');
      return own ? (this.undefinedSymbol(symbol, definitionAt) ?? 'unmapped') : 'external';
    }
    let best: Node | undefined;
    for (const s of sites) {
      const node = definitionAt(s.path, s.line, s.col);
      // Several sites: the first of the most callable kind (a class over a same-named variable).
      if (node && (!best || rankOf(node) < rankOf(best))) best = node;
    }
    return best ?? 'unmapped';
  }

  /**
   * A symbol of the repository that scip-python references but never defines: it leaves out
   * the definition of a class that shadows a builtin (`class ConnectionError(RequestException)`
   * in requests), and references it all the same. Found by its descriptors instead: the one
   * definition of that name and kind in its module's file, at a position scip-python has an
   * occurrence; none when there are several.
   */
  private undefinedSymbol(symbol: string, definitionAt: DefinitionAt): Node | undefined {
    if (this.repaired.has(symbol)) return this.repaired.get(symbol);
    let found: Node | undefined;
    const parsed = parseSymbol(symbol);
    const last = parsed?.descriptors.at(-1);
    const path = this.moduleFiles.get(symbolNamespace(parsed) ?? '');
    const doc = path !== undefined ? this.docs.get(path) : undefined;
    const kinds: readonly NodeKind[] | undefined =
      last?.suffix === 'type' ? ['class'] : last?.suffix === 'method' ? ['function', 'method'] : undefined;
    if (path !== undefined && doc && last && kinds && parsed!.descriptors.length >= 2) {
      const candidates = new Map<string, Node>();
      for (const occ of doc.occurrences) {
        if (occ.startLine !== occ.endLine || occ.endChar - occ.startChar !== last.name.length) continue;
        const node = definitionAt(path, occ.startLine + 1, occ.startChar);
        if (node && node.name === last.name && kinds.includes(node.kind)) candidates.set(vnameKey(node.vname), node);
      }
      if (candidates.size === 1) found = [...candidates.values()][0];
    }
    this.repaired.set(symbol, found);
    return found;
  }

  private positionsOf(path: string): DocumentPositions | undefined {
    let p = this.positions.get(path);
    if (p) return p;
    const doc = this.docs.get(path);
    if (!doc) return undefined;
    p = { references: new Map(), definitions: new Map() };
    for (const occ of doc.occurrences) {
      const map = (occ.roles & ROLE_DEFINITION) !== 0 ? p.definitions : p.references;
      const key = `${occ.startLine}:${occ.startChar}`;
      const list = map.get(key);
      if (!list) map.set(key, [occ.symbol]);
      else if (!list.includes(occ.symbol)) list.push(occ.symbol);
    }
    this.positions.set(path, p);
    return p;
  }
}

/** Edges without duplicates, in the order first added. */
class EdgeSet {
  readonly list: Edge[] = [];
  private readonly seen = new Set<string>();

  add(src: VName, dst: VName, kind: EdgeKind): void {
    const key = `${kind}\0${vnameKey(src)}\0${vnameKey(dst)}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ src, dst, kind, confidence: SCIP_CONFIDENCE, provenance: 'scip' });
  }
}

/**
 * The `calls` edges scip-python resolves among a file's call sites (see
 * {@link ScipPythonIndex.callEdges}).
 *
 * @example
 * ```ts
 * const edges = callEdges(index, facts, (path, line, col) => program.definitionAt(path, line, col));
 * ```
 */
export function callEdges(index: ScipPythonIndex, facts: PythonFileFacts, definitionAt: DefinitionAt): Edge[] {
  return index.callEdges(facts, definitionAt);
}
