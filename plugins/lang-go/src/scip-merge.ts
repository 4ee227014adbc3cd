import { posix } from 'node:path';
import type { EdgeKind, Node, Range, UnresolvedRef, VName } from '@travsr/sdk';
import type { FileAnalysis, FileGraphBuilder } from '@travsr/sdk';
import type { LineIndex } from '@travsr/sdk/tree-sitter';
import type { GoSyntaxGraph } from './go-syntax.js';
import {
  parseSymbol,
  ROLE_DEFINITION,
  scipCharacterToUtf8,
  scipDocumentPath,
  symbolNamespace,
  type ParsedSymbol,
  type ScipDocument,
  type ScipIndex,
  type ScipOccurrence,
  type ScipSymbolInfo,
} from '@travsr/sdk/scip';

/** Confidence of an edge taken from the SCIP index (a compiler resolved it). */
export const SCIP_CONFIDENCE = 1;

/** Where a symbol is defined: a repository path and the 1-based line of its name. */
interface DefinitionSite {
  path: string;
  line: number;
  /** The identifier as written at the definition (SCIP's display name, else the last descriptor). */
  name: string;
}

/** An occurrence in protocol coordinates: 1-based line, UTF-8 byte columns. */
interface Site {
  line: number;
  startCol: number;
  endCol: number;
  symbol: string;
  roles: number;
}

/** The definitions of a file (Phase A nodes with ranges), for mapping SCIP symbols to VNames. */
export type DefinitionsOf = (path: string) => Promise<readonly Node[] | undefined>;

/** What {@link ScipGraph.merge} did to one file, for logs and tests. */
export interface MergeStats {
  /** Refs replaced by a resolved edge. */
  resolved: number;
  /** Refs to symbols outside the repository (the standard library, dependencies): dropped, not guessed. */
  external: number;
  /** Refs with no symbol at their position (builtins, calls of function values): dropped. */
  dynamic: number;
  /** Type references and implementations added. */
  typeEdges: number;
}

/** Converts a SCIP `character` offset on a line to UTF-8 bytes (scip-go's unspecified encoding is UTF-8). */
function utf8Column(lines: LineIndex, line0: number, character: number, encoding: ScipDocument['positionEncoding']): number {
  return encoding === 'utf8' || encoding === 'unspecified' ? character : scipCharacterToUtf8(lines.line(line0), character, encoding);
}

function contains(r: Range | undefined, line: number): boolean {
  return r !== undefined && r.startLine <= line && line <= r.endLine;
}

function span(r: Range): number {
  return (r.endLine - r.startLine) * 1e6 + (r.endCol - r.startCol);
}

/** The innermost definition whose range holds `line`, optionally with a given name. */
function innermost(defs: readonly Node[], line: number, name?: string): Node | undefined {
  let best: Node | undefined;
  for (const d of defs) {
    if (!contains(d.range, line) || (name !== undefined && d.name !== name)) continue;
    if (!best || span(d.range!) < span(best.range!)) best = d;
  }
  return best;
}

function vnameKey(v: VName): string {
  return `${v.corpus}\0${v.root}\0${v.path}\0${v.language}\0${v.signature}`;
}

/**
 * The compiler-resolved view of a set of Go modules, from their SCIP indexes (scip-go):
 * where every symbol is defined, which files make up each package, and per file the
 * occurrences that resolve the Phase A graph's refs.
 */
export class ScipGraph {
  private readonly docs = new Map<string, ScipDocument>();
  private readonly definitions = new Map<string, DefinitionSite>();
  private readonly infos = new Map<string, ScipSymbolInfo>();
  private readonly packageFiles = new Map<string, string[]>();
  private readonly parsed = new Map<string, ParsedSymbol | undefined>();
  private readonly targets = new Map<string, Node | 'external' | undefined>();

