import type { Diagnostic, EdgeKind, Node, NodeKind, UnresolvedRef } from '@travsr/protocol';
import { Query, type Language, type Node as SyntaxNode, type Tree } from 'web-tree-sitter';
import type { FileGraphBuilder } from '../graph-builder.js';
import { LineIndex } from '../positions.js';

/**
 * One tag found by a tags query: a definition or a reference, with the node the role
 * capture matched (`@definition.function`, `@reference.call`, …) and its `@name`.
 *
 * @example
 * ```ts
 * for (const tag of runTagsQuery(lang, tree, query)) if (tag.role === 'definition') console.error(tag.kind, tag.name);
 * ```
 */
export interface Tag {
  role: 'definition' | 'reference';
  /** What follows the role in the capture name: `function`, `class`, `call`, `import`, … */
  kind: string;
  /** Text of the `@name` capture. */
  name: string;
  /** The node captured as `@name`. */
  nameNode: SyntaxNode;
  /** The node captured with the role (the whole definition, the whole call). */
  node: SyntaxNode;
  /** Nodes captured as `@doc` in the same match (leading doc comments), if any. */
  docNodes: SyntaxNode[];
}

const queries = new WeakMap<Language, Map<string, Query>>();

/**
 * Compiles a query once per language and source text.
 * @throws Error naming the query problem (web-tree-sitter reports the offset and the bad node type).
 * @example
 * ```ts
 * const query = compileQuery(grammar.language, readFileSync('queries/tags.scm', 'utf8'), 'tree-sitter-lua.wasm');
 * ```
 */
export function compileQuery(language: Language, source: string, grammarLabel?: string): Query {
  let byText = queries.get(language);
  if (!byText) {
    byText = new Map();
    queries.set(language, byText);
  }
  let query = byText.get(source);
  if (!query) {
    try {
      query = new Query(language, source);
    } catch (e) {
      const which = grammarLabel ?? language.name;
      throw new Error(`invalid tags query${which ? ` for ${which}` : ''}: ${(e as Error).message}`);
    }
    byText.set(source, query);
  }
  return query;
}

/**
 * Runs a tags-style query (the convention of tree-sitter's `tags.scm`: a role capture
 * `@definition.<kind>` or `@reference.<kind>` plus a `@name` capture per pattern, and an
 * optional `@doc`) over a tree. Predicates such as `#eq?`, `#match?` and `#not-eq?` apply.
 * Tags come out in source order, one per role node and kind.
 *
 * @example
 * ```ts
 * const tree = grammar.parse(text);
 * const tags = runTagsQuery(grammar.language, tree, `
 *   (function_declaration name: (identifier) @name) @definition.function
 *   (function_call name: (identifier) @name) @reference.call`);
 * tags[0]; // { role: 'definition', kind: 'function', name: 'parse', ... }
 * tree.delete();
 * ```
 */
