/**
 * The skeleton of a class or function: its decorators and header (up to the body), and its
 * docstring — what an agent reads before deciding to open the body.
 */
import type { Node as TsNode } from 'web-tree-sitter';
import { docstringOf } from './strings.js';

/**
 * @param outer the decorated_definition around the definition, or the definition itself
 * @param def the function_definition or class_definition
 * @param max longest skeleton kept (characters)
 *
 * @example
 * ```ts
 * skeletonOf(node, node, text, 2000); // 'def total(self) -> Decimal:\n    """Sum of all line prices."""'
 * ```
 */
export function skeletonOf(outer: TsNode, def: TsNode, text: string, max: number): string {
  const body = def.childForFieldName('body');
  const headerEnd = body ? body.startIndex : def.endIndex;
  let header = text.slice(outer.startIndex, headerEnd).trimEnd();
  if (header.length > max) header = `${header.slice(0, max)}…`;
  const doc = body ? docstringOf(body) : undefined;
  if (!doc) return header;
  const indent = ' '.repeat(def.startPosition.column + 4);
  const clipped = doc.length > max ? `${doc.slice(0, max)}…` : doc;
  return `${header}\n${indent}"""${clipped}"""`;
}
