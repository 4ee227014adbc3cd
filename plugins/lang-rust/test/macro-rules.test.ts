// The macro_rules! expander: matching fragments and repetitions, transcription, refusals.
import { describe, expect, it } from 'vitest';
import { compileRules, expand, render, tokenize } from '../src/syntax/macro-rules.js';

describe('macro_rules expansion', () => {
  it('tokenizes strings, chars, lifetimes, numbers and nested groups', () => {
    expect(render(tokenize(`fn a<'a>(x: &'a str) -> char { let _ = "}{"; 'x' } // gone`)!)).toBe(
      `fn a < 'a > ( x : & 'a str ) -> char { let _ = "}{" ; 'x' }`,
    );
    expect(tokenize('fn a( {')).toBeUndefined();
  });

  it('expands ident, expr and literal fragments into items', () => {
    const m = compileRules([
      {
        matcher: '($bit:expr, $is:ident, $set:ident)',
        body: '{ fn $is(&self) -> bool { self.bools & (1 << $bit) > 0 } fn $set(&mut self) {} }',
      },
    ]);
    expect(expand(m, '0, is_utf8, set_utf8')).toBe(
      'fn is_utf8 ( & self ) -> bool { self . bools & ( 1 << 0 ) > 0 } fn set_utf8 ( & mut self ) { }',
    );
  });

  it('expands repetitions with separators, tries rules in order, and refuses what does not match', () => {
    const m = compileRules([
      { matcher: '(@one $name:ident)', body: '{ fn $name() {} }' },
      { matcher: '($($name:ident => $ty:ty),* $(,)?)', body: '{ $(pub struct $name($ty);)* }' },
    ]);
    expect(expand(m, '@one solo')).toBe('fn solo ( ) { }');
    expect(expand(m, 'A => u8, B => Vec<u32>,')).toBe('pub struct A ( u8 ) ; pub struct B ( Vec < u32 > ) ;');
    expect(expand(m, '@two x y')).toBeUndefined();
  });
});
