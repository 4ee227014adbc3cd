import { pathToFileURL } from 'node:url';
import type { FileGraphBuilder } from '../graph-builder.js';
import type { LineIndex } from '../positions.js';
import type { EdgeKind, FileAnalysis, Node, Range, UnresolvedRef, VName } from '../index.js';
import { scipCharacterToUtf8 } from './positions.js';
import { scipDocumentPath } from './document-path.js';
import { ROLE_DEFINITION, type ScipDocument, type ScipIndex, type ScipOccurrence, type ScipSymbolInfo } from './scip-index.js';
import { ScipIndexFile, type ScipDocumentRef } from './scip-index-file.js';
import { parseSymbol, symbolNamespace, type ParsedSymbol } from './scip-symbol.js';

/** Confidence of an edge taken from the SCIP index (a compiler resolved it). */
export const SCIP_CONFIDENCE = 1;

/** The constructor descriptor scip-java (SemanticDB) writes: `<init>` as a method, with an optional disambiguator. */
const CONSTRUCTOR = /`?<init>`?\([^)]*\)\.$/;

/** Where a symbol is defined: a repository path and the 1-based line of its name. */
interface DefinitionSite {
  path: string;
  line: number;
  /** The identifier as written at the definition: the symbol's last descriptor (a JVM constructor: its class). */
  name: string;
  /**
   * SCIP's display name when it differs: some indexers write the identifier there, others a
   * signature (`Shop.Checkout.total() -> Swift.Int`): tried when no definition has `name`.
   */
  displayName?: string;
}

/** An occurrence in protocol coordinates: 1-based line, UTF-8 byte columns. */
interface Site {
  line: number;
  startCol: number;
  endCol: number;
  symbol: string;
  roles: number;
}

/** The definitions of a file (Phase A nodes with ranges, its file node among them), for mapping SCIP symbols to VNames. */
export type DefinitionsOf = (path: string) => Promise<readonly Node[] | undefined>;

/** What an analyzer's Phase A made of one file: what {@link ScipGraph.merge} resolves. */
export interface PhaseAGraph {
  /** The file's definitions (ranges set). */
  readonly definitions: readonly Node[];
  /** Its refs, with ranges: a ref is resolved by the occurrence that ends where its range ends. */
  readonly refs: readonly UnresolvedRef[];
  /** The line index of the text, for column conversions. */
  readonly lines: LineIndex;
}

/** How an indexer's occurrences are read into edges. */
export interface ScipGraphOptions {
  /**
   * What a call of a type becomes: `calls` (a constructor call — TypeScript's `new Foo()`,
   * Python's `Foo()`: the default) or `types` (Go's `T(x)` is a conversion, a use of the type).
   */
  readonly callOfType?: 'calls' | 'types';
  /**
   * What `character` offsets count when a document leaves `position_encoding` unspecified:
   * `utf8` (scip-go; the default) or what the indexer really uses (scip-python 0.6: `utf16`).
   */
  readonly unspecifiedEncoding?: 'utf8' | 'utf16' | 'utf32';
  /**
   * {@link ScipGraph.open}: called for an index file that cannot be read (malformed, truncated),
   * which is then left out — its documents are not merged, the other files' are. Without it the
   * open fails.
   */
  readonly onUnreadable?: (path: string, error: Error) => void;
}

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

