// Turns rust-analyzer's SCIP index into call and implements edges between the plugin's own
// definitions. rust-analyzer names what each identifier refers to; the plugin knows its
// definitions (by the line of their name) and its functions (by range). A reference occurrence
// of a function or method is a call when `(` or `::<…>(` follows it in the source; its target is
// found at the symbol's definition occurrence. Nothing is matched by name: a reference
// rust-analyzer did not resolve, or resolved outside the repository, gets no edge.
//
// rust-analyzer (up to at least 2025) writes no SCIP relationships (rust-lang/rust-analyzer#14031),
// so an impl member is tied to the trait item it implements through its symbol
// (`impl#[Memory][Store]load().`) and the trait reference in the impl's header.
import {
  decodeScipIndex,
  parseSymbol,
  ROLE_DEFINITION,
  scipCharacterToUtf8,
  scipDocumentPath,
  type ParsedSymbol,
  type ScipDocument,
  type ScipIndex,
  type ScipOccurrence,
} from '@travsr/sdk/scip';

/**
 * The plugin's view of its own definitions, as the upgrade asks for it. Lines are 1-based,
 * columns 0-based UTF-8 bytes (the protocol's `Range` convention).
 */
export interface ScipRustCallbacks {
  /** The signature of the definition whose name `name` is on `line` of `path`, or undefined. */
  definitionAt(path: string, line: number, name: string): string | undefined;
  /**
   * The signature of the caller of a call at the position: the innermost function around, else
   * the innermost const or static; undefined when none.
   */
  callerAt(path: string, line: number, column: number): string | undefined;
  /** The text of a repository file, or undefined when it cannot be read. */
  textOf(path: string): string | undefined;
}

/** An edge from a definition of the file asked about (`srcSig`) to a definition of the repository. */
export interface ScipRustEdge {
  srcSig: string;
  dstPath: string;
  dstSig: string;
}

/**
 * What became of one reference to a function or method that is called:
 * - `resolved`: {@link ScipRustCallSite.target} is the definition called (a trait item for a
 *   call rust-analyzer resolved to an impl of the repository's trait).
 * - `external`: the callee is defined outside the index (std, a dependency), or is an impl
 *   member of a trait defined outside it.
 * - `unmapped`: the callee is defined in the repository but `definitionAt` knows no definition
 *   there, or the trait an impl member implements could not be found.
 * - `ambiguous`: several definitions share the callee's symbol (rust-analyzer does not tell
 *   apart two inherent impls' `new`, or two binaries' `helper`) and none is in the caller's file.
 * - `no-caller`: the call is outside every function, const and static (an array length, an enum discriminant).
 */
export type RustCallOutcome = 'resolved' | 'external' | 'unmapped' | 'ambiguous' | 'no-caller';

/** One call rust-analyzer resolved in a file, and what it maps to. */
export interface ScipRustCallSite {
  /** 1-based line of the callee's name. */
  line: number;
  /** 0-based UTF-8 byte column of the callee's name. */
  column: number;
  /** The callee's name as written there. */
  name: string;
  /** The SCIP symbol referenced there. */
  symbol: string;
  /** The caller's signature, from `callerAt` (absent when `no-caller`). */
  callerSig?: string;
  outcome: RustCallOutcome;
  /** The definition called, when `resolved`. */
  target?: { path: string; sig: string };
}

/** Where a symbol is defined: a repository path and the definition occurrence there. */
interface DefinitionSite {
  path: string;
  occurrence: ScipOccurrence;
  /** The identifier as written there, once read. */
  name?: string;
}

/** A file's text, split into lines (a `\r` before a newline stays at the line's end). */
interface SourceLines {
  lines: string[];
}

const SIMPLE_NAME = /^[A-Za-z0-9_+\-$]+$/;

type Descriptor = ParsedSymbol['descriptors'][number];

/** A descriptor as SCIP writes it (`load().`, `MAX.`, `Item#`). */
function formatDescriptor(d: Descriptor): string | undefined {
  const name = SIMPLE_NAME.test(d.name) ? d.name : `\`${d.name.replaceAll('`', '``')}\``;
  switch (d.suffix) {
    case 'method':
      return `${name}().`;
    case 'term':
      return `${name}.`;
    case 'type':
      return `${name}#`;
    case 'namespace':
    case 'type-parameter':
    case 'parameter':
    case 'meta':
    case 'macro':
    case 'local':
      return undefined;
  }
}

