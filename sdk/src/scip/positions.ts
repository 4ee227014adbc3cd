import type { PositionEncoding } from './scip-index.js';

/**
 * Converts a SCIP `character` offset on one line to the protocol's column (UTF-8 bytes).
 * `unspecified` is taken as UTF-8, as scip-go writes it; pass the encoding the indexer really
 * uses when it leaves the field unset (scip-python: `utf16`).
 *
 * @example
 * ```ts
 * scipCharacterToUtf8('s = "é"; f()', 9, 'utf16'); // 10: "é" is one UTF-16 unit, two UTF-8 bytes
 * ```
 */
export function scipCharacterToUtf8(lineText: string, character: number, encoding: PositionEncoding): number {
  if (encoding === 'utf8' || encoding === 'unspecified') return character;
  if (/^[\x00-\x7f]*$/.test(lineText)) return character;
  let units = 0;
  let bytes = 0;
  for (const ch of lineText) {
    if (units >= character) break;
    const cp = ch.codePointAt(0)!;
    units += encoding === 'utf16' ? (cp > 0xffff ? 2 : 1) : 1;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  // Past the end of the line (an occurrence ending at a newline): count the rest as one byte each.
  return bytes + Math.max(0, character - units);
}
