import type { Range } from '@travsr/sdk';

/**
 * Converts TypeScript positions (UTF-16 offsets) to protocol ranges: lines 1-based,
 * columns 0-based in UTF-8 bytes. ASCII-only files (most source) take the fast path.
 */
export class LineIndex {
  private readonly ascii: boolean;

  constructor(
    private readonly text: string,
    private readonly lineStarts: readonly number[],
  ) {
    this.ascii = !/[^\x00-\x7f]/.test(text);
  }

  /** 0-based line of a UTF-16 offset (binary search over the line starts). */
  private lineOf(pos: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** `{ line (1-based), col (UTF-8 bytes) }` of a UTF-16 offset. */
  point(pos: number): { line: number; col: number } {
    const line = this.lineOf(pos);
    const start = this.lineStarts[line]!;
    const col = this.ascii ? pos - start : Buffer.byteLength(this.text.slice(start, pos), 'utf8');
    return { line: line + 1, col };
  }

  /** The protocol range of `[start, end)`. */
  range(start: number, end: number): Range {
    const a = this.point(start);
    const b = this.point(Math.max(start, end));
    return { startLine: a.line, startCol: a.col, endLine: b.line, endCol: b.col };
  }
}