/** Converts a SCIP `character` offset on a line to UTF-8 bytes; `unspecified` counts as `assume`. */
function utf8Column(
  lines: LineIndex,
  line0: number,
  character: number,
  encoding: ScipDocument['positionEncoding'],
  assume: ScipGraphOptions['unspecifiedEncoding'],
): number {
  const e = encoding === 'unspecified' ? (assume ?? 'utf8') : encoding;
  return e === 'utf8' ? character : scipCharacterToUtf8(lines.line(line0), character, e);
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

/** Where a document of the graph is read from: decoded already, or from its index file. */
type DocumentSource = { readonly doc: ScipDocument } | { readonly lazy: { file?: ScipIndexFile }; readonly ref: ScipDocumentRef };

/**
 * The compiler-resolved view of a repository from SCIP indexes (any SCIP producer: scip-go,
 * scip-typescript, scip-python, scip-java, scip-clang…): where every symbol is defined, which
 * files make up each package or module (a symbol's namespace), and per file the occurrences that
 * resolve an analyzer's Phase A refs. {@link ScipGraph.open} reads index files a document at a
 * time (a large index is never held whole), the constructor takes decoded indexes.
 *
 * @example
 * ```ts
 * const graph = await ScipGraph.open(['/tmp/index.scip'], ctx.root);
 * const { analysis } = await graph.merge(builder, phaseA, definitionsOf);
 * ```
 */
export class ScipGraph {
  private readonly docs = new Map<string, DocumentSource>();
  private readonly definitions = new Map<string, DefinitionSite>();
  private readonly packageFiles = new Map<string, string[]>();
  /** `scheme package` of every symbol defined in the indexes: a symbol of one of them is the repository's. */
  private readonly ownPackages = new Set<string>();
  private readonly parsed = new Map<string, ParsedSymbol | undefined>();
  private readonly targets = new Map<string, Node | 'external' | undefined>();
  private readonly files: ScipIndexFile[] = [];

  /**
   * @param indexes decoded indexes (one per project or module)
   * @param repoRoot the repository root as the plugin sees it (document paths are made relative to it)
   */
  constructor(
    indexes: readonly ScipIndex[],
    private readonly repoRoot: string,
    private readonly options: ScipGraphOptions = {},
  ) {
    for (const index of indexes) for (const doc of index.documents) this.add(index, doc, { doc });
  }

  /**
   * Reads index files (each scanned once and then read a document at a time, see
   * {@link ScipIndexFile}); {@link close} closes them. An entry `{ path, projectRoot }` names the
   * directory the indexer ran in, for an index whose metadata has no project root; with
   * `ranInCopy`, the indexer ran in a copy of `projectRoot` (a tool that writes into its
   * project), and the project root its metadata names is read as `projectRoot`.
   * @throws ScipFormatError for a malformed file
   */
  static async open(
    paths: readonly (string | { readonly path: string; readonly projectRoot: string; readonly ranInCopy?: boolean })[],
    repoRoot: string,
    options: ScipGraphOptions = {},
  ): Promise<ScipGraph> {
    const graph = new ScipGraph([], repoRoot, options);
    try {
      for (const entry of paths) {
        // `projectRoot`: the directory the indexer ran in, for an index whose metadata names none.
        const { path, projectRoot, ranInCopy } =
          typeof entry === 'string' ? { path: entry, projectRoot: undefined, ranInCopy: false } : entry;
        // Each document is taken in as the scan reads it (SCIP writes the metadata, with the
        // project root, first), then dropped: merge() reads it again from its place.
        const holder: { file?: ScipIndexFile } = {};
        const added: string[] = [];
        const root = { projectRoot: '' };
        try {
          const file = await ScipIndexFile.open(path, {
            onDocument: (doc, ref, meta) => {
              const given = projectRoot ? pathToFileURL(projectRoot).href : '';
              root.projectRoot = ranInCopy && given ? given : meta.projectRoot || given;
              const at = graph.add(root, doc, { lazy: holder, ref });
              if (at !== undefined) added.push(at);
            },
          });
          holder.file = file;
          graph.files.push(file);
        } catch (e) {
          if (!options.onUnreadable) throw e;
          // The documents it had yielded stay out of merge(); their definition sites were well formed.
          for (const p of added) graph.docs.delete(p);
          options.onUnreadable(path, e as Error);
        }
      }
    } catch (e) {
      await graph.close();
      throw e;
    }
    return graph;
  }

  /** Closes the index files {@link open} read. */
  async close(): Promise<void> {
    await Promise.all(this.files.splice(0).map((f) => f.close()));
  }

  /** Records where `doc`'s symbols are defined and which namespaces it belongs to. */
  private add(index: Pick<ScipIndex, 'projectRoot'>, doc: ScipDocument, source: DocumentSource): string | undefined {
    const path = scipDocumentPath(index, doc, this.repoRoot);
    if (path === undefined) return undefined;
    this.docs.set(path, source);
    const infos = new Map<string, ScipSymbolInfo>();
    for (const info of doc.symbols) infos.set(info.symbol, info);
    const packages = new Set<string>();
    for (const occ of doc.occurrences) {
      if ((occ.roles & ROLE_DEFINITION) === 0 || occ.symbol.startsWith('local ')) continue;
      // Not cached: a large index defines millions of symbols, and merge() parses few of them.
      const parsed = parseSymbol(occ.symbol);
      const last = parsed?.descriptors[parsed.descriptors.length - 1];
      const pkg = symbolNamespace(parsed);
      if (pkg) packages.add(pkg);
      if (parsed) this.ownPackages.add(`${parsed.scheme} ${parsed.package}`);
      if (!last || last.suffix === 'namespace') continue;
      if (!this.definitions.has(occ.symbol)) {
        const info = infos.get(occ.symbol);
        // A JVM constructor is named after its class in Phase A (`Cart.Cart`), `<init>` in SemanticDB.
        const owner = last.name === '<init>' ? parsed?.descriptors[parsed.descriptors.length - 2]?.name : undefined;
        const name = owner ?? last.name;
        const display = info?.displayName;
        this.definitions.set(occ.symbol, {
          path,
          line: occ.startLine + 1,
          name,
          ...(display && display !== name ? { displayName: display } : {}),
        });
      }
    }
    for (const pkg of packages) {
      const files = this.packageFiles.get(pkg);
      if (files) files.push(path);
      else this.packageFiles.set(pkg, [path]);
    }
    return path;
  }

  private async document(path: string): Promise<ScipDocument | undefined> {
    const source = this.docs.get(path);
    if (!source) return undefined;
    if ('doc' in source) return source.doc;
    if (!source.lazy.file) throw new Error(`${path}: its index file is still being read`);
    return source.lazy.file.read(source.ref);
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
    // A JVM constructor (`Cart#<init>().`): the class, when it declares none of its own.
    const owner = CONSTRUCTOR.exec(symbol);
    if (!site && owner) return this.target(symbol.slice(0, owner.index), definitionsOf);
    if (!site) {
      const parsed = this.parse(symbol);
      const pkg = symbolNamespace(parsed);
      // A package of these modules without a definition here (a test-only symbol, a build-tag
      // variant, what a compiler generates: Swift's memberwise `init`) is not external.
      if (pkg !== undefined && this.packageFiles.has(pkg)) return undefined;
      if (pkg === undefined && parsed && this.ownPackages.has(`${parsed.scheme} ${parsed.package}`)) return undefined;
      return 'external';
    }
    const defs = await definitionsOf(site.path);
    if (!defs) return undefined;
    return (
      innermost(defs, site.line, site.name) ?? (site.displayName !== undefined ? innermost(defs, site.line, site.displayName) : undefined)
    );
  }

  /**
   * Turns a file's Phase A graph into its Phase B graph: each ref that the index resolves
   * becomes an edge (provenance `scip`, confidence 1) of the ref's kind — calls, type
   * references, `inherits`, imports as edges to every file of the imported package or module
   * (the symbol's namespace) — and refs to symbols outside the repository (the standard
   * library, dependencies) are dropped rather than matched by name; type references in each
   * definition and `implements` edges (from SCIP's implementation relationships) are added.
   * Refs the index does not cover (a file it left out, a build-tag variant) stay.
   * `graph` is the request's builder, so its `contains` edges carry `phase-b`.
   */
  async merge(
    graph: FileGraphBuilder,
    syntax: PhaseAGraph,
    definitionsOf: DefinitionsOf,
  ): Promise<{ analysis: FileAnalysis; stats: MergeStats }> {
    const stats: MergeStats = { resolved: 0, external: 0, dynamic: 0, typeEdges: 0 };
    const doc = await this.document(graph.path);
    if (!doc) return { analysis: graph.build(), stats };
    const sites: Site[] = [];
    // Several references may end at one place (scip-swift's `Vec(…)`: the type and its `init`).
    const at = new Map<string, Site[]>();
    for (const occ of doc.occurrences) {
      const site = this.site(occ, syntax.lines, doc.positionEncoding);
      sites.push(site);
      if ((occ.roles & ROLE_DEFINITION) !== 0) continue;
      const key = `${site.line}:${site.endCol}`;
      const list = at.get(key);
      if (list) list.push(site);
      else at.set(key, [site]);
    }
    /** Of the references ending at a place, the first to a definition of the repository, else the first outside it, else the first. */
    const siteAt = async (key: string): Promise<Site | undefined> => {
      const list = at.get(key);
      if (!list || list.length === 1) return list?.[0];
      let outside: Site | undefined;
      for (const candidate of list) {
        const target = await this.target(candidate.symbol, definitionsOf);
        if (target !== undefined && target !== 'external') return candidate;
        if (target === 'external') outside ??= candidate;
      }
      return outside ?? list[0];
    };
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
      const site =
        (await siteAt(`${r.endLine}:${r.endCol}`)) ?? (ref.kind === 'imports' ? await siteAt(`${r.endLine}:${r.endCol - 1}`) : undefined);
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
      // Go's `T(x)` is a conversion: a use of the type, not a call (options.callOfType).
      const kind: EdgeKind = ref.kind === 'calls' && suffix === 'type' && this.options.callOfType === 'types' ? 'types' : ref.kind;
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
      startCol: utf8Column(lines, occ.startLine, occ.startChar, encoding, this.options.unspecifiedEncoding),
      endCol: utf8Column(lines, occ.endLine, occ.endChar, encoding, this.options.unspecifiedEncoding),
      symbol: occ.symbol,
      roles: occ.roles,
    };
  }
}
