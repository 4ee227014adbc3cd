// The text an agent reads: the header, each item, stale and withheld sources.
import { describe, expect, it } from 'vitest';
import { renderContext, renderHeader, renderItem } from '../../src/retrieval/context-render.js';
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
});
