import type { LineIndex, Utf16Point } from '@travsr/sdk';
import { mappingOf, sequenceOf, type DataDocument, type Entry, type Item, type Value } from './model.js';
import { decodeDoubleQuoted } from './syntax.js';

/**
 * Keys of a YAML file read from its indentation alone, for files tree-sitter cannot parse.
 * In block style a key is a line `key: …`, its children are the key lines indented below
 * it, a `- ` line is a sequence item and the lines indented under an item or a block scalar
 * (`|`, `>`) belong to it. Flow collections spread over lines are not followed.
 */

// A key: double-quoted, single-quoted or plain (not starting with an indicator, up to the
// first `: ` or a trailing `:`), then the rest of the line.
const KEY_LINE =
  /^(?<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?:,[\]{}&*!|>%@`-](?:[^#]|(?<=\S)#)*?|-(?=\S)(?:[^#]|(?<=\S)#)*?)\s*:(?:[ \t]+(?<rest>.*))?$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*\s*(?:#.*)?$/;
const ANCHOR_OR_TAG_ONLY = /^(?:[&!]\S*\s*)+(?:#.*)?$/;

interface OutlineNode {
  indent: number;
  /** A sequence item: lines below it belong to it, whatever they look like. */
  item: boolean;
  start: Utf16Point;
  end: Utf16Point;
  key: string;
  head: string;
  rest: string;
  children: OutlineNode[];
  items: OutlineNode[];
}

function decodeKey(written: string): string {
  if (written.startsWith('"')) return decodeDoubleQuoted(written);
  if (written.startsWith("'")) return written.slice(1, -1).replace(/''/g, "'");
  return written.trim();
}

function stripComment(rest: string): string {
  if (rest.startsWith('"') || rest.startsWith("'")) return rest.trim();
  return rest.replace(/\s+#.*$/, '').trim();
}

/** Reads the documents of a YAML file by indentation. */
export function readYamlOutline(positions: LineIndex): DataDocument[] {
  // `started`: opened by `---`, so a second `---` opens another (empty) document, as in tree-sitter.
  const documents: { roots: OutlineNode[]; started: boolean }[] = [{ roots: [], started: false }];
  let stack: OutlineNode[] = [];
  let blockScalarOwner: OutlineNode | undefined;
  let documentEnded = false;

  const extend = (row: number, column: number) => {
    for (const open of stack) open.end = { row, column };
  };
  const current = () => {
    if (documentEnded) {
      documents.push({ roots: [], started: false });
      documentEnded = false;
    }
    return documents[documents.length - 1]!;
  };

  for (let row = 0; row < positions.lineCount; row++) {
    const line = positions.line(row).trimEnd();
    const content = line.trimStart();
    if (content === '') continue;
    const indent = line.length - content.length;

    if (indent === 0 && /^(?:---|\.\.\.)(?:\s|$)/.test(content)) {
      stack = [];
      blockScalarOwner = undefined;
      if (content.startsWith('...')) {
        documentEnded = true;
        continue;
      }
      const doc = documents[documents.length - 1]!;
      if (documentEnded || doc.started || doc.roots.length > 0) documents.push({ roots: [], started: true });
      else doc.started = true;
      documentEnded = false;
      continue;
    }
    if (blockScalarOwner) {
      if (indent > blockScalarOwner.indent) {
        extend(row, line.length);
        continue;
      }
      blockScalarOwner = undefined;
    }
    if (content.startsWith('#')) continue;
    const top = stack[stack.length - 1];
    if (top?.item && indent > top.indent) {
      extend(row, line.length);
      continue;
    }

    if (content === '-' || content.startsWith('- ')) {
      // `key:` followed by `- item` at the key's own indentation is still the key's sequence.
      while (stack.length > 0 && stack[stack.length - 1]!.indent > indent) stack.pop();
      const same = stack[stack.length - 1];
      if (!(same && same.indent === indent && !same.item && same.rest === '')) {
        while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
      }
      const owner = stack[stack.length - 1];
      const item: OutlineNode = {
        indent,
        item: true,
        start: { row, column: indent },
        end: { row, column: line.length },
        key: '',
        head: '',
        rest: stripComment(content.slice(1)),
        children: [],
        items: [],
      };
      if (owner) owner.items.push(item);
      extend(row, line.length);
      stack.push(item);
      continue;
    }

    const match = KEY_LINE.exec(content);
    if (!match?.groups) {
      // A continuation of a multi-line scalar or flow collection, or a broken line.
      if (stack.length > 0 && indent > 0) extend(row, line.length);
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const written = match.groups.key!.trim();
    const rest = match.groups.rest === undefined ? '' : stripComment(match.groups.rest);
    const node: OutlineNode = {
      indent,
      item: false,
      start: { row, column: indent },
      end: { row, column: line.length },
      key: decodeKey(written),
      head: `${written}:`,
      rest: ANCHOR_OR_TAG_ONLY.test(rest) ? '' : rest,
      children: [],
      items: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else current().roots.push(node);
    extend(row, line.length);
    stack.push(node);
    if (BLOCK_SCALAR.test(rest)) blockScalarOwner = node;
  }

  return documents.map((d) => ({ entries: d.roots.map(toEntry), levels: 1 }));

  function toEntry(node: OutlineNode): Entry {
    return { path: [node.key], head: node.head, range: positions.range(node.start, node.end), value: valueOf(node) };
  }

  function valueOf(node: OutlineNode): Value {
    if (node.children.length > 0) return mappingOf(node.children.map(toEntry));
    if (node.items.length > 0) {
      return sequenceOf(node.items.map((i): Item => ({ value: scalarOf(i.rest), range: positions.range(i.start, i.end) })));
    }
    return scalarOf(node.rest);
  }
}

function scalarOf(text: string): Value {
  if (text === '') return { kind: 'empty' };
  const quoted = text.startsWith('"') || text.startsWith("'");
  return { kind: 'scalar', text, string: quoted ? decodeKey(text) : text };
}
