import type { Range } from '@travsr/protocol';

/**
 * A tree-sitter position: 0-based row, column in UTF-16 code units (web-tree-sitter parses JS strings).
 *
 * @example
 * ```ts
 * const p: Utf16Point = node.startPosition;
 * ```
 */
export interface Utf16Point {
  row: number;
  column: number;
}

/**
 * Converts web-tree-sitter positions (UTF-16 columns) into protocol ranges (1-based lines,
 * 0-based columns in UTF-8 bytes). Lines that are pure ASCII cost nothing extra.
 *
 * @example
 * ```ts
 * const lines = new LineIndex('local s = "é" x()');
 * lines.utf8Column(0, 15); // 16: "é" is one UTF-16 unit but two UTF-8 bytes
 * lines.range(node.startPosition, node.endPosition); // { startLine: 1, startCol: 16, ... }
 * ```
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Number of lines (a trailing newline starts an empty last line). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** The text of a 0-based row, without its line terminator. */
  line(row: number): string {
    const start = this.starts[row];
    if (start === undefined) return '';
    const next = this.starts[row + 1];
    const end = next === undefined ? this.text.length : next - 1;
    const line = this.text.slice(start, end);
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  /** UTF-8 byte column of a UTF-16 column on a 0-based row. */
  utf8Column(row: number, utf16Column: number): number {
    const start = this.starts[row];
    if (start === undefined) return utf16Column;
    const prefix = this.text.slice(start, start + utf16Column);
    return /^[\x00-\x7f]*$/.test(prefix) ? prefix.length : Buffer.byteLength(prefix, 'utf8');
  }

  /** The protocol range between two tree-sitter points. */
  range(start: Utf16Point, end: Utf16Point): Range {
    return {
      startLine: start.row + 1,
      startCol: this.utf8Column(start.row, start.column),
      endLine: end.row + 1,
      endCol: this.utf8Column(end.row, end.column),
    };
  }
}
