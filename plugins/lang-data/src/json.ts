import type { Diagnostic, LineIndex } from '@travsr/sdk';
import type { Node as SyntaxNode, Tree } from 'web-tree-sitter';
import { lazy, type DataDocument, type Entry, type Item, type ParsedData, type Value } from './model.js';
import { contentChildren, decodeDoubleQuoted, parseErrorsOf, rangeOf } from './syntax.js';

/**
 * Whether a JSON file is "JSON with comments" as its tools read it, where trailing commas are
 * allowed too: `.jsonc`, tsconfig and jsconfig files, VS Code settings, dev containers.
 * (tree-sitter-json accepts comments in every file; only trailing commas are errors.)
 */
export function isJsonc(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    name.toLowerCase().endsWith('.jsonc') ||
    /^[tj]sconfig(?:\..+)?\.json$/.test(name) ||
    /(?:^|\/)\.vscode\/[^/]+\.json$/.test(path) ||
    name === 'devcontainer.json' ||
    name === '.devcontainer.json'
  );
}

function nextNonComment(node: SyntaxNode): SyntaxNode | null {
  let next = node.nextSibling;
  while (next?.type === 'comment') next = next.nextSibling;
  return next;
}

/** A comma before `}` or `]`: an `ERROR` holding the comma, or the value tree-sitter invented after it. */
function isTrailingComma(node: SyntaxNode): boolean {
  const next = nextNonComment(node)?.type;
  const closes = next === '}' || next === ']';
  if (node.isError) return closes && node.text.trim() === ',';
  return closes && node.isMissing && node.previousSibling?.type === ',';
}

/**
 * Reads a tree of tree-sitter-json: the keys of the top-level object. Several top-level
 * values (not JSON, but tree-sitter reads them) are documents, with a warning. With syntax
 * errors only the first value is read: tree-sitter's recovery leaves the rest of a broken
 * object as stray top-level values, which are not documents.
 */
export function readJson(tree: Tree, positions: LineIndex, path: string): ParsedData {
  const jsonc = isJsonc(path);
  const errors = parseErrorsOf(tree, positions, 'keys after it may be missing', jsonc ? isTrailingComma : undefined);
  const values = contentChildren(tree.rootNode);
  const read = errors ? values.slice(0, 1) : values;
  const documents: DataDocument[] = read.map((v) => ({
    entries: v.type === 'object' ? objectEntries(v, positions) : [],
    levels: 1,
  }));
  const diagnostics: Diagnostic[] = errors ? [errors] : [];
  const second = read[1];
  if (second) {
    diagnostics.push({
      severity: 'warning',
      code: 'MULTIPLE_VALUES',
      message: `${values.length} top-level values where JSON allows one; the keys of each are listed, those after the first under doc#2, doc#3, …`,
      range: rangeOf(second, positions),
    });
  }
  return { documents, diagnostics };
}

function objectEntries(object: SyntaxNode, positions: LineIndex): Entry[] {
  const entries: Entry[] = [];
  for (const pair of contentChildren(object)) {
    if (pair.type !== 'pair') continue;
    const key = pair.childForFieldName('key');
    if (!key) continue;
    entries.push({
      path: [key.type === 'string' ? decodeDoubleQuoted(key.text) : key.text],
      head: `${key.text}:`,
      range: rangeOf(pair, positions),
      value: valueOf(pair.childForFieldName('value'), positions),
    });
  }
  return entries;
}

function valueOf(node: SyntaxNode | null, positions: LineIndex): Value {
  if (!node || node.isMissing || node.isError) return { kind: 'empty' };
  switch (node.type) {
    case 'object':
      return { kind: 'mapping', entries: lazy(() => objectEntries(node, positions)) };
    case 'array':
      return {
        kind: 'sequence',
        items: lazy(() => contentChildren(node).map((n): Item => ({ value: valueOf(n, positions), range: rangeOf(n, positions) }))),
      };
    case 'string':
      return { kind: 'scalar', text: node.text, string: decodeDoubleQuoted(node.text) };
    default:
      return { kind: 'scalar', text: node.text };
  }
}
