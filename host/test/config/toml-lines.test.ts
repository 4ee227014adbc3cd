import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { keyPathId, lineOfKey, tomlKeyLines } from '../../src/config/toml-lines.js';

describe('tomlKeyLines', () => {
  const text = [
    '# header', //                                   1
    'a = """', //                                    2
    'not = "a key"', //                              3
    '[not.a.table]', //                              4
    '"""', //                                        5
    "b = '''x = 1'''", //                            6
    'c = [', //                                      7
    '  "]", # ] [d]', //                             8
    '  { e = 1 },', //                               9
    ']', //                                          10
    '[t] # comment', //                              11
    'site."x.y".z = 1979-05-27 07:32:00Z', //        12
    '  "esc\\"aped" = "\\\\"', //                    13
    'inline = { p = 1, q = { r = "s" } }', //        14
    '[[items]]', //                                  15
    'name = "one"', //                               16
    "[ 'quoted . table' ]", //                       17
    'k = """multi\\', //                             18
  ].join('\n');
  const full = `${text}\n  line"""\nafter = 1\n`;

  it('records the line of keys, headers and inline-table keys, skipping strings and comments', () => {
    expect(() => parse(full)).not.toThrow();
    const lines = tomlKeyLines(full);
    const at = (...p: string[]) => lines.get(keyPathId(p));
    expect(at('a')).toBe(2);
    expect(at('not')).toBeUndefined();
    expect(at('b')).toBe(6);
    expect(at('c')).toBe(7);
    expect(at('d')).toBeUndefined();
    expect(at('t')).toBe(11);
    expect(at('t', 'site', 'x.y', 'z')).toBe(12);
    expect(at('t', 'site')).toBe(12);
    expect(at('t', 'esc"aped')).toBe(13);
    expect(at('t', 'inline', 'q', 'r')).toBe(14);
    expect(at('items', 'name')).toBe(16);
    expect(at('quoted . table')).toBe(17);
    expect(at('quoted . table', 'k')).toBe(18);
    expect(at('quoted . table', 'after')).toBe(20);
  });

  it('finds a line for every key smol-toml parsed', () => {
    const missing: string[] = [];
    const lines = tomlKeyLines(full);
    const walk = (v: unknown, path: string[]) => {
      if (Array.isArray(v)) return;
      if (typeof v !== 'object' || v === null || v instanceof Date) return;
      for (const [k, child] of Object.entries(v)) {
        if (!lines.has(keyPathId([...path, k]))) missing.push([...path, k].join('.'));
        walk(child, [...path, k]);
      }
    };
    walk(parse(full), []);
    expect(missing).toEqual([]);
  });

  it('lineOfKey falls back to the closest defined parent', () => {
    const lines = tomlKeyLines('[plugins]\nprefer = { python = "x" }\n');
    expect(lineOfKey(lines, ['plugins', 'prefer', 'go'])).toBe(2);
    expect(lineOfKey(lines, ['other'])).toBeUndefined();
  });
});