export function runTagsQuery(language: Language, tree: Tree, querySource: string | Query): Tag[] {
  const query = typeof querySource === 'string' ? compileQuery(language, querySource) : querySource;
  const tags: Tag[] = [];
  const seen = new Set<string>();
  for (const match of query.matches(tree.rootNode)) {
    let role: { role: 'definition' | 'reference'; kind: string; node: SyntaxNode } | undefined;
    let nameNode: SyntaxNode | undefined;
    const docNodes: SyntaxNode[] = [];
    for (const capture of match.captures) {
      const n = capture.name;
      if (n === 'name') nameNode ??= capture.node;
      else if (n === 'doc') docNodes.push(capture.node);
      else if (n.startsWith('definition.')) role ??= { role: 'definition', kind: n.slice('definition.'.length), node: capture.node };
      else if (n.startsWith('reference.')) role ??= { role: 'reference', kind: n.slice('reference.'.length), node: capture.node };
    }
    if (!role || !nameNode) continue;
    const key = `${role.role}:${role.kind}:${role.node.startIndex}:${role.node.endIndex}:${nameNode.startIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push({ role: role.role, kind: role.kind, name: nameNode.text, nameNode, node: role.node, docNodes });
  }
  return tags.sort(
    (a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex || a.nameNode.startIndex - b.nameNode.startIndex,
  );
}

/**
 * Tag kinds (after `definition.`) that become nodes, and the node kind each becomes.
 *
 * @example
 * ```ts
 * DEFAULT_DEFINITION_KINDS['method']; // 'method'
 * ```
 */
export const DEFAULT_DEFINITION_KINDS: Readonly<Record<string, NodeKind>> = {
  function: 'function',
  method: 'method',
  ['constructor']: 'constructor' as NodeKind,
  class: 'class',
  interface: 'interface',
  struct: 'struct',
  enum: 'enum',
  trait: 'trait',
  type: 'type',
  module: 'module',
  namespace: 'namespace',
  package: 'package',
  constant: 'constant',
  variable: 'variable',
  field: 'field',
  property: 'property',
  macro: 'macro',
};

/**
 * Tag kinds (after `reference.`) that become unresolved refs, and the edge kind of each.
 * `reference.class` (a class used by name, e.g. `new Foo`) is a plain reference; name
 * base classes with `reference.inherits` (or `reference.superclass`).
 *
 * @example
 * ```ts
 * DEFAULT_REFERENCE_KINDS['call']; // 'calls'
 * ```
 */
export const DEFAULT_REFERENCE_KINDS: Readonly<Record<string, EdgeKind>> = {
  call: 'calls',
  import: 'imports',
  module: 'imports',
  inherits: 'inherits',
  superclass: 'inherits',
  implementation: 'implements',
  type: 'types',
  class: 'references',
  reference: 'references',
};

/**
 * Options of {@link tagsToGraph}.
 *
 * @example
 * ```ts
 * tagsToGraph(tags, graph, { text, referenceKinds: { send: 'calls' } });
 * ```
 */
export interface TagsToGraphOptions {
  /** The file's source text (for UTF-8 columns and skeletons). */
  text: string;
  /** Reuse a line index built for the same text. */
  lines?: LineIndex;
  /** Extra or overriding `definition.<kind>` → node kind mappings. */
  definitionKinds?: Readonly<Record<string, NodeKind>>;
  /** Extra or overriding `reference.<kind>` → edge kind mappings. */
  referenceKinds?: Readonly<Record<string, EdgeKind>>;
  /**
   * Separators inside a written definition name such as `M.parse` or `M:send`: the node's
   * `name` is the last segment, its qualified name keeps the name as written.
   * Default: `.`, `:` and `::`.
   */
  qualifierSeparator?: RegExp;
  /** Longest signature kept in a skeleton, in lines (default 10; doc comments come on top). */
  maxSkeletonLines?: number;
}

/**
 * What {@link tagsToGraph} added to the builder.
 *
 * @example
 * ```ts
 * const { definitions, refs } = tagsToGraph(tags, graph, { text });
 * ```
 */
export interface TagsGraph {
  definitions: Node[];
  refs: UnresolvedRef[];
}

interface Scope {
  end: number;
  node: Node;
  qualifiedName: string;
}

/** Strips quotes from an import written as a string literal (`"json"`, `'a.b'`, `[[x]]`). */
function unquote(text: string): string {
  const t = text.trim();
  const q = /^(["'`])([\s\S]*)\1$/.exec(t);
  if (q) return q[2] ?? '';
  const long = /^\[(=*)\[([\s\S]*)\]\1\]$/.exec(t);
  if (long) return long[2] ?? '';
  return t;
}

function isComment(node: SyntaxNode): boolean {
  return node.type.includes('comment');
}

