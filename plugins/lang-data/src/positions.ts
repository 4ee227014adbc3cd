import type { Range } from '@travsr/sdk';
import { LineIndex, type Utf16Point } from '@travsr/sdk/tree-sitter';

const BOM = [0xef, 0xbb, 0xbf] as const;

/** Bytes of a UTF-8 byte order mark at the start of `bytes` that the decoded text no longer has. */
export function strippedBomBytes(bytes: Uint8Array, text: string): number {
  const hasBom = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
  return hasBom && !text.startsWith('\uFEFF') ? 3 : 0;
}

/**
 * Protocol ranges (1-based lines, 0-based UTF-8 byte columns) for a file's text, from
 * tree-sitter points (UTF-16 columns) or from string offsets (saxes).
 *
 * The SDK decodes files without their byte order mark, but columns count the file's bytes:
 * on the first line every column moves by the BOM's 3 bytes. (Windows tools write BOMs into
 * `.csproj` and `appsettings.json`.)
 */
export class TextPositions {
  readonly lines: LineIndex;
  private readonly starts: number[] = [0];

  constructor(
    readonly text: string,
    private readonly bomBytes = 0,
  ) {
    this.lines = new LineIndex(text);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The text of a 0-based row, without its line terminator. */
  line(row: number): string {
    return this.lines.line(row);
  }

  private column(row: number, utf16Column: number): number {
    return this.lines.utf8Column(row, utf16Column) + (row === 0 ? this.bomBytes : 0);
  }

  /** The range between two tree-sitter points. */
  range(start: Utf16Point, end: Utf16Point): Range {
    return {
      startLine: start.row + 1,
      startCol: this.column(start.row, start.column),
      endLine: end.row + 1,
      endCol: this.column(end.row, end.column),
    };
  }

  /** The 0-based row and UTF-16 column of a string offset. */
  point(offset: number): Utf16Point {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: offset - this.starts[lo]! };
  }

  /** The range between two string offsets (end exclusive). */
  rangeOfOffsets(start: number, end: number): Range {
    return this.range(this.point(start), this.point(end));
  }
}