  /**
   * @param indexes one index per module
   * @param repoRoot the repository root as the plugin sees it (document paths are made relative to it)
   */
  constructor(indexes: readonly ScipIndex[], repoRoot: string) {
    for (const index of indexes) {
      for (const doc of index.documents) {
        const path = scipDocumentPath(index, doc, repoRoot);
        if (path === undefined) continue;
        this.docs.set(path, doc);
        for (const info of doc.symbols) this.infos.set(info.symbol, info);
        const packages = new Set<string>();
        for (const occ of doc.occurrences) {
          if ((occ.roles & ROLE_DEFINITION) === 0 || occ.symbol.startsWith('local ')) continue;
          const parsed = this.parse(occ.symbol);
          const last = parsed?.descriptors[parsed.descriptors.length - 1];
          const pkg = symbolNamespace(parsed);
          if (pkg) packages.add(pkg);
          if (!last || last.suffix === 'namespace') continue;
          if (!this.definitions.has(occ.symbol)) {
            const info = this.infos.get(occ.symbol);
            this.definitions.set(occ.symbol, { path, line: occ.startLine + 1, name: info?.displayName || last.name });
          }
        }
        for (const pkg of packages) this.packageFiles.set(pkg, [...(this.packageFiles.get(pkg) ?? []), path]);
      }
    }
  }

  /** Number of documents indexed. */
  get documentCount(): number {
    return this.docs.size;
  }

  /** True when the index holds this repository path. */
  has(path: string): boolean {
    return this.docs.has(path);
  }

  private parse(symbol: string): ParsedSymbol | undefined {
    if (!this.parsed.has(symbol)) this.parsed.set(symbol, parseSymbol(symbol));
    return this.parsed.get(symbol);
  }

  /**
   * The node a symbol is defined as, `external` when it is defined outside the index, or
   * undefined (a local, a field, a variable). `definitionsOf` must answer the same for a path
   * all session long (the analyzer caches it).
   */
  private async target(symbol: string, definitionsOf: DefinitionsOf): Promise<Node | 'external' | undefined> {
    if (symbol.startsWith('local ')) return undefined;
    // A symbol is used many times (a type in every signature): found once per session.
    if (this.targets.has(symbol)) return this.targets.get(symbol);
    const found = await this.findTarget(symbol, definitionsOf);
    this.targets.set(symbol, found);
    return found;
  }

  private async findTarget(symbol: string, definitionsOf: DefinitionsOf): Promise<Node | 'external' | undefined> {
    const site = this.definitions.get(symbol);
    if (!site) {
      const parsed = this.parse(symbol);
      const pkg = symbolNamespace(parsed);
      // A package of these modules without a definition here (a test-only symbol, a build-tag variant) is not external.
      return pkg !== undefined && this.packageFiles.has(pkg) ? undefined : 'external';
    }
    const defs = await definitionsOf(site.path);
    return defs ? innermost(defs, site.line, site.name) : undefined;
  }

