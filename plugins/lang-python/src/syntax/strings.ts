/** Python string literals and docstrings as tree-sitter-python parses them. */
import type { Node as TsNode } from 'web-tree-sitter';

/** The text of a plain string literal without prefix and quotes. */
export function stringValue(n: TsNode): string {
  let out = '';
  const children = n.namedChildren;
  for (const c of children) if (c?.type === 'string_content') out += c.text;
  if (out === '' && children.length === 0) {
    // Grammars without string_content nodes: strip quotes.
    return n.text.replace(/^[a-zA-Z]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  }
  return out;
}

/** The docstring of a module or body: its first statement when that is a string. */
export function docstringOf(body: TsNode): string | undefined {
  // Sibling by sibling: a body's statements are not all marshalled just to look at the first.
  let first = body.firstNamedChild;
  while (first?.type === 'comment') first = first.nextNamedSibling;
  if (first?.type !== 'expression_statement') return undefined;
  const s = first.firstNamedChild;
  if (s?.type !== 'string') return undefined;
  return stringValue(s).trim();
}
