import type { Range } from '@travsr/protocol';

/**
 * A point in a text: 0-based row, column in UTF-16 code units. It is what web-tree-sitter
 * reports for a JS string (`node.startPosition`) and what {@link LineIndex.pointAt} gives for
 * a string offset.
 *
 * @example
 * ```ts
 * const p: Utf16Point = { row: 0, column: 4 };
 * ```
 */
export interface Utf16Point {
  row: number;
  column: number;
}

/**
 * How a {@link LineIndex} counts lines and the first line's columns.
 *
 * @example
 * ```ts
 * const options: LineIndexOptions = { bomBytes: strippedBomBytes(file.bytes, file.text) };
 * ```
 */
export interface LineIndexOptions {
  /**
   * UTF-8 bytes of a byte order mark that the file has and the decoded text no longer has
   * (see {@link strippedBomBytes}). Columns count the file's bytes, so every column on the
   * first row moves by this many. Default 0: columns count the text as given.
   */
  bomBytes?: number;
  /**
   * Ascending UTF-16 offsets where the rows start, the first being 0, for a parser with line
   * breaks of its own (TypeScript's `sourceFile.getLineStarts()` also breaks at a lone `\r`,
   * U+2028 and U+2029). Default: row 0 at 0 and a row after every `\n`.
   */
  lineStarts?: readonly number[];
}

/** The bytes of a UTF-8 byte order mark. */
export const UTF8_BOM: readonly number[] = [0xef, 0xbb, 0xbf];

/**
 * How many bytes of a UTF-8 byte order mark at the start of `bytes` the decoded `text` no
 * longer has: 3 when the file starts with a BOM that the decoder dropped (as the SDK's does:
 * `SourceFile.text` never starts with one), else 0.
 *
 * @example
 * ```ts
 * strippedBomBytes(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b), '{'); // 3
 * strippedBomBytes(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b), '\uFEFF{'); // 0: the text still has it
 * ```
 */
export function strippedBomBytes(bytes: Uint8Array, text: string): number {
  const hasBom = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  return hasBom && !text.startsWith('\uFEFF') ? UTF8_BOM.length : 0;
}

/**
 * The SDK's position converter: from what parsers give in JavaScript strings (UTF-16 offsets,
 * or rows with UTF-16 columns) to protocol ranges (1-based lines, 0-based columns in UTF-8
 * bytes), and a row's text. Text that is all ASCII takes a fast path (a column is the count).
 *
 * - Rows end at `\n` (`\r\n` too: `\r` stays in the row, one byte, and {@link line} drops it),
 *   or where {@link LineIndexOptions.lineStarts} says.
 * - A character outside the Basic Multilingual Plane is two UTF-16 units and four bytes.
 * - A byte order mark the decoder dropped is counted on the first row only if
 *   {@link LineIndexOptions.bomBytes} says so (lang-data does: a `.csproj` written by Visual
 *   Studio keeps its columns); a `\uFEFF` still in the text counts as the three bytes it is.
 * - Out of range: offsets are clamped to the text; a column is clamped at 0 and at the end of
 *   the text (a column past the end of its row runs on into the next rows, as the text does);
 *   a row that does not exist keeps its column as it is. Ranges given by offsets never end
 *   before they start.
 *
 * @example
 * ```ts
 * const lines = new LineIndex('local s = "é" x()');
 * lines.utf8Column(0, 15); // 16: "é" is one UTF-16 unit but two UTF-8 bytes
 * lines.range(node.startPosition, node.endPosition); // tree-sitter points → { startLine: 1, startCol: 16, … }
 * lines.rangeOfOffsets(14, 17); // string offsets (TypeScript, saxes) → { startLine: 1, startCol: 15, endLine: 1, endCol: 18 }
 * ```
 */
export class LineIndex {
  private readonly starts: readonly number[];
  private readonly bomBytes: number;
  private readonly ascii: boolean;

  constructor(
    readonly text: string,
    options: LineIndexOptions = {},
  ) {
    this.bomBytes = options.bomBytes ?? 0;
    this.starts = options.lineStarts ?? newlineStarts(text);
    this.ascii = !/[^\x00-\x7f]/.test(text);
  }

  /** Number of rows (a trailing newline starts an empty last row). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** The text of a 0-based row, without its line terminator; `''` for a row that does not exist. */
  line(row: number): string {
    const start = this.starts[row];
    if (start === undefined) return '';
    const next = this.starts[row + 1];
    const end = next === undefined ? this.text.length : next - 1;
    const line = this.text.slice(start, end);
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  /** The UTF-8 byte column of a UTF-16 column on a 0-based row. */
  utf8Column(row: number, utf16Column: number): number {
    const start = this.starts[row];
    if (start === undefined) return utf16Column;
    const end = Math.min(start + Math.max(0, utf16Column), this.text.length);
    const bytes = end <= start ? 0 : this.ascii ? end - start : Buffer.byteLength(this.text.slice(start, end), 'utf8');
    return row === 0 ? bytes + this.bomBytes : bytes;
  }

  /** The 0-based row and UTF-16 column of a string offset. */
  pointAt(offset: number): Utf16Point {
    const at = Math.min(Math.max(0, offset), this.text.length);
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: at - starts[lo]! };
  }

  /** The protocol range between two points (tree-sitter's `startPosition` and `endPosition`). */
  range(start: Utf16Point, end: Utf16Point): Range {
    return {
      startLine: start.row + 1,
      startCol: this.utf8Column(start.row, start.column),
      endLine: end.row + 1,
      endCol: this.utf8Column(end.row, end.column),
    };
  }

  /** The protocol range of the string offsets `[start, end)`; an end before the start is taken as the start. */
  rangeOfOffsets(start: number, end: number): Range {
    return this.range(this.pointAt(start), this.pointAt(Math.max(start, end)));
  }
}

/** Row 0 at offset 0 and a row after every `\n`. */
function newlineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