  /**
   * Turns a file's Phase A graph into its Phase B graph: each ref that the index resolves
   * becomes an edge (provenance `scip`, confidence 1) — calls to functions and methods,
   * conversions as type references, embeddings as `inherits`, imports as edges to every file
   * of the imported package — and refs to the standard library or dependencies are dropped
   * rather than matched by name; type references in each definition and `implements` edges
   * (a type or method to the interface or interface method it satisfies) are added.
   * Refs the index does not cover (a file outside every module, a build-tag variant) stay.
   * `graph` is the request's builder, so its `contains` edges carry `phase-b`.
   */
  async merge(
    graph: FileGraphBuilder,
    syntax: GoSyntaxGraph,
    definitionsOf: DefinitionsOf,
  ): Promise<{ analysis: FileAnalysis; stats: MergeStats }> {
    const stats: MergeStats = { resolved: 0, external: 0, dynamic: 0, typeEdges: 0 };
    const doc = this.docs.get(graph.path);
    if (!doc) return { analysis: graph.build(), stats };
    const sites: Site[] = [];
    const at = new Map<string, Site>();
    for (const occ of doc.occurrences) {
      const site = this.site(occ, syntax.lines, doc.positionEncoding);
      sites.push(site);
      if ((occ.roles & ROLE_DEFINITION) === 0) at.set(`${site.line}:${site.endCol}`, site);
    }
    const seen = new Set<string>();
    const emit = (src: Node | VName, dst: Node, kind: EdgeKind): boolean => {
      const s = 'vname' in src ? src.vname : src;
      if (s.path === dst.vname.path && s.signature === dst.vname.signature) return false;
      const key = `${kind}\0${vnameKey(s)}\0${vnameKey(dst.vname)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      graph.edge(s, dst, kind, { confidence: SCIP_CONFIDENCE, provenance: 'scip' });
      return true;
    };
    const used = new Set<Site>();
    const kept: UnresolvedRef[] = [];
    for (const ref of syntax.refs) {
      const r = ref.range;
      if (!r) {
        kept.push(ref);
        continue;
      }
      // An import's range includes its quotes; the package occurrence does not.
      const site = at.get(`${r.endLine}:${r.endCol}`) ?? (ref.kind === 'imports' ? at.get(`${r.endLine}:${r.endCol - 1}`) : undefined);
      if (!site) {
        if (ref.kind === 'calls') stats.dynamic++;
        else kept.push(ref);
        continue;
      }
      used.add(site);
      if (ref.kind === 'imports') {
        const pkg = symbolNamespace(this.parse(site.symbol));
        const files = pkg !== undefined ? this.packageFiles.get(pkg) : undefined;
        if (!files) {
          stats.external++;
          continue;
        }
        for (const path of files) {
          const defs = await definitionsOf(path);
          const fileNode = defs?.find((d) => d.kind === 'file');
          if (fileNode) emit(ref.src, fileNode, 'imports');
        }
        stats.resolved++;
        continue;
      }
      const target = await this.target(site.symbol, definitionsOf);
      if (target === 'external') {
        stats.external++;
        continue;
      }
      if (!target) {
        if (ref.kind === 'calls') stats.dynamic++;
        else kept.push(ref);
        continue;
      }
      const suffix = this.parse(site.symbol)?.descriptors.at(-1)?.suffix;
      // `T(x)` is a conversion: a use of the type, not a call.
      const kind: EdgeKind = ref.kind === 'calls' && suffix === 'type' ? 'types' : ref.kind;
      emit(ref.src, target, kind);
      stats.resolved++;
    }

    // Type references inside definitions (parameters, fields, composite literals, assertions).
    const inFile = syntax.definitions;
    for (const site of sites) {
      if (used.has(site) || (site.roles & ROLE_DEFINITION) !== 0) continue;
      const suffix = this.parse(site.symbol)?.descriptors.at(-1)?.suffix;
      if (suffix !== 'type') continue;
      const target = await this.target(site.symbol, definitionsOf);
      if (!target || target === 'external') continue;
      const src = innermost(inFile, site.line) ?? graph.fileNode;
      if (emit(src, target, 'types')) stats.typeEdges++;
    }

    // What the types and methods defined here implement.
    for (const info of doc.symbols) {
      const implemented = info.relationships.filter((rel) => rel.isImplementation);
      if (implemented.length === 0) continue;
      const self = await this.target(info.symbol, definitionsOf);
      if (!self || self === 'external' || self.vname.path !== graph.path) continue;
      for (const rel of implemented) {
        const target = await this.target(rel.symbol, definitionsOf);
        if (target && target !== 'external' && emit(self, target, 'implements')) stats.typeEdges++;
      }
    }

    const analysis = graph.build();
    analysis.refs = kept;
    return { analysis, stats };
  }

  private site(occ: ScipOccurrence, lines: LineIndex, encoding: ScipDocument['positionEncoding']): Site {
    return {
      line: occ.endLine + 1,
      startCol: utf8Column(lines, occ.startLine, occ.startChar, encoding),
      endCol: utf8Column(lines, occ.endLine, occ.endChar, encoding),
      symbol: occ.symbol,
      roles: occ.roles,
    };
  }
}

/** Repository paths of the modules (directories with a go.mod) that hold `paths`, nearest first. */
export function moduleDirsOf(paths: Iterable<string>, hasGoMod: (dir: string) => boolean): Map<string, string[]> {
  const byModule = new Map<string, string[]>();
  const cache = new Map<string, string | undefined>();
  const find = (dir: string): string | undefined => {
    if (cache.has(dir)) return cache.get(dir);
    const found = hasGoMod(dir) ? dir : dir === '' ? undefined : find(posix.dirname(dir) === '.' ? '' : posix.dirname(dir));
    cache.set(dir, found);
    return found;
  };
  for (const path of paths) {
    const dir = posix.dirname(path);
    const mod = find(dir === '.' ? '' : dir);
    if (mod === undefined) continue;
    byModule.set(mod, [...(byModule.get(mod) ?? []), path]);
  }
  return byModule;
}
