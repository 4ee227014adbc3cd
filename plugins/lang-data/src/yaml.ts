import type { Node as SyntaxNode, Tree } from 'web-tree-sitter';
import type { LineIndex } from '@travsr/sdk';
import { lazy, type DataDocument, type Entry, type Item, type ParsedData, type Value } from './model.js';
import { contentChildren, decodeDoubleQuoted, oneLine, parseErrorsOf, trimmedRangeOf } from './syntax.js';
import { readYamlOutline } from './yaml-outline.js';

/**
 * Reads a tree of tree-sitter-yaml: one document per `---`, the keys of each document's
 * root mapping.
 *
 * tree-sitter-yaml recovers badly from a syntax error (the rest of the file is often lost
 * in one `ERROR` node), but indentation is YAML syntax: with errors, the keys are read
 * from the indentation instead ({@link readYamlOutline}), and the warning says so.
 */
export function readYaml(tree: Tree, positions: LineIndex): ParsedData {
  const errors = parseErrorsOf(tree, positions, 'the keys were read from the indentation instead');
  if (errors) {
    const outline = readYamlOutline(positions);
    return { documents: outline, diagnostics: [errors] };
  }
  const documents: DataDocument[] = [];
  for (const doc of tree.rootNode.namedChildren) {
    if (!doc || doc.type !== 'document') continue;
    const content = contentChildren(doc)
      .map(unwrap)
      .find((n) => n !== undefined);
    documents.push({ entries: content ? mappingEntries(content, positions) : [], levels: 1 });
  }
  return { documents, diagnostics: [] };
}

/** The content of a `block_node` / `flow_node`, past anchors and tags. */
function unwrap(node: SyntaxNode | null): SyntaxNode | undefined {
  if (!node) return undefined;
  if (node.type !== 'block_node' && node.type !== 'flow_node') return node;
  for (const child of contentChildren(node)) {
    if (child.type !== 'anchor' && child.type !== 'tag') return child;
  }
  return undefined;
}

function mappingEntries(mapping: SyntaxNode, positions: LineIndex): Entry[] {
  if (mapping.type !== 'block_mapping' && mapping.type !== 'flow_mapping') return [];
  const entries: Entry[] = [];
  for (const pair of contentChildren(mapping)) {
    if (pair.type === 'block_mapping_pair' || pair.type === 'flow_pair') {
      const key = pair.childForFieldName('key');
      const keyText = key ? oneLine(key.text) : '';
      entries.push({
        path: [key ? keyOf(key) : ''],
        head: `${keyText}:`,
        range: trimmedRangeOf(pair, positions),
        value: valueOf(pair.childForFieldName('value'), positions),
      });
    } else if (pair.type === 'flow_node') {
      // `{a, b}`: a key without a value.
      entries.push({ path: [keyOf(pair)], head: oneLine(pair.text), range: trimmedRangeOf(pair, positions), value: { kind: 'empty' } });
    }
  }
  return entries;
}

/** A key as a string: scalars decoded, anything else (`? [a, b]`) as written on one line. */
function keyOf(key: SyntaxNode): string {
  const node = unwrap(key);
  if (!node) return oneLine(key.text);
  const scalar = scalarString(node);
  return scalar ?? oneLine(node.text);
}

function scalarString(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case 'plain_scalar':
      return oneLine(node.text);
    case 'double_quote_scalar':
      return decodeDoubleQuoted(node.text.replace(/\s*\n\s*/g, ' '));
    case 'single_quote_scalar':
      return node.text
        .slice(1, -1)
        .replace(/''/g, "'")
        .replace(/\s*\n\s*/g, ' ');
    default:
      return undefined;
  }
}

function valueOf(node: SyntaxNode | null, positions: LineIndex): Value {
  const content = unwrap(node);
  if (!content) return { kind: 'empty' };
  switch (content.type) {
    case 'block_mapping':
    case 'flow_mapping':
      return { kind: 'mapping', entries: lazy(() => mappingEntries(content, positions)) };
    case 'block_sequence':
    case 'flow_sequence':
      return { kind: 'sequence', items: lazy(() => sequenceItems(content, positions)) };
    default: {
      const string = scalarString(content);
      return string === undefined ? { kind: 'scalar', text: content.text } : { kind: 'scalar', text: content.text, string };
    }
  }
}

function sequenceItems(sequence: SyntaxNode, positions: LineIndex): Item[] {
  const items: Item[] = [];
  for (const child of contentChildren(sequence)) {
    // Block items wrap their node (`- x`); flow items are the nodes themselves.
    const node = child.type === 'block_sequence_item' ? (contentChildren(child)[0] ?? null) : child;
    if (!node) continue;
    items.push({ value: valueOf(node, positions), range: trimmedRangeOf(node, positions) });
  }
  return items;
}
