// The inner attributes a file starts with, blanked out for the grammar (which lexes the first as a shebang).
import { describe, expect, it } from 'vitest';
import { leadingInnerAttributes, withoutLeadingAttributes } from '../src/syntax/leading-attribute.js';

describe('leading inner attributes', () => {
  it('finds the #![…] a file starts with after comments, with brackets and strings inside them', () => {
    const text = '// c\n/* a /* nested */ b */#![cfg_attr(x, doc = "]")] /* d */ #![no_std] mod a;\n#![late]\n';
    const attrs = leadingInnerAttributes(text);
    expect(attrs.map((a) => a.content)).toEqual(['cfg_attr(x, doc = "]")', 'no_std']);
    expect(text.slice(attrs[0]!.start, attrs[0]!.end)).toBe('#![cfg_attr(x, doc = "]")]');
    const blanked = withoutLeadingAttributes(text, attrs);
    expect(blanked).toHaveLength(text.length);
    expect(blanked).toBe('// c\n/* a /* nested */ b */' + ' '.repeat(26) + ' /* d */ ' + ' '.repeat(10) + ' mod a;\n#![late]\n');
  });

  it('leaves a shebang, an item first and an unclosed attribute alone, and keeps line breaks', () => {
    expect(leadingInnerAttributes('#!/usr/bin/env run-cargo-script\nfn main() {}\n')).toEqual([]);
    expect(leadingInnerAttributes('fn main() {}\n#![allow(x)]\n')).toEqual([]);
    expect(leadingInnerAttributes('#![allow(x)\n')).toEqual([]);
    // Brackets in char literals and raw strings are not the attribute's.
    expect(leadingInnerAttributes(`#![cfg_attr(x, doc = ']')] #![doc = r#"]"#]\nmod a;`).map((a) => a.content)).toEqual([
      "cfg_attr(x, doc = ']')",
      'doc = r#"]"#',
    ]);
    expect(withoutLeadingAttributes('#! [allow(\n  x)]\nmod a;')).toBe(' '.repeat(10) + '\n' + ' '.repeat(5) + '\nmod a;');
  });
});
