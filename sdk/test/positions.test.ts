import { describe, expect, it } from 'vitest';
import { LineIndex, strippedBomBytes } from '../src/index.js';
import { LineIndex as TreeSitterLineIndex } from '../src/tree-sitter/index.js';

/** `line:col-line:col` of a protocol range, for short expectations. */
const span = (r: { startLine: number; startCol: number; endLine: number; endCol: number }) =>
  `${r.startLine}:${r.startCol}-${r.endLine}:${r.endCol}`;

/** The UTF-8 byte column of every UTF-16 offset of `text`, counted the slow, obvious way. */
function expectedColumns(text: string): { row: number; col: number }[] {
  const out: { row: number; col: number }[] = [];
  for (let offset = 0; offset <= text.length; offset++) {
    const before = text.slice(0, offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    out.push({ row: before.split('\n').length - 1, col: Buffer.byteLength(before.slice(lineStart), 'utf8') });
  }
  return out;
}

describe('LineIndex', () => {
  it('is one class, exported from the SDK and from its tree-sitter helpers', () => {
    expect(TreeSitterLineIndex).toBe(LineIndex);
  });

  it('counts ASCII columns as characters, rows from 1 in ranges', () => {
    const lines = new LineIndex('let a = 1;\nfoo(a);\n');
    expect(lines.lineCount).toBe(3); // the trailing newline starts an empty last row
    expect(lines.line(0)).toBe('let a = 1;');
    expect(lines.line(1)).toBe('foo(a);');
    expect(lines.line(2)).toBe('');
    expect(lines.pointAt(15)).toEqual({ row: 1, column: 4 });
    expect(span(lines.rangeOfOffsets(4, 5))).toBe('1:4-1:5');
    expect(span(lines.rangeOfOffsets(11, 17))).toBe('2:0-2:6');
    expect(span(lines.range({ row: 1, column: 0 }, { row: 1, column: 3 }))).toBe('2:0-2:3');
  });

  it('counts UTF-8 bytes for multi-byte characters', () => {
    // é is 2 bytes, € and 名 are 3: one UTF-16 unit each.
    const text = 'x = "é€"\ny = 名(x)';
    const lines = new LineIndex(text);
    expect(lines.utf8Column(0, 5)).toBe(5); // before é
    expect(lines.utf8Column(0, 6)).toBe(7); // after é
    expect(lines.utf8Column(0, 7)).toBe(10); // after €
    expect(span(lines.rangeOfOffsets(text.indexOf('名'), text.indexOf('(')))).toBe('2:4-2:7');
    expect(span(lines.range({ row: 1, column: 6 }, { row: 1, column: 7 }))).toBe('2:8-2:9'); // the x after 名(
  });

  it('counts a character outside the BMP as two UTF-16 units and four bytes', () => {
    const text = 'a😀b\n😀😀c';
    const lines = new LineIndex(text);
    expect(lines.utf8Column(0, 1)).toBe(1);
    expect(lines.utf8Column(0, 3)).toBe(5); // after the surrogate pair
    expect(span(lines.rangeOfOffsets(3, 4))).toBe('1:5-1:6'); // b
    expect(span(lines.rangeOfOffsets(text.indexOf('c'), text.length))).toBe('2:8-2:9');
  });

  it('agrees with a byte count of the text before every offset, on mixed text', () => {
    const text = 'ascii\nél😀\n\n名前 = "ü"\r\n\tend';
    const lines = new LineIndex(text);
    expectedColumns(text).forEach((want, offset) => {
      const r = lines.rangeOfOffsets(offset, offset);
      expect({ row: r.startLine - 1, col: r.startCol }, `offset ${offset}`).toEqual(want);
    });
  });

  it('keeps the \\r of a CRLF in its row (one byte) and drops it from the row text', () => {
    const text = 'a = 1\r\nb = 2\r\n';
    const lines = new LineIndex(text);
    expect(lines.lineCount).toBe(3);
    expect(lines.line(0)).toBe('a = 1');
    expect(lines.line(1)).toBe('b = 2');
    expect(lines.pointAt(text.indexOf('b'))).toEqual({ row: 1, column: 0 });
    expect(span(lines.rangeOfOffsets(0, 6))).toBe('1:0-1:6'); // through the \r
    expect(span(lines.rangeOfOffsets(0, 7))).toBe('1:0-2:0');
  });

  it('breaks rows where the caller says (TypeScript also breaks at a lone \\r and U+2028)', () => {
    const text = 'a\rb\u2028é\nc';
    const lines = new LineIndex(text, { lineStarts: [0, 2, 4, 6] });
    expect(lines.lineCount).toBe(4);
    expect([0, 1, 2, 3].map((row) => lines.line(row))).toEqual(['a', 'b', 'é', 'c']);
    expect(span(lines.rangeOfOffsets(2, 3))).toBe('2:0-2:1');
    expect(span(lines.rangeOfOffsets(4, 5))).toBe('3:0-3:2');
    expect(span(lines.rangeOfOffsets(6, 7))).toBe('4:0-4:1');
    // The same text with the default rows: one row up to the \n.
    expect(span(new LineIndex(text).rangeOfOffsets(4, 5))).toBe('1:6-1:8'); // U+2028 is 3 bytes
  });

  it('ends at the end of the text, with or without a final newline', () => {
    const plain = new LineIndex('ab\ncd');
    expect(plain.pointAt(5)).toEqual({ row: 1, column: 2 });
    expect(span(plain.rangeOfOffsets(3, 5))).toBe('2:0-2:2');
    const ended = new LineIndex('ab\nc€\n');
    expect(ended.pointAt(6)).toEqual({ row: 2, column: 0 });
    expect(span(ended.rangeOfOffsets(3, 6))).toBe('2:0-3:0');
    expect(span(ended.rangeOfOffsets(3, 5))).toBe('2:0-2:4');
    const empty = new LineIndex('');
    expect(empty.lineCount).toBe(1);
    expect(span(empty.rangeOfOffsets(0, 0))).toBe('1:0-1:0');
  });

  it('clamps what is out of range instead of reading garbage', () => {
    const lines = new LineIndex('ab\nc€');
    expect(lines.pointAt(-4)).toEqual({ row: 0, column: 0 });
    expect(lines.pointAt(99)).toEqual({ row: 1, column: 2 });
    expect(span(lines.rangeOfOffsets(4, 2))).toBe('2:1-2:1'); // an end before the start is the start
    expect(lines.utf8Column(0, -3)).toBe(0);
    expect(lines.utf8Column(1, 50)).toBe(4); // clamped at the end of the text: c€
    expect(lines.utf8Column(0, 4)).toBe(4); // past its row: runs on into the next one, as the text does
    expect(lines.utf8Column(7, 5)).toBe(5); // no such row: the column as it is
    expect(lines.line(7)).toBe('');
    expect(lines.line(-1)).toBe('');
  });

  describe('byte order mark', () => {
    const withBom = Uint8Array.of(0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a": "é",\n "b": 2}'));
    const decoded = new TextDecoder('utf-8', { ignoreBOM: false }).decode(withBom); // drops the BOM, as the SDK reads files

    it('says how many BOM bytes the decoder dropped', () => {
      expect(decoded.startsWith('{')).toBe(true);
      expect(strippedBomBytes(withBom, decoded)).toBe(3);
      expect(strippedBomBytes(withBom, `\uFEFF${decoded}`)).toBe(0); // still in the text: nothing to add
      expect(strippedBomBytes(withBom.subarray(3), decoded)).toBe(0);
      expect(strippedBomBytes(Uint8Array.of(0xef, 0xbb), '')).toBe(0);
      expect(strippedBomBytes(new Uint8Array(0), '')).toBe(0);
    });

    it('counts the dropped BOM on the first row only, when asked to', () => {
      const fileBytes = new LineIndex(decoded, { bomBytes: strippedBomBytes(withBom, decoded) });
      expect(span(fileBytes.rangeOfOffsets(1, 4))).toBe('1:4-1:7'); // "a" at byte 4 of the file
      expect(span(fileBytes.rangeOfOffsets(decoded.indexOf('"b"'), decoded.length))).toBe('2:1-2:8');
      expect(span(fileBytes.range({ row: 0, column: 6 }, { row: 0, column: 9 }))).toBe('1:9-1:13'); // "é"
      const textOnly = new LineIndex(decoded);
      expect(span(textOnly.rangeOfOffsets(1, 4))).toBe('1:1-1:4');
      expect(span(textOnly.rangeOfOffsets(decoded.indexOf('"b"'), decoded.length))).toBe('2:1-2:8');
    });

    it('counts a BOM still in the text as the three bytes it is', () => {
      const lines = new LineIndex(`\uFEFF${decoded}`);
      expect(span(lines.rangeOfOffsets(2, 5))).toBe('1:4-1:7');
    });
  });
});
