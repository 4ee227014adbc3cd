import { describe, expect, it } from 'vitest';
import { formatJson, jsonEqual, positionAt, scanJson } from '../../src/connect/json-text.js';

/** `line:col: message` of the first error, as a user sees it. */
const errorAt = (text: string): string | undefined => {
  const e = scanJson(text).error;
  if (!e) return undefined;
  const p = positionAt(text, e.offset);
  return `${p.line}:${p.column}: ${e.message}`;
};

describe('scanJson', () => {
  it('points at the mistakes people make in hand-edited configuration files', () => {
    expect(errorAt('{\n  "mcpServers": {\n    "a": {"command": "x"},\n  }\n}\n')).toBe('4:3: trailing comma before "}"');
    expect(errorAt('{\n  // my servers\n  "mcpServers": {}\n}')).toBe(
      '2:3: expected a property name, found a comment (JSON has no comments)',
    );
    expect(errorAt("{'mcpServers': {}}")).toBe('1:2: expected a property name, found a single quote (JSON strings use double quotes)');
    expect(errorAt('{mcpServers: {}}')).toBe('1:2: property names must be in double quotes');
    expect(errorAt('{\n  "a": 1\n  "b": 2\n}')).toBe('3:3: expected "," or "}" after a property value, found "\\""');
    expect(errorAt('{"mcpServers": {"a": {"args": ["x",]}}}')).toBe('1:36: trailing comma before "]"');
    expect(errorAt('{"a": ')).toBe('1:7: expected a value, found the end of the file');
    expect(errorAt('{"a": "b}')).toBe('1:7: a string is not closed');
    expect(errorAt('{"a": tru}')).toBe('1:7: expected a value, found "t"');
    expect(errorAt('{"a": 01}')).toBe('1:7: invalid number');
    expect(errorAt('{} {}')).toBe('1:4: expected the end of the file after the JSON value, found "{"');
    expect(errorAt('{"a": "\\x"}')).toBe('1:8: invalid escape "\\x"');
  });

  it('accepts exactly what JSON.parse accepts, over every one-character edit of a real file', () => {
    const valid =
      '{\n  "mcpServers": {\n    "fs": {"command": "npx", "args": ["-y", "x"], "env": {"K": "v\\u00e9\\n"}},\n    "n": [1, -2.5e3, true, false, null]\n  }\n}\n';
    const inserts = ['}', ']', ',', ':', '"', '\\', '/', 'x', '0', '-', '.', 'e', ' ', '\n', '\t'];
    let checked = 0;
    for (let k = 0; k <= valid.length; k++) {
      const variants = [valid.slice(0, k) + valid.slice(k + 1), ...inserts.map((c) => valid.slice(0, k) + c + valid.slice(k))];
      for (const text of variants) {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect({ text, ok: scanJson(text).error === undefined }).toEqual({ text, ok: parses });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1500);
  });

  it('lists numbers that a parse and rewrite would change', () => {
    expect(
      scanJson('{"id": 12345678901234567890, "ok": 9007199254740991, "f": 1.5, "big": 1e400}').lossyNumbers.map((n) => n.text),
    ).toEqual(['12345678901234567890', '1e400']);
  });
});

describe('formatJson', () => {
  it('writes 2-space indentation and a final newline, in the line ending asked for', () => {
    expect(formatJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(formatJson({ a: 1 }, '\r\n')).toBe('{\r\n  "a": 1\r\n}\r\n');
  });
});

describe('jsonEqual', () => {
  it('compares values, not key order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
  });
});