/** Leading comments directly above a definition (adjacent lines), oldest first. */
function leadingComments(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  let line = node.startPosition.row;
  // A definition wrapped by a statement (e.g. `local function`) may have the comment as
  // the sibling of an ancestor that starts at the same place.
  let anchor: SyntaxNode | null = node;
  while (anchor && !anchor.previousSibling && anchor.parent && anchor.parent.startIndex === node.startIndex) anchor = anchor.parent;
  for (
    let sib = anchor?.previousSibling ?? null;
    sib && isComment(sib) && sib.endPosition.row >= line - 1 && out.length < 20;
    sib = sib.previousSibling
  ) {
    out.unshift(sib);
    line = sib.startPosition.row;
  }
  return out;
}

/** The `body` of a definition: its own `body` field, or that of a child (e.g. a function value). */
function bodyOf(node: SyntaxNode): SyntaxNode | null {
  const own = node.childForFieldName('body');
  if (own) return own;
  for (const child of node.namedChildren) {
    const inner = child?.childForFieldName('body');
    if (inner) return inner;
  }
  return null;
}

/**
 * Doc comments plus the head of the definition: everything before its body (the
 * signature), or its first line when the grammar names no body.
 */
function skeletonOf(tag: Tag, lines: LineIndex, maxHeadLines: number): string {
  const docs = tag.docNodes.length > 0 ? tag.docNodes : leadingComments(tag.node);
  const doc = docs.map((d) => d.text.trimEnd()).join('\n');
  const start = tag.node.startPosition;
  const body = bodyOf(tag.node);
  const stop = body && body.startIndex > tag.node.startIndex ? body.startPosition : { row: start.row, column: Number.MAX_SAFE_INTEGER };
  const last = Math.min(stop.row, start.row + maxHeadLines - 1);
  const head: string[] = [];
  for (let r = start.row; r <= last; r++) {
    let text = lines.line(r);
    if (r === stop.row) text = text.slice(0, stop.column);
    if (r === start.row) text = text.slice(start.column);
    head.push(text);
  }
  const headText = head.join('\n').trimEnd();
  return doc ? `${doc}\n${headText}` : headText;
}

/**
 * Turns tags into a Phase A graph on a {@link FileGraphBuilder}: a node per definition
 * tag with a `contains` edge from its enclosing definition (or the file), qualified names
 * from nesting (`Stack.push`; a name written qualified, like Lua's `M.parse`, is kept as
 * written), and an unresolved ref per reference tag, sourced at the
 * innermost enclosing definition. No reference is resolved here: a name match is a guess,
 * and the host decides how far to trust it.
 *
 * Tags whose kind has no mapping are skipped.
 *
 * @example
 * ```ts
 * const tree = grammar.parse(file.text);
 * try {
 *   tagsToGraph(runTagsQuery(grammar.language, tree, query), ctx.graph, { text: file.text });
 * } finally { tree.delete(); }
 * return ctx.graph.build();
 * ```
 */
