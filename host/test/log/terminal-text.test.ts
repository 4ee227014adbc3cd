import { describe, expect, it } from 'vitest';
import { terminalText } from '../../src/log/terminal-text.js';

describe('terminalText', () => {
  it('shows CSI, OSC and BEL as control pictures', () => {
    expect(terminalText('a\x1b[2Jb\x1b]0;pwned\x07c')).toBe('a␛[2Jb␛]0;pwned␇c');
  });

  it('shows the controls that overwrite what was printed: CR, backspace, form feed, vertical tab', () => {
    expect(terminalText('ok\rFAKE\b\f\v')).toBe('ok␍FAKE␈␌␋');
  });

  it('shows NUL, DEL and C1 (U+009B is a one-character CSI)', () => {
    expect(terminalText('\0\x7f\x9b2J\x85')).toBe('␀\\u007f\\u009b2J\\u0085');
  });

  it('shows the Trojan Source bidi controls', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(terminalText(`x${bidi}y`)).toBe('x\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061cy');
  });

  it('keeps newlines, tabs and ordinary Unicode, so code snippets keep their shape', () => {
    const code = 'def f():\n\treturn "héllo — 世界 ✓"\n';
    expect(terminalText(code)).toBe(code);
  });

  it('leaves JSON output the same JSON value', () => {
    const value = { name: 'a\x1b[2J\u202eb\x9b\x7f', path: 'back\\slash\u202e' };
    const shown = terminalText(JSON.stringify(value, null, 2));
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(shown)).toEqual(value);
  });
});
