import type { Diagnostic, LineIndex, Range } from '@travsr/sdk';
import type { Node as SyntaxNode, Tree } from 'web-tree-sitter';

/** Helpers shared by the tree-sitter readers (JSON, YAML, TOML). */

export function rangeOf(node: SyntaxNode, positions: LineIndex): Range {
  return positions.range(node.startPosition, node.endPosition);
}

/**
 * The range of a node without the whitespace it ends with: tree-sitter-yaml ends the last
 * pair of a mapping after the newline, on the next line.
 */
export function trimmedRangeOf(node: SyntaxNode, positions: LineIndex): Range {
  const text = node.text;
  const trimmed = text.trimEnd();
  if (trimmed.length === text.length) return rangeOf(node, positions);
  const lines = trimmed.split('\n');
  const last = lines[lines.length - 1]!;
  const start = node.startPosition;
  const end =
    lines.length === 1
      ? { row: start.row, column: start.column + last.length }
      : { row: start.row + lines.length - 1, column: last.length };
  return positions.range(start, end);
}

/** Named children that carry content: no comments, no `ERROR` or `MISSING` nodes. */
export function contentChildren(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of node.namedChildren) {
    if (child && !child.isError && !child.isMissing && child.type !== 'comment') out.push(child);
  }
  return out;
}

/** Decodes a double-quoted string literal; JSON's escapes cover the common ones, else the raw content. */
export function decodeDoubleQuoted(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'string') return value;
  } catch {
    // YAML and TOML have escapes JSON lacks (\U0001F600, \x41, \e): keep them as written.
  }
  return text.length >= 2 && text.endsWith('"') ? text.slice(1, -1) : text.slice(1);
}

/** Whitespace runs collapsed to one space (keys written over several lines). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `ERROR` and `MISSING` nodes of a tree, in source order, visiting only subtrees that hold one. */
export function syntaxErrors(tree: Tree): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  if (!tree.rootNode.hasError) return found;
  const stack: SyntaxNode[] = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) found.push(node);
    for (const child of node.children) if (child && (child.hasError || child.isMissing)) stack.push(child);
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

/**
 * A `PARSE_ERRORS` warning for the syntax errors of a tree (except those `ignore` accepts),
 * or `undefined` when there are none. `consequence` says what the reader did about them.
 *
 * The range marks the first error. tree-sitter often wraps everything it skipped before
 * noticing the problem in one `ERROR` node; the problem is where that node ends, so a node
 * over several lines is narrowed to its last line.
 */
export function parseErrorsOf(
  tree: Tree,
  positions: LineIndex,
  consequence: string,
  ignore: (node: SyntaxNode) => boolean = () => false,
): Diagnostic | undefined {
  const errors = syntaxErrors(tree).filter((n) => !ignore(n));
  const first = errors[0];
  if (!first) return undefined;
  let start = first.startPosition;
  const end = first.endPosition;
  if (end.row > start.row) {
    const line = positions.line(end.row);
    const indent = line.length - line.trimStart().length;
    start = { row: end.row, column: Math.min(indent, end.column) };
  }
  return {
    severity: 'warning',
    code: 'PARSE_ERRORS',
    message: `${errors.length} syntax error${errors.length === 1 ? '' : 's'}, the first at the marked range; ${consequence}`,
    range: positions.range(start, end),
  };
}