export function tagsToGraph(tags: readonly Tag[], graph: FileGraphBuilder, options: TagsToGraphOptions): TagsGraph {
  const lines = options.lines ?? new LineIndex(options.text);
  const defKinds = { ...DEFAULT_DEFINITION_KINDS, ...options.definitionKinds };
  const refKinds = { ...DEFAULT_REFERENCE_KINDS, ...options.referenceKinds };
  const separator = options.qualifierSeparator ?? /::|[.:]/;
  const headLines = options.maxSkeletonLines ?? 10;
  const out: TagsGraph = { definitions: [], refs: [] };
  const stack: Scope[] = [];
  for (const tag of tags) {
    const start = tag.node.startIndex;
    while (stack.length > 0 && stack[stack.length - 1]!.end <= start) stack.pop();
    const scope = stack[stack.length - 1];
    if (tag.role === 'definition') {
      const kind = Object.hasOwn(defKinds, tag.kind) ? defKinds[tag.kind] : undefined;
      const written = tag.name.trim();
      if (!kind || written.length === 0) continue;
      const segments = written.split(separator).filter((s) => s.length > 0);
      const name = segments[segments.length - 1] ?? written;
      // A name written with its own qualifier (`M.parse`, `Foo::bar`) is already a path;
      // only a plain name takes the enclosing definition's (`Stack` + `push`).
      const qualifiedName = scope && segments.length <= 1 ? `${scope.qualifiedName}.${written}` : written;
      const node = graph.define({
        kind,
        name,
        qualifiedName,
        range: lines.range(tag.node.startPosition, tag.node.endPosition),
        skeleton: skeletonOf(tag, lines, headLines),
        parent: scope ? scope.node : graph.fileNode,
      });
      out.definitions.push(node);
      stack.push({ end: tag.node.endIndex, node, qualifiedName });
    } else {
      const kind = Object.hasOwn(refKinds, tag.kind) ? refKinds[tag.kind] : undefined;
      if (!kind) continue;
      const name = kind === 'imports' ? unquote(tag.name) : tag.name.trim();
      const ref = graph.ref(
        scope ? scope.node : graph.fileNode,
        kind,
        name,
        lines.range(tag.nameNode.startPosition, tag.nameNode.endPosition),
      );
      if (ref) out.refs.push(ref);
    }
  }
  return out;
}

/**
 * Counts of syntax errors in a tree.
 *
 * @example
 * ```ts
 * const { errors, missing } = countParseErrors(tree);
 * ```
 */
export interface ParseErrorSummary {
  /** `ERROR` nodes (input the parser skipped). */
  errors: number;
  /** `MISSING` nodes (tokens the parser invented). */
  missing: number;
  /** Where the first one is. */
  first?: { start: { row: number; column: number }; end: { row: number; column: number } };
}

/**
 * Counts `ERROR` and `MISSING` nodes, visiting only subtrees that contain errors.
 *
 * @example
 * ```ts
 * countParseErrors(grammar.parse('function f(')); // { errors: 0, missing: 1, first: {...} }
 * ```
 */
export function countParseErrors(tree: Tree): ParseErrorSummary {
  const summary: ParseErrorSummary = { errors: 0, missing: 0 };
  if (!tree.rootNode.hasError) return summary;
  const stack: SyntaxNode[] = [tree.rootNode];
  const found: SyntaxNode[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError) {
      summary.errors++;
      found.push(node);
    } else if (node.isMissing) {
      summary.missing++;
      found.push(node);
    }
    for (const child of node.children) if (child && (child.hasError || child.isMissing)) stack.push(child);
  }
  const first = found.sort((a, b) => a.startIndex - b.startIndex)[0];
  if (first) summary.first = { start: first.startPosition, end: first.endPosition };
  return summary;
}

/**
 * A warning diagnostic (code `PARSE_ERRORS`) for a tree with syntax errors, or
 * `undefined` for a clean tree. A file that parses with errors is still analyzed: tree-sitter
 * recovers, and the definitions outside the broken region are real.
 *
 * @example
 * ```ts
 * const d = parseErrorDiagnostic(tree, lines);
 * if (d) graph.diagnostic(d);
 * ```
 */
export function parseErrorDiagnostic(tree: Tree, lines: LineIndex): Diagnostic | undefined {
  const s = countParseErrors(tree);
  const total = s.errors + s.missing;
  if (total === 0) return undefined;
  const parts = [s.errors > 0 ? `${s.errors} ERROR` : '', s.missing > 0 ? `${s.missing} MISSING` : ''].filter(Boolean).join(', ');
  const d: Diagnostic = {
    severity: 'warning',
    code: 'PARSE_ERRORS',
    message: `${total} syntax error${total === 1 ? '' : 's'} (${parts} node${total === 1 ? '' : 's'}); definitions in the broken region may be missing`,
  };
  if (s.first) d.range = lines.range(s.first.start, s.first.end);
  return d;
}
