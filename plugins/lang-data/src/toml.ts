import type { Node as SyntaxNode, Tree } from 'web-tree-sitter';
import type { LineIndex } from '@travsr/sdk';
import { lazy, type Entry, type Item, type ParsedData, type Value } from './model.js';
import { contentChildren, decodeDoubleQuoted, parseErrorsOf, rangeOf } from './syntax.js';

/**
 * Reads a tree of tree-sitter-toml. The top-level keys of a TOML file are what its author
 * wrote at the top level: the pairs before the first table, and each table header
 * (`[tool.ruff]`, every `[[bin]]`), named by its full dotted path. A table's range ends at
 * its last pair, not at the next header.
 */
export function readToml(tree: Tree, positions: LineIndex): ParsedData {
  const entries: Entry[] = [];
  for (const node of contentChildren(tree.rootNode)) {
    if (node.type === 'pair') {
      const entry = pairEntry(node, positions);
      if (entry) entries.push(entry);
    } else if (node.type === 'table' || node.type === 'table_array_element') {
      const entry = tableEntry(node, positions);
      if (entry) entries.push(entry);
    }
  }
  const errors = parseErrorsOf(tree, positions, 'a key whose value is broken is left out');
  return { documents: [{ entries, levels: 1 }], diagnostics: errors ? [errors] : [] };
}

const KEY_TYPES = new Set(['bare_key', 'quoted_key', 'dotted_key']);

/** The segments of a bare, quoted or dotted key. */
function keySegments(key: SyntaxNode): string[] {
  switch (key.type) {
    case 'dotted_key':
      return contentChildren(key).flatMap(keySegments);
    case 'quoted_key':
      return [key.text.startsWith("'") ? key.text.slice(1, -1) : decodeDoubleQuoted(key.text)];
    default:
      return [key.text];
  }
}

function pairEntry(pair: SyntaxNode, positions: LineIndex): Entry | undefined {
  const [key, value] = contentChildren(pair);
  if (!key || !KEY_TYPES.has(key.type)) return undefined;
  return { path: keySegments(key), head: `${key.text} =`, range: rangeOf(pair, positions), value: valueOf(value, positions) };
}

function tableEntry(table: SyntaxNode, positions: LineIndex): Entry | undefined {
  const [key, ...body] = contentChildren(table);
  if (!key || !KEY_TYPES.has(key.type)) return undefined;
  const array = table.type === 'table_array_element';
  const pairs = body.filter((n) => n.type === 'pair');
  // tree-sitter ends a table where the next one starts (blank lines and comments included).
  const closing = table.children.find((c) => c?.type === (array ? ']]' : ']'));
  const last = pairs[pairs.length - 1] ?? closing ?? key;
  return {
    path: keySegments(key),
    head: array ? `[[${key.text}]]` : `[${key.text}]`,
    range: positions.range(table.startPosition, last.endPosition),
    value: {
      kind: 'mapping',
      entries: lazy(() => pairs.map((p) => pairEntry(p, positions)).filter((e): e is Entry => e !== undefined)),
    },
  };
}

function decodeString(text: string): string {
  if (text.startsWith('"""') || text.startsWith("'''")) return text.slice(3, -3).replace(/^\r?\n/, '');
  if (text.startsWith("'")) return text.slice(1, -1);
  return decodeDoubleQuoted(text);
}

function valueOf(node: SyntaxNode | undefined, positions: LineIndex): Value {
  if (!node) return { kind: 'empty' };
  switch (node.type) {
    case 'inline_table':
      return {
        kind: 'mapping',
        entries: lazy(() =>
          contentChildren(node)
            .map((p) => (p.type === 'pair' ? pairEntry(p, positions) : undefined))
            .filter((e): e is Entry => e !== undefined),
        ),
      };
    case 'array':
      return {
        kind: 'sequence',
        items: lazy(() => contentChildren(node).map((n): Item => ({ value: valueOf(n, positions), range: rangeOf(n, positions) }))),
      };
    case 'string':
      return { kind: 'scalar', text: node.text, string: decodeString(node.text) };
    default:
      return { kind: 'scalar', text: node.text };
  }
}
