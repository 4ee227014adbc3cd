// File look-ups of get_context on a real store's snapshot.
import { describe, expect, it } from 'vitest';
import { fileNodeIndex, filesByDependents, filesMatching } from '../../src/retrieval/file-nodes.js';
import { contextFixture, FILES } from './context-fixture.js';

describe('fileNodeIndex', () => {
  it('maps every file to its file node, the same map for the same snapshot', () => {
    const { g, dense } = contextFixture();
    const index = fileNodeIndex(g.snap);
    expect([...index.keys()].sort()).toEqual(FILES.map((f) => f.path).sort());
    expect(index.get('src/auth/token.ts')).toBe(dense('src/auth/token.ts'));
    expect(fileNodeIndex(g.snap)).toBe(index);
  });
});

describe('filesMatching', () => {
  it('matches a path exactly, or by its longest suffix that names at most three files', () => {
    const { g } = contextFixture();
    expect(filesMatching(g.snap, 'src/http/retry.ts')).toEqual(['src/http/retry.ts']);
    expect(filesMatching(g.snap, '/srv/app/src/http/retry.ts')).toEqual(['src/http/retry.ts']);
    expect(filesMatching(g.snap, 'client.ts')).toEqual(['src/http/client.ts']);
    expect(filesMatching(g.snap, 'nowhere.ts')).toEqual([]);
  });

  it('gives nothing when the mention is too common a suffix (more than three files)', () => {
    const { g } = contextFixture();
    expect(filesMatching(g.snap, 'a/b/index.ts')).toEqual([]);
    const many = contextFixture(['a', 'b', 'c', 'd'].map((dir) => ({ path: `${dir}/index.ts`, lines: ['x'], defs: [] })));
    expect(filesMatching(many.g.snap, 'index.ts')).toEqual([]);
    expect(filesMatching(many.g.snap, 'c/index.ts')).toEqual(['c/index.ts']);
  });
});

describe('filesByDependents', () => {
  it('orders visible files by edges from other files into them, then by path', () => {
    const { g, seenBy } = contextFixture();
    // token.ts: called from client.ts and the test; client.ts: from retry.ts; the rest: none.
    expect(filesByDependents(g.snap, g.visible)).toEqual([
      'src/auth/token.ts',
      'src/http/client.ts',
      'src/geometry/shape.ts',
      'src/http/retry.ts',
      'tests/token.test.ts',
    ]);
    const finance = seenBy({ corpora: '*', groups: ['finance'] });
    expect(filesByDependents(finance.snap, finance.visible)).toContain('src/billing/invoice.ts');
  });
});
