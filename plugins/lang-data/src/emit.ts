import type { FileGraphBuilder, LineIndex, Node } from '@travsr/sdk';
import type { DataFormat } from './formats.js';
import type { DataDocument, Entry, ParsedData } from './model.js';
import { skeletonOf } from './skeleton.js';
import { wellKnownRules, type WellKnownRule } from './well-known.js';

/**
 * Most key nodes added under one parent (the file, a key). A 20 000-key translation file or
 * lock file is still one file node with the first keys, plus an `info` diagnostic.
 */
export const MAX_KEYS_PER_PARENT = 1000;

/**
 * One segment of a signature: bare when it is only letters (any script), digits, `_`, `-`, `:`
 * and `$` (common in XML names and JSON schemas), else a JSON string, so that `.` only ever
 * separates segments: `dependencies."@types/node"`, `tool.poetry`, `réglages`.
 */
export function signatureSegment(key: string): string {
  return /^[\p{L}\p{N}_:$-]+$/u.test(key) ? key : JSON.stringify(key);
}

interface Emitted {
  node: Node;
  /** As given to the builder, which may have added `@2` to a repeated one. */
  signature: string;
  qualifiedName: string;
}

/**
 * Turns what a reader found into `key` nodes with `contains` edges:
 * - each top-level key of each document, from the file; for XML also the root element's
 *   direct children, from the root;
 * - the well-known-file rules' children, under the key that holds them (keys in between
 *   get nodes too);
 * - signatures are dotted key paths; documents after the first are prefixed `doc#2.`, … .
 */
export function emitGraph(
  graph: FileGraphBuilder,
  parsed: ParsedData,
  file: { path: string; format: DataFormat; positions: LineIndex },
): void {
  const render = (entry: Entry) => skeletonOf(entry, file.format, file.positions);
  const rules = wellKnownRules(file.path, file.format, parsed.documents);
  const truncated: string[] = [];
  parsed.documents.forEach((doc, index) => {
    const prefix = index === 0 ? '' : `doc#${index + 1}.`;
    const emitted = new Map<Entry, Emitted>();
    const define = (entry: Entry, parent: Emitted | undefined): Emitted => {
      const own = entry.path.map(signatureSegment).join('.');
      const qualifiedName = parent ? `${parent.qualifiedName}.${own}` : `${prefix}${own}`;
      const node = graph.define({
        kind: 'key',
        name: entry.path.join('.'),
        qualifiedName,
        signature: parent ? `${parent.signature}.${own}` : qualifiedName,
        range: entry.range,
        skeleton: render(entry),
        parent: parent ? parent.node : graph.fileNode,
      });
      const done = { node, signature: node.vname.signature, qualifiedName };
      emitted.set(entry, done);
      return done;
    };

    const top = capped(doc.entries, truncated, 'the file');
    for (const entry of top) {
      const parent = define(entry, undefined);
      if (doc.levels === 2 && entry.value.kind === 'mapping') {
        for (const child of capped(entry.value.entries(), truncated, parent.signature)) define(child, parent);
      }
    }
    for (const rule of rules) applyRule(rule, doc, emitted, define, render, graph, truncated);
  });
  if (truncated.length > 0) {
    graph.diagnostic({
      severity: 'info',
      code: 'KEYS_TRUNCATED',
      message: `only the first ${MAX_KEYS_PER_PARENT} keys are listed under ${truncated.slice(0, 3).join(', ')}${truncated.length > 3 ? `, and ${truncated.length - 3} more` : ''}`,
    });
  }
  for (const d of parsed.diagnostics) graph.diagnostic(d);
}

function capped<T>(items: readonly T[], truncated: string[], where: string): readonly T[] {
  if (items.length <= MAX_KEYS_PER_PARENT) return items;
  truncated.push(`${where} (${items.length})`);
  return items.slice(0, MAX_KEYS_PER_PARENT);
}

/** Every chain of entries, from the top level down, whose key paths spell `pattern`. */
export function matchPattern(entries: readonly Entry[], pattern: readonly string[], chain: Entry[] = []): Entry[][] {
  const out: Entry[][] = [];
  for (const entry of entries) {
    const n = entry.path.length;
    if (n > pattern.length || !entry.path.every((seg, i) => pattern[i] === '*' || pattern[i] === seg)) continue;
    const next = [...chain, entry];
    if (n === pattern.length) out.push(next);
    else if (entry.value.kind === 'mapping') out.push(...matchPattern(entry.value.entries(), pattern.slice(n), next));
  }
  return out;
}

function applyRule(
  rule: WellKnownRule,
  doc: DataDocument,
  emitted: Map<Entry, Emitted>,
  define: (entry: Entry, parent: Emitted | undefined) => Emitted,
  render: (entry: Entry) => string,
  graph: FileGraphBuilder,
  truncated: string[],
): void {
  for (const chain of matchPattern(doc.entries, rule.pattern)) {
    // The first entry is top-level (emitted unless capped away); the others get nodes now.
    let parent = emitted.get(chain[0]!);
    if (!parent) continue;
    for (const entry of chain.slice(1)) parent = emitted.get(entry) ?? define(entry, parent);
    const seen = new Set<string>();
    const children = rule.children(chain[chain.length - 1]!, render).filter((c) => {
      if (c.name === '' || seen.has(c.name)) return false;
      seen.add(c.name);
      return true;
    });
    for (const child of capped(children, truncated, parent.signature)) {
      const own = signatureSegment(child.name);
      graph.define({
        kind: 'key',
        name: child.name,
        qualifiedName: `${parent.qualifiedName}.${own}`,
        signature: `${parent.signature}.${own}`,
        range: child.range,
        skeleton: child.skeleton,
        parent: parent.node,
      });
    }
  }
}