/** The trait name of an impl descriptor's display (`fmt::Display`, `From<u8>`, `Fn(u8) -> u8`): `Display`, `From`, `Fn`. */
function simpleTraitName(display: string): string {
  const bare = display.replace(/[<(].*$/s, '').trim();
  const at = bare.lastIndexOf('::');
  return at < 0 ? bare : bare.slice(at + 2);
}

/** A symbol a call or an impl member counts against, or `external` when that is outside the repository. */
type TraitItem = { symbol: string } | 'external';

/** A member of a trait impl, from its symbol. */
interface TraitImplMember {
  /** The symbol up to the impl (`…/impl#[Memory][Store]`): every member of the impl starts with it. */
  prefix: string;
  /** The trait as the symbol displays it (`Store`, `fmt::Display`, `From<u8>`). */
  trait: string;
  /** The member's descriptor as SCIP writes it (`load().`). */
  tail: string;
}

/**
 * The parts of a trait impl member's symbol (`…/impl#[Memory][Store]load().`); undefined for
 * a member of an inherent impl (`impl#[Memory]with().`) and anything else.
 */
function traitImplMember(symbol: string, parsed: ParsedSymbol | undefined): TraitImplMember | undefined {
  const d = parsed?.descriptors ?? [];
  const [impl, self, trait, member] = [d.at(-4), d.at(-3), d.at(-2), d.at(-1)];
  if (!impl || !self || !trait || !member) return undefined;
  if (impl.name !== 'impl' || impl.suffix !== 'type' || self.suffix !== 'type-parameter' || trait.suffix !== 'type-parameter')
    return undefined;
  const tail = formatDescriptor(member);
  if (tail === undefined || !symbol.endsWith(tail)) return undefined;
  return { prefix: symbol.slice(0, -tail.length), trait: trait.name, tail };
}

/** Index in `line` (UTF-16) of a UTF-8 byte column. */
function indexOfByte(line: string, byteCol: number): number {
  if (/^[\x00-\x7f]*$/.test(line)) return Math.min(byteCol, line.length);
  let bytes = 0;
  let i = 0;
  while (i < line.length && bytes < byteCol) {
    const cp = line.codePointAt(i)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** Skips whitespace and comments from (line, index); the position of the next token, or undefined at the end. */
function nextToken(src: SourceLines, line0: number, index: number): [number, number] | undefined {
  let l = line0;
  let i = index;
  while (l < src.lines.length) {
    const text = src.lines[l]!;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i < text.length && text.startsWith('//', i)) i = text.length;
    if (i < text.length) return [l, i];
    l++;
    i = 0;
  }
  return undefined;
}

/** True when the identifier ending at (line0, index) is called: `(` follows, or `::<…>(`. */
export function isCallAt(src: SourceLines, line0: number, index: number): boolean {
  let at = nextToken(src, line0, index);
  if (!at) return false;
  const char = (p: [number, number]) => src.lines[p[0]]![p[1]];
  if (char(at) === '(') return true;
  if (!src.lines[at[0]]!.startsWith('::', at[1])) return false;
  at = nextToken(src, at[0], at[1] + 2);
  if (!at || char(at) !== '<') return false;
  // The turbofish's generic arguments, `->` of a `fn() -> T` argument not counted as a closing `>`.
  let depth = 0;
  let [l, i] = at;
  for (let budget = 4096; l < src.lines.length && budget > 0; budget--) {
    const text = src.lines[l]!;
    if (i >= text.length) {
      l++;
      i = 0;
      continue;
    }
    const c = text[i]!;
    if (c === '-' && text[i + 1] === '>') i += 2;
    else {
      if (c === '<') depth++;
      else if (c === '>') depth--;
      else if (c === ';' || c === '{' || c === '}') return false;
      i++;
      if (depth === 0) {
        const after = nextToken(src, l, i);
        return after !== undefined && char(after) === '(';
      }
    }
  }
  return false;
}

/**
 * A decoded rust-analyzer index of a repository, with the lookups edge mapping needs (built
 * once, shared by every file of a session).
 *
 * @example
 * ```ts
 * const index = ScipRustIndex.decode(readFileSync('/tmp/index.scip'), '/repo');
 * const callbacks = { definitionAt, callerAt, textOf };
 * if (index.has('src/lib.rs')) for (const e of index.callEdges('src/lib.rs', callbacks)) console.log(e.srcSig, '->', e.dstPath, e.dstSig);
 * ```
 */
export class ScipRustIndex {
  /** The indexer that wrote it (`rust-analyzer` and its version), of the first index. */
  readonly tool: { name: string; version: string };
  private readonly docs = new Map<string, ScipDocument>();
  private readonly definitionSites = new Map<string, DefinitionSite[]>();
  /** `is_implementation` relationships, should rust-analyzer write them. */
  private readonly implementations = new Map<string, string[]>();
  private readonly parsed = new Map<string, ParsedSymbol | undefined>();
  private readonly traitItems = new Map<string, TraitItem | undefined>();
  private readonly texts = new Map<string, SourceLines | undefined>();
  /** Per document, its occurrences in source order (for the walk back to an impl's header). */
  private readonly ordered = new Map<string, ScipOccurrence[]>();
  /** Files changed since rust-analyzer ran ({@link forget}). */
  private readonly stale = new Set<string>();

  /**
   * @param indexes what rust-analyzer wrote, one index per Cargo workspace it ran on
   * @param repoRoot the repository root as the plugin sees it (document paths are made relative to it)
   */
  constructor(indexes: ScipIndex | readonly ScipIndex[], repoRoot: string) {
    const list: readonly ScipIndex[] = Array.isArray(indexes) ? indexes : [indexes as ScipIndex];
    this.tool = list[0]?.tool ?? { name: 'rust-analyzer', version: '' };
    for (const index of list) {
      for (const doc of index.documents) {
        const path = scipDocumentPath(index, doc, repoRoot);
        // Two workspaces holding one file (a shared module): the first index's document stands.
        if (path === undefined || this.docs.has(path)) continue;
        this.docs.set(path, doc);
        for (const occ of doc.occurrences) {
          if ((occ.roles & ROLE_DEFINITION) === 0 || occ.symbol.startsWith('local ')) continue;
          const site: DefinitionSite = { path, occurrence: occ };
          const sites = this.definitionSites.get(occ.symbol);
          if (sites) sites.push(site);
          else this.definitionSites.set(occ.symbol, [site]);
        }
        for (const info of doc.symbols) {
          const implemented = info.relationships.filter((r) => r.isImplementation).map((r) => r.symbol);
          if (implemented.length > 0) this.implementations.set(info.symbol, implemented);
        }
      }
    }
  }

  /**
   * Decodes the bytes of `index.scip`.
   * @throws ScipFormatError (`SCIP_MALFORMED`) when they are not a SCIP index.
   */
  static decode(bytes: Uint8Array, repoRoot: string): ScipRustIndex {
    return new ScipRustIndex(decodeScipIndex(bytes), repoRoot);
  }

  /** Number of files rust-analyzer indexed. */
  get documentCount(): number {
    return this.docs.size;
  }

  /** True when rust-analyzer indexed this repository path (a file it did not keeps the native edges). */
  has(path: string): boolean {
    return this.docs.has(path);
  }

  /**
   * Drops what the index says of files changed since rust-analyzer ran (`ctx.changed`): they
   * are no longer {@link has held}, and calls into their definitions, whose lines may have
   * moved, come back `unmapped`.
   */
  forget(paths: Iterable<string>): void {
    for (const path of paths) {
      if (!this.docs.delete(path)) continue;
      this.stale.add(path);
      this.texts.delete(path);
      this.ordered.delete(path);
    }
    this.traitItems.clear();
  }

  /**
   * Every call of a function or method rust-analyzer resolved in a file, in source order, with
   * what it maps to. A file the index does not hold has none.
   */
  resolveCalls(path: string, callbacks: ScipRustCallbacks): ScipRustCallSite[] {
    const doc = this.docs.get(path);
    const src = this.source(path, callbacks);
    if (!doc || !src) return [];
    const out: ScipRustCallSite[] = [];
    for (const occ of this.occurrencesOf(path, doc)) {
      if ((occ.roles & ROLE_DEFINITION) !== 0 || occ.symbol.startsWith('local ')) continue;
      if (this.parse(occ.symbol)?.descriptors.at(-1)?.suffix !== 'method') continue;
      const text = src.lines[occ.endLine];
      if (text === undefined) continue;
      const [column, endColumn] = this.utf8Columns(doc, src, occ);
      if (!isCallAt(src, occ.endLine, indexOfByte(text, endColumn))) continue;
      const line = src.lines[occ.startLine] ?? '';
      const name = occ.startLine === occ.endLine ? line.slice(indexOfByte(line, column), indexOfByte(line, endColumn)) : '';
      const site: ScipRustCallSite = { line: occ.startLine + 1, column, name, symbol: occ.symbol, outcome: 'resolved' };
      const caller = callbacks.callerAt(path, site.line, column);
      if (caller === undefined) {
        out.push({ ...site, outcome: 'no-caller' });
        continue;
      }
      site.callerSig = caller;
      const callee = this.callee(occ.symbol);
      if (callee === 'external' || callee === undefined) {
        out.push({ ...site, outcome: callee ?? 'unmapped' });
        continue;
      }
      const target = this.definitionOf(callee.symbol, path, callbacks);
      if (typeof target === 'string') out.push({ ...site, outcome: target });
      else out.push({ ...site, target });
    }
    return out;
  }

  /**
   * `calls` edges from each caller in a file to what rust-analyzer resolved its calls to, one
   * per caller and callee. A call rust-analyzer resolved to an impl of a trait lands on the
   * trait's item, as the native resolver's do (dispatch is followed through
   * {@link implementsEdges}).
   */
  callEdges(path: string, callbacks: ScipRustCallbacks): ScipRustEdge[] {
    const edges = new EdgeList();
    for (const site of this.resolveCalls(path, callbacks))
      if (site.target && site.callerSig !== undefined) edges.add(site.callerSig, site.target.path, site.target.sig);
    return edges.list;
  }

  /**
   * `implements` edges from each member of a trait impl in a file (a method, an associated
   * const or type) to the trait's item, when the trait is the repository's. From SCIP's
   * `is_implementation` relationships when the index has them, else from the member's symbol
   * and the trait named in the impl's header.
   */
  implementsEdges(path: string, callbacks: ScipRustCallbacks): ScipRustEdge[] {
    const doc = this.docs.get(path);
    if (!doc) return [];
    const src = this.source(path, callbacks);
    const edges = new EdgeList();
    for (const occ of this.occurrencesOf(path, doc)) {
      if ((occ.roles & ROLE_DEFINITION) === 0 || occ.symbol.startsWith('local ')) continue;
      const related = this.implementations.get(occ.symbol);
      const traitItem = this.traitItemOf(occ.symbol);
      const targets = related ?? (traitItem !== undefined && traitItem !== 'external' ? [traitItem.symbol] : []);
      if (targets.length === 0) continue;
      const name = this.nameAt(doc, src, occ) ?? this.parse(occ.symbol)?.descriptors.at(-1)?.name ?? '';
      const self = callbacks.definitionAt(path, occ.startLine + 1, name);
      if (self === undefined) continue;
      for (const t of targets) {
        const target = this.definitionOf(t, path, callbacks);
        if (typeof target !== 'string') edges.add(self, target.path, target.sig);
      }
    }
    return edges.list;
  }

  /** The symbol a call of `symbol` counts against: the trait's item for a trait impl member; why there is none otherwise. */
  private callee(symbol: string): TraitItem | undefined {
    const traitItem = this.traitItemOf(symbol);
    if (traitItem !== undefined) return traitItem;
    return traitImplMember(symbol, this.parse(symbol)) ? undefined : { symbol };
  }

  /**
   * The trait item a trait impl member implements (`…/Store#load().` for
   * `…/impl#[Memory][Store]load().`), `external` when the trait is not the repository's, or
   * undefined (not a trait impl member, or its trait was not found). The trait is the one named
   * in the impl's header: the nearest reference to a type before the member's definition,
   * within the impl, whose item of the member's name the index defines (named as the impl's
   * symbol displays the trait, when several are).
   */
  private traitItemOf(symbol: string): TraitItem | undefined {
    if (this.traitItems.has(symbol)) return this.traitItems.get(symbol);
    let found: TraitItem | undefined;
    const related = this.implementations.get(symbol);
    const member = traitImplMember(symbol, this.parse(symbol));
    if (related && related.length > 0) {
      const item = related.find((r) => this.definitionSites.has(r));
      found = item !== undefined ? { symbol: item } : 'external';
    } else if (member) {
      const site = this.definitionSites.get(symbol)?.[0];
      const doc = site ? this.docs.get(site.path) : undefined;
      if (site && doc) found = this.traitInHeader(member, site, doc);
    }
    this.traitItems.set(symbol, found);
    return found;
  }

  private traitInHeader(member: TraitImplMember, site: DefinitionSite, doc: ScipDocument): TraitItem | undefined {
    const wanted = simpleTraitName(member.trait);
    const occurrences = this.occurrencesOf(site.path, doc);
    const at = occurrences.indexOf(site.occurrence);
    let fallback: string | undefined;
    for (let i = at - 1; i >= 0; i--) {
      const o = occurrences[i]!;
      if ((o.roles & ROLE_DEFINITION) !== 0) {
        // Inside the impl: its other members, their locals and the impl's generic parameters.
        if (o.symbol.startsWith('local ') || o.symbol.startsWith(member.prefix)) continue;
        break;
      }
      const last = this.parse(o.symbol)?.descriptors.at(-1);
      if (last?.suffix !== 'type') continue;
      const item = o.symbol + member.tail;
      if (last.name === wanted) {
        if (this.definitionSites.has(item)) return { symbol: item };
        if (!this.definitionSites.has(o.symbol)) return 'external';
      } else if (fallback === undefined && this.definitionSites.has(item)) fallback = item;
    }
    // A trait renamed by `use … as …` displays as the rename: its item is the nearest that exists.
    return fallback !== undefined ? { symbol: fallback } : undefined;
  }

  /** The definition `symbol` maps to, seen from a reference in `fromPath`; or why there is none. */
  private definitionOf(
    symbol: string,
    fromPath: string,
    callbacks: ScipRustCallbacks,
  ): { path: string; sig: string } | 'external' | 'unmapped' | 'ambiguous' {
    const all = this.definitionSites.get(symbol);
    if (!all) return 'external';
    const sites = all.filter((s) => !this.stale.has(s.path));
    const found = new Map<string, { path: string; sig: string }>();
    for (const s of sites) {
      const name = this.siteName(s, callbacks) ?? this.parse(symbol)?.descriptors.at(-1)?.name ?? '';
      const sig = callbacks.definitionAt(s.path, s.occurrence.startLine + 1, name);
      if (sig !== undefined) found.set(`${s.path}\0${sig}`, { path: s.path, sig });
    }
    if (found.size === 0) return 'unmapped';
    if (found.size === 1) return [...found.values()][0]!;
    // One symbol for several definitions: the one in the caller's file (a binary's own helper), else none.
    const local = [...found.values()].filter((t) => t.path === fromPath);
    return local.length === 1 ? local[0]! : 'ambiguous';
  }

  /** The identifier at a definition site, as written. */
  private siteName(site: DefinitionSite, callbacks: ScipRustCallbacks): string | undefined {
    if (site.name !== undefined) return site.name;
    const doc = this.docs.get(site.path);
    const name = doc ? this.nameAt(doc, this.source(site.path, callbacks), site.occurrence) : undefined;
    if (name) site.name = name;
    return name;
  }

  private nameAt(doc: ScipDocument, src: SourceLines | undefined, occ: ScipOccurrence): string | undefined {
    if (!src || occ.startLine !== occ.endLine) return undefined;
    const line = src.lines[occ.startLine];
    if (line === undefined) return undefined;
    const [start, end] = this.utf8Columns(doc, src, occ);
    const name = line.slice(indexOfByte(line, start), indexOfByte(line, end));
    return name === '' ? undefined : name;
  }

  /** An occurrence's start and end columns in UTF-8 bytes (rust-analyzer writes UTF-8; other encodings are converted). */
  private utf8Columns(doc: ScipDocument, src: SourceLines, occ: ScipOccurrence): [number, number] {
    const enc = doc.positionEncoding;
    if (enc === 'utf8' || enc === 'unspecified') return [occ.startChar, occ.endChar];
    return [
      scipCharacterToUtf8(src.lines[occ.startLine] ?? '', occ.startChar, enc),
      scipCharacterToUtf8(src.lines[occ.endLine] ?? '', occ.endChar, enc),
    ];
  }

  private occurrencesOf(path: string, doc: ScipDocument): ScipOccurrence[] {
    let list = this.ordered.get(path);
    if (!list) {
      list = [...doc.occurrences].sort((a, b) => a.startLine - b.startLine || a.startChar - b.startChar);
      this.ordered.set(path, list);
    }
    return list;
  }

  private source(path: string, callbacks: ScipRustCallbacks): SourceLines | undefined {
    if (this.texts.has(path)) return this.texts.get(path);
    const text = callbacks.textOf(path);
    const src = text === undefined ? undefined : { lines: text.split('\n') };
    this.texts.set(path, src);
    return src;
  }

  private parse(symbol: string): ParsedSymbol | undefined {
    if (!this.parsed.has(symbol)) this.parsed.set(symbol, parseSymbol(symbol));
    return this.parsed.get(symbol);
  }
}

/** Edges without duplicates, in the order first added. */
class EdgeList {
  readonly list: ScipRustEdge[] = [];
  private readonly seen = new Set<string>();

  add(srcSig: string, dstPath: string, dstSig: string): void {
    const key = `${srcSig}\0${dstPath}\0${dstSig}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ srcSig, dstPath, dstSig });
  }
}
