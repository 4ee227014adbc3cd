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

  it('ends an expression at a comma of its own depth, so a rule for fewer arguments does not match more', () => {
    // byteorder's calc_max!: taking `gen.size(), 16` as one expression recursed without end.
    const m = compileRules([
      { matcher: '($max:expr, $bytes:expr)', body: '{ calc_max!($max, $bytes, 8) }' },
      { matcher: '($max:expr, $bytes:expr, $maxbytes:expr)', body: '{ ($max - 1) >> (8 * ($maxbytes - $bytes)) }' },
    ]);
    expect(expand(m, 'u128::MAX, gen.size(), 16')).toBe('( u128 :: MAX - 1 ) >> ( 8 * ( 16 - gen . size ( ) ) )');
    expect(expand(m, 'u64::MAX, 2')).toBe('calc_max ! ( u64 :: MAX , 2 , 8 )');
  });

  it('keeps commas inside a turbofish, the parameters of a closure and the angle brackets of a type', () => {
    const one = compileRules([{ matcher: '($e:expr)', body: '{ $e }' }]);
    expect(expand(one, 'Vec::<u8, A>::new_in(a)')).toBe('Vec :: < u8 , A > :: new_in ( a )');
    expect(expand(one, '|a, b| a + b')).toBe('| a , b | a + b');
    expect(expand(one, 'move |a, b| a < b')).toBe('move | a , b | a < b');
    expect(expand(one, 'a < b, c > d')).toBeUndefined();
    // A type after `->` or `as` opens angle brackets; `x? | y` is no closure.
    expect(expand(one, '|x: u8| -> Result<u8, ()> { Ok(x) }')).toBe('| x : u8 | -> Result < u8 , ( ) > { Ok ( x ) }');
    expect(expand(one, 'x as Foo<A, B>')).toBe('x as Foo < A , B >');
    expect(expand(one, 'x as u64 * 2 < n, m')).toBeUndefined();
    expect(expand(one, 'async |a, b| a')).toBe('async | a , b | a');
    const two2 = compileRules([{ matcher: '($a:expr, $b:expr)', body: '{ f($a, $b) }' }]);
    expect(expand(two2, 'x? | y, z')).toBe('f ( x ? | y , z )');
    expect(expand(two2, 'a || b, c')).toBe('f ( a || b , c )');
    const two = compileRules([{ matcher: '($t:ty, $e:expr)', body: '{ let x: $t = $e; }' }]);
    expect(expand(two, 'HashMap<K, Vec<V>>, HashMap::new()')).toBe('let x : HashMap < K , Vec < V >> = HashMap :: new ( ) ;');
  });
});
