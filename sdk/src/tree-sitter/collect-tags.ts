import type { Tag } from './tags.js';
import type { Node as SyntaxNode, Query, Tree } from 'web-tree-sitter';

/** Identifier characters of the languages served, for cleaning reference names. */
const WORD = String.raw`[\p{L}\p{N}_$!?@']+`;
const CHAIN = new RegExp(String.raw`^${WORD}(?:(?:\.|::|:)${WORD})*$`, 'u');
const CHAIN_SUFFIX = new RegExp(String.raw`${WORD}(?:(?:\.|::|:)${WORD})*$`, 'u');

/**
 * A reference name as the host matches it: member access written `->` (C, C++, PHP) and
 * namespace separators written `\` (PHP) become `.`, whitespace and line breaks inside a
 * chain go; a callee that is not a plain chain (`make().close`, `foo<int>`) keeps its
 * trailing chain (`close`). Returns '' when nothing name-like is left.
 */
export function cleanReferenceName(written: string): string {
  const flat = written
    .replace(/\s+/g, '')
    .replaceAll('->', '.')
    .replaceAll('?.', '.')
    .replaceAll('\\', '.')
    .replace(/^\.(?=\w)/u, '');
  if (CHAIN.test(flat)) return flat;
  const generic = flat.replace(/<[^<>]*>/g, '');
  if (CHAIN.test(generic)) return generic;
  return CHAIN_SUFFIX.exec(generic)?.[0] ?? '';
}

/**
 * An import as written, with whitespace removed, without the brackets of a C `<stdio.h>`, and
 * with PHP's namespace separator `\` written `.` (`App\Models\User` → `App.Models.User`).
 */
export function cleanImportName(written: string): string {
  const flat = written.replace(/\s+/g, '');
  if (/^<.*>$/.test(flat)) return flat.slice(1, -1);
  return flat.includes('\\') ? flat.replaceAll('\\', '.').replace(/^\.+/, '') : flat;
}

function joinQualifier(qualifier: string, name: string, separator: string): string {
  const q = qualifier.replace(/\s+/g, '');
  if (q.length === 0) return name;
  return /(?:\.|::|\\)$/.test(q) ? `${q}${name}` : `${q}${separator}${name}`;
}

/**
 * The definition node seen as reaching to the end of `end`: Dart writes a method's body
 * beside its signature (`method_signature`, then `function_body`), and the calls in the body
 * belong to the method. Only the end moves; everything else is the node's own.
 */
function extendTo(node: SyntaxNode, end: SyntaxNode): SyntaxNode {
  return new Proxy(node, {
    get(target, property) {
      if (property === 'endIndex') return end.endIndex;
      if (property === 'endPosition') return end.endPosition;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Options of {@link collectTags}. */
export interface CollectOptions {
  /**
   * What joins a `@qualifier` to a reference's `@name` (`::` for Rust's `std::io` + `Read`).
   * Definitions always use `.`, as the SDK does for nesting. Default `.`.
   */
  pathSeparator?: string;
}

/**
 * Runs a tags query like {@link runTagsQuery}, with additions that multi-language and
 * qualified-name grammars need:
 * - a `@qualifier` capture is written before `@name` with a dot, so a Go method is
 *   `Server.Serve`, a method of a Rust `impl Foo` is `Foo.bar` and `from a.b import c` is
 *   `a.b.c` (a qualified definition name is absolute in `tagsToGraph`);
 * - an `@end` capture stretches a definition to the end of that node (Dart's method bodies
 *   are siblings of their signatures);
 * - when several patterns tag the same name node, the first pattern in the file wins (for
 *   definitions and for references alike), so a query lists the specific case (a function
 *   inside a class is a method) before the general one (any function); a
 *   `@reference.ignore` pattern listed first keeps a name from being any reference (Elixir's
 *   `@doc` is syntactically a call);
 * - a name that is defined is not also a reference (Elixir's `def f(x)` head is a call).
 * Reference names are cleaned with {@link cleanReferenceName}. Tags come out in source
 * order, outer before inner, as `tagsToGraph` expects.
 *
 * @example
 * ```ts
 * const tags = collectTags(compileQuery(grammar.language, goQuery), tree);
 * tagsToGraph(tags, ctx.graph, { text: file.text });
 * ```
 */
export function collectTags(query: Query, tree: Tree, options: CollectOptions = {}): Tag[] {
  const definitions = new Map<string, { tag: Tag; pattern: number }>();
  const references = new Map<string, { tag: Tag; pattern: number }>();
  for (const match of query.matches(tree.rootNode)) {
    let role: { role: 'definition' | 'reference'; kind: string; node: SyntaxNode } | undefined;
    let nameNode: SyntaxNode | undefined;
    let qualifier: SyntaxNode | undefined;
    let end: SyntaxNode | undefined;
    const docNodes: SyntaxNode[] = [];
    for (const { name, node } of match.captures) {
      if (name === 'name') nameNode ??= node;
      else if (name === 'qualifier') qualifier ??= node;
      else if (name === 'end') end ??= node;
      else if (name === 'doc') docNodes.push(node);
      else if (name.startsWith('definition.')) role ??= { role: 'definition', kind: name.slice('definition.'.length), node };
      else if (name.startsWith('reference.')) role ??= { role: 'reference', kind: name.slice('reference.'.length), node };
    }
    if (!role || !nameNode) continue;
    const separator = role.role === 'definition' ? '.' : (options.pathSeparator ?? '.');
    let name = qualifier ? joinQualifier(qualifier.text, nameNode.text, separator) : nameNode.text;
    if (role.role === 'reference') name = role.kind === 'import' ? cleanImportName(name) : cleanReferenceName(name);
    if (name.trim().length === 0) continue;
    const node = end && end.endIndex > role.node.endIndex ? extendTo(role.node, end) : role.node;
    const tag: Tag = { role: role.role, kind: role.kind, name, nameNode, node, docNodes };
    if (role.role === 'definition') {
      const key = `${nameNode.startIndex}:${nameNode.endIndex}`;
      const seen = definitions.get(key);
      if (!seen || match.patternIndex < seen.pattern) definitions.set(key, { tag, pattern: match.patternIndex });
    } else {
      const key = `${nameNode.startIndex}:${nameNode.endIndex}`;
      const seen = references.get(key);
      if (!seen || match.patternIndex < seen.pattern) references.set(key, { tag, pattern: match.patternIndex });
    }
  }
  const refs = [...references.entries()].filter(([key, r]) => r.tag.kind !== 'ignore' && !definitions.has(key)).map(([, r]) => r.tag);
  const tags = [...[...definitions.values()].map((d) => d.tag), ...refs];
  return tags.sort(
    (a, b) =>
      a.node.startIndex - b.node.startIndex ||
      b.node.endIndex - a.node.endIndex ||
      (a.role === b.role ? 0 : a.role === 'definition' ? -1 : 1) ||
      a.nameNode.startIndex - b.nameNode.startIndex,
  );
}
