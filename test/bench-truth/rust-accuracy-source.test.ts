// The token scanner behind the Rust bench's reference: where an item ends decides which function
// a call belongs to, so a char literal read wrong moves calls into the function before.
import { describe, expect, it } from 'vitest';
// @ts-expect-error — a plain ES module of the bench, without types.
import { itemEnd } from '../bench/rust-accuracy-source.js';

const endLine = (src: string, name: string): number => {
  const idx = src.indexOf(`fn ${name}`) + 3 + name.length;
  return src.slice(0, (itemEnd as (s: string, i: number, m: string) => number)(src, idx, 'block')).split('\n').length;
};

describe('rust-accuracy-source itemEnd', () => {
  it("ends a function at its own brace past escaped char literals ('\\\\', '\\'', '\\u{7f}') and lifetimes", () => {
    const src = [
      "fn first(input: Input<'_>) {",
      "    let a = matches!(c, '/' | '\\\\');",
      "    let b = '\\'';",
      "    let c = '\\u{7f}';",
      "    let d = b'{';",
      '}',
      'fn second() {',
      '    first();',
      '}',
      '',
    ].join('\n');
    expect(endLine(src, 'first')).toBe(6);
    expect(endLine(src, 'second')).toBe(9);
  });
});
