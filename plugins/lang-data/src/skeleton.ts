import type { LineIndex } from '@travsr/sdk';
import type { DataFormat } from './formats.js';
import type { Entry, Value } from './model.js';

/**
 * Skeletons: one short line per key for display and embedding, in the file's own notation —
 * `"version": "1.4.2"`, `services: { web, db }`, `[package] { name, version, edition }`,
 * `<dependencies> { dependency ×3 }` — with the comment lines written right above the key.
 */

const SCALAR_WIDTH = 80;
const LIST_WIDTH = 80;
const HEAD_WIDTH = 160;
const MAX_COMMENT_LINES = 5;

export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** A scalar on one line: the first line of a multi-line value, the first content line of a block scalar. */
export function scalarLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const first = lines[0] ?? '';
  const rest = lines.slice(1).filter((l) => l !== '');
  let shown = first;
  if (/^[|>][-+0-9]*$/.test(first) && rest.length > 0) shown = `${first} ${rest.shift()!}`;
  if (rest.length > 0) shown += ' …';
  return truncate(shown, SCALAR_WIDTH);
}

/** Key names of a mapping, repeated names counted: `{ web, db }`, `{ PropertyGroup ×2, ItemGroup ×3 }`. */
function mappingSummary(entries: readonly Entry[]): string {
  if (entries.length === 0) return '{}';
  const counts = new Map<string, number>();
  for (const e of entries) {
    const name = e.path.join('.');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const names = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  return `{ ${list(names)} }`;
}

function list(parts: string[]): string {
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const next = out === '' ? parts[i]! : `${out}, ${parts[i]!}`;
    if (next.length > LIST_WIDTH && i > 0) return `${out}, … +${parts.length - i}`;
    out = next;
  }
  return out;
}

function sequenceSummary(value: Extract<Value, { kind: 'sequence' }>): string {
  const items = value.items();
  if (items.length === 0) return '[]';
  const scalars = items.every((i) => i.value.kind === 'scalar' && !i.value.text.includes('\n'));
  if (scalars) return `[ ${list(items.map((i) => truncate((i.value as { text: string }).text, SCALAR_WIDTH)))} ]`;
  return `[ ${items.length} item${items.length === 1 ? '' : 's'} ]`;
}

/** The value part of a skeleton. */
export function valueSummary(value: Value): string {
  switch (value.kind) {
    case 'scalar':
      return scalarLine(value.text);
    case 'mapping':
      return mappingSummary(value.entries());
    case 'sequence':
      return sequenceSummary(value);
    case 'empty':
      return '';
  }
}

/** Head and value of an entry on one line. */
export function entryLine(entry: Entry, format: DataFormat): string {
  const head = truncate(entry.head, HEAD_WIDTH);
  const value = entry.value;
  if (format === 'xml') {
    // `<version>1.0</version>`; an element with children lists them after its start tag.
    if (value.kind === 'scalar') return `${head}${scalarLine(value.text)}</${entry.path.join('.')}>`;
    return value.kind === 'mapping' ? `${head} ${valueSummary(value)}` : head;
  }
  const summary = valueSummary(value);
  return summary === '' ? head : `${head} ${summary}`;
}

const COMMENT_PREFIX: Readonly<Record<DataFormat, string | undefined>> = { json: '//', yaml: '#', toml: '#', xml: undefined };

/** The comment lines directly above an entry that starts its line (no blank line between). */
export function leadingComments(entry: Entry, format: DataFormat, positions: LineIndex): string[] {
  const prefix = COMMENT_PREFIX[format];
  if (prefix === undefined) return [];
  const row = entry.range.startLine - 1;
  const own = positions.line(row);
  if (Buffer.byteLength(own.slice(0, own.length - own.trimStart().length)) !== entry.range.startCol) return [];
  const out: string[] = [];
  for (let r = row - 1; r >= 0 && out.length < MAX_COMMENT_LINES; r--) {
    const line = positions.line(r).trim();
    if (!line.startsWith(prefix)) break;
    out.unshift(truncate(line, HEAD_WIDTH));
  }
  return out;
}

/** The full skeleton of an entry: its comments, then its line. */
export function skeletonOf(entry: Entry, format: DataFormat, positions: LineIndex): string {
  return [...leadingComments(entry, format, positions), entryLine(entry, format)].join('\n');
}
