// The text an agent reads: the header, each item, stale and withheld sources.
import { describe, expect, it } from 'vitest';
import { renderContext, renderedContextTokens, renderedItemTokens, renderHeader, renderItem } from '../../src/retrieval/context-render.js';
import { countTokens } from '../../src/retrieval/token-count.js';
import type { Completeness } from '../../src/retrieval/index-completeness.js';

const completeness = { summary: 'complete' } as Completeness;
const node = { id: 'n1', kind: 'function', name: 'f', qualifiedName: 'm.f', corpus: 'c', path: 'src/m.ts', startLine: 3, endLine: 5 };

describe('renderContext', () => {
  it('starts with the question (cut at 200 characters), the budget and the graph state', () => {
    expect(renderHeader('where?', 800, completeness)).toBe('Context for: where?\nBudget 800 tokens (cl100k_base). Graph: complete\n');
    expect(renderHeader('x'.repeat(250), 800, completeness)).toContain(`Context for: ${'x'.repeat(200)}…\n`);
  });

  it('renders each item with its place, name and reasons, then its code or why none is shown', () => {
    const snippet = { startLine: 3, endLine: 5, text: 'function f() {}', truncated: false, stale: false };
    const withCode = renderItem({ node, why: ['a', 'b'], score: 1, snippet });
    expect(withCode).toBe('## src/m.ts:3-5 function m.f — a; b\n```\nfunction f() {}\n```\n');
    expect(renderItem({ node, why: ['a'], score: 1, snippet: { ...snippet, stale: true } })).toContain(
      '\n(the file changed since it was indexed; lines may be off)\n',
    );
    expect(renderItem({ node, why: ['a'], score: 1, snippet: null, withheld: 'a symbolic link' })).toBe(
      '## src/m.ts:3-5 function m.f — a\n(source not shown: a symbolic link)\n',
    );
    const all = renderContext({ query: 'q', budget: 300, completeness, items: [{ node, why: ['a', 'b'], score: 1, snippet, tokens: 0 }] });
    expect(all).toBe(`${renderHeader('q', 300, completeness)}\n${withCode}`);
  });

  it('counts the tokens of an item in two parts, exactly as the whole rendered item counts', () => {
    // Heads ending in letters, digits, punctuation, white space and non-Latin text; code that
    // starts with indentation, tabs, blank lines, a fence of its own or nothing at all.
    // The title (ending in a dash) and the reasons (starting with a space) are counted apart:
    // names and reasons that end and start with letters, punctuation, apostrophes and dashes.
    const names = ['f', 'Parser.parse2', 'ns.λ', 'a_b', '日本語', 'x)', 'a—', "it's", 'f()  '];
    const reasons = [
      [],
      ['matches "wrap"'],
      ['calls 3 of the matches', 'structural core (k-shell 4)'],
      ['its file is named in the query:'],
      ['  '],
      ['ends.'],
      ['its name matches the query', "the query's stack trace passes through f"],
      ['éclair'],
      ['1 digit first'],
      ["'s a contraction"],
      ['—dash'],
    ];
    const codes = [
      '',
      'def wrap(text, width):\n    """Wrap text."""\n    return text',
      '    indented(method)\n\tand a tab\n',
      '\n\nafter blank lines',
      '```ts\nconst fence = 1;\n```',
      'x = "naïve 😀"\r\nwindows = True\r\n',
      ' '.repeat(7) + 'return (a) => {\n' + '  b;\n'.repeat(60) + '}',
    ];
    let seen = 0;
    for (const [i, name] of names.entries()) {
      for (const [j, why] of reasons.entries()) {
        for (const [k, text] of codes.entries()) {
          const snippet = { startLine: 3, endLine: 5, text, truncated: false, stale: (i + j + k) % 2 === 0 };
          const item = { node: { ...node, qualifiedName: name }, why, score: 1, snippet };
          expect(renderedItemTokens(item), JSON.stringify(item)).toBe(countTokens(renderItem(item)));
          seen++;
        }
        const withheld = { node: { ...node, qualifiedName: name }, why, score: 1, snippet: null, withheld: 'a symbolic link' };
        expect(renderedItemTokens(withheld)).toBe(countTokens(renderItem(withheld)));
      }
    }
    expect(seen).toBe(names.length * reasons.length * codes.length);
  });

  it('counts the tokens of a whole answer from its pieces, exactly as its rendered text counts', () => {
    const codes = [
      'def f():\n    return 1',
      '  indented()\n',
      '}',
      'ends with a fence\n```',
      'x = "`"',
      '\n\nblank first',
      'trailing spaces   ',
    ];
    const reasons = [['its name matches the query'], ['links other results (Steiner tree)', 'structural core (k-shell 3)'], ["'quoted"]];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 60; round++) {
      const items = Array.from({ length: Math.floor(rand() * 5) }, (_, i) => {
        const withheld = rand() < 0.25;
        const text = codes[Math.floor(rand() * codes.length)]!;
        return {
          node: { ...node, qualifiedName: `m.f${i}` },
          why: reasons[Math.floor(rand() * reasons.length)]!,
          score: 1,
          snippet: withheld ? null : { startLine: 3, endLine: 5, text, truncated: false, stale: rand() < 0.3 },
          ...(withheld ? { withheld: rand() < 0.5 ? 'a symbolic link' : 'too large)' } : {}),
          tokens: 0,
        };
      });
      const r = { query: `question ${round}`, budget: 4000, completeness, items };
      expect(renderedContextTokens(r), JSON.stringify(r)).toBe(countTokens(renderContext(r)));
    }
  });
});
