import type { Diagnostic, LineIndex } from '@travsr/sdk';
import { SaxesParser } from 'saxes';
import { mappingOf, type Entry, type ParsedData, type Value } from './model.js';
import { oneLine } from './syntax.js';

/** Elements deeper than this (the root is 1) are not recorded: nothing reads them. */
const MAX_DEPTH = 5;
/** Children recorded per element; the rest are counted (the emitter caps nodes anyway). */
const MAX_CHILDREN = 2000;
/** Text kept per element, for skeletons of leaf elements. */
const MAX_TEXT = 300;

interface OpenElement {
  name: string;
  depth: number;
  start: number;
  startTagEnd?: number;
  attributes: Readonly<Record<string, string>>;
  children: Entry[];
  text: string;
}

/**
 * Reads XML with saxes (a non-validating SAX parser that resolves no external entity and
 * keeps string offsets). The document's entries are the root element with its direct
 * children as second-level entries; deeper elements are kept, unnamed in the graph, for
 * the well-known-file rules (Maven dependencies, MSBuild package references).
 *
 * Errors do not stop the parser: what it read is kept, and the first error becomes a
 * `PARSE_ERRORS` warning. Elements still open at the end of the file end there.
 */
export function readXml(text: string, positions: LineIndex): ParsedData {
  if (text.trim() === '') return { documents: [{ entries: [], levels: 2 }], diagnostics: [] };
  const parser = new SaxesParser({ xmlns: false, position: true });
  const roots: Entry[] = [];
  const stack: OpenElement[] = [];
  const errors: { message: string; offset: number }[] = [];

  const finish = (element: OpenElement, end: number): void => {
    const parent = stack[stack.length - 1];
    if (element.depth > MAX_DEPTH || (parent && parent.children.length >= MAX_CHILDREN)) return;
    const head = oneLine(text.slice(element.start, element.startTagEnd ?? end));
    const leaf = oneLine(element.text);
    let value: Value;
    if (element.children.length > 0) value = mappingOf(element.children);
    else if (leaf !== '') value = { kind: 'scalar', text: leaf, string: leaf };
    else value = { kind: 'empty' };
    const entry: Entry = {
      path: [element.name],
      head,
      range: positions.rangeOfOffsets(element.start, end),
      value,
      attributes: element.attributes,
    };
    if (parent) parent.children.push(entry);
    else roots.push(entry);
  };

  parser.on('opentagstart', (tag) => {
    // saxes is one character past the name here; the `<` is where the name was written.
    const at = text.lastIndexOf(`<${tag.name}`, parser.position);
    stack.push({ name: tag.name, depth: stack.length + 1, start: at >= 0 ? at : parser.position, attributes: {}, children: [], text: '' });
  });
  parser.on('opentag', (tag) => {
    const top = stack[stack.length - 1];
    if (!top) return;
    top.startTagEnd = parser.position;
    top.attributes = { ...tag.attributes };
  });
  const addText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top && top.depth <= MAX_DEPTH && top.text.length < MAX_TEXT) top.text += t.slice(0, MAX_TEXT);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const element = stack.pop();
    if (element) finish(element, parser.position);
  });
  parser.on('error', (e) => {
    errors.push({ message: e.message.replace(/^\d+:\d+: /, ''), offset: parser.position });
  });
  try {
    parser.write(text).close();
  } catch (e) {
    errors.push({ message: e instanceof Error ? e.message : String(e), offset: parser.position });
  }
  // Unclosed at the end of the file: they end there.
  const end = text.trimEnd().length;
  for (let element = stack.pop(); element; element = stack.pop()) finish(element, end);

  const diagnostics: Diagnostic[] = [];
  const first = errors[0];
  if (first) {
    const more = errors.length - 1;
    diagnostics.push({
      severity: 'warning',
      code: 'PARSE_ERRORS',
      message: `not well-formed XML: ${first.message.replace(/\.$/, '')}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}; the elements read around it are listed`,
      range: positions.rangeOfOffsets(first.offset, first.offset),
    });
  }
  return { documents: [{ entries: roots, levels: 2 }], diagnostics };
}
