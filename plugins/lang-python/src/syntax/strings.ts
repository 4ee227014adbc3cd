/** Python string literals and docstrings as tree-sitter-python parses them. */
import type { Node as TsNode } from 'web-tree-sitter';

/** The text of a plain string literal without prefix and quotes. */
export function stringValue(n: TsNode): string {
  let out = '';
  for (const c of n.namedChildren) if (c?.type === 'string_content') out += c.text;
  if (out === '' && n.namedChildren.length === 0) {
    // Grammars without string_content nodes: strip quotes.
    return n.text.replace(/^[a-zA-Z]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  }
  return out;
}

/** The docstring of a module or body: its first statement when that is a string. */
export function docstringOf(body: TsNode): string | undefined {
  const first = body.namedChildren.find((c) => c?.type !== 'comment');
  if (first?.type !== 'expression_statement') return undefined;
  const s = first.namedChildren[0];
  if (s?.type !== 'string') return undefined;
  return stringValue(s).trim();
}
