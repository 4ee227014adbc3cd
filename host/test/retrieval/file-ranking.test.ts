// Step 3 of get_context for files: signals, weights, the auxiliary damping, the ranked list.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../../src/retrieval/context-weights.js';
import { isAuxiliary, rankedFileList, rankFiles } from '../../src/retrieval/file-ranking.js';
import { lexicalEvidence } from '../../src/retrieval/lexical-evidence.js';
import { contextFixture } from './context-fixture.js';

describe('isAuxiliary', () => {
  it('tells tests, docs, examples, data files and dot-directories from source', () => {
    for (const p of [
      'tests/a.py',
      'pkg/test_x.py',
      'x_test.go',
      'a.spec.ts',
      'conftest.py',
      'docs/x.ts',
      'setup.cfg',
      'a/b.json',
      '.github/x.ts',
    ])
      expect(isAuxiliary(p), p).toBe(true);
    for (const p of ['src/auth/token.ts', 'testament.py', 'lib/contest.ts', 'Makefile']) expect(isAuxiliary(p), p).toBe(false);
  });
});

describe('rankFiles', () => {
  it('combines the signals with the weights; an auxiliary file with the same evidence scores less', () => {
    const { g } = contextFixture();
    const evidence = lexicalEvidence(g, 'verifyToken verify token');
    const r = rankFiles(g, evidence, new Map(), DEFAULT_WEIGHTS);
    const src = r.signals.get('src/auth/token.ts')!;
    expect(src.auxiliary).toBe(0);
    expect(src.nameWord).toBe(1); // "token" is the file's name
    expect(r.signals.get('tests/token.test.ts')!.auxiliary).toBe(1);
    const W = DEFAULT_WEIGHTS;
    const weighted =
      W.fileText * src.text +
      W.fileSymbol * src.symbol +
      W.fileBody * src.body +
      W.fileMention * src.mention +
      W.fileNamed * src.named +
      W.fileQuoted * src.quoted +
      W.fileNameWord * src.nameWord;
    expect(r.score.get('src/auth/token.ts')).toBeCloseTo(weighted, 12);
    expect(r.best).toBe(Math.max(...r.score.values()));
    const undamped = rankFiles(g, evidence, new Map(), { ...DEFAULT_WEIGHTS, auxiliaryFactor: 1 });
    expect(r.score.get('tests/token.test.ts')).toBeCloseTo(
      undamped.score.get('tests/token.test.ts')! * DEFAULT_WEIGHTS.auxiliaryFactor,
      12,
    );
  });

  it('gives each file the relevance mass of its nodes, relative to the file with the most', () => {
    const { g, dense } = contextFixture();
    const relevance = new Map([
      [dense('verifyToken'), 1],
      [dense('decodeClaims'), 0.5],
      [dense('sendWithAuth'), 0.3],
    ]);
    const r = rankFiles(g, lexicalEvidence(g, 'zzz'), relevance, DEFAULT_WEIGHTS);
    expect(r.signals.get('src/auth/token.ts')!.ppr).toBe(1);
    expect(r.signals.get('src/http/client.ts')!.ppr).toBeCloseTo(0.3 / 1.5, 12);
  });
});

describe('rankedFileList', () => {
  it('lists the best files first, then fills up with the most depended-on files at score 0', () => {
    const { g } = contextFixture();
    const r = rankFiles(g, lexicalEvidence(g, 'retryRequest'), new Map(), DEFAULT_WEIGHTS);
    const files = rankedFileList(g, r, 20, false);
    expect(files[0]).toEqual({ path: 'src/http/retry.ts', score: expect.any(Number) as number });
    expect(files.map((f) => f.path).sort()).toEqual([
      'src/auth/token.ts',
      'src/geometry/shape.ts',
      'src/http/client.ts',
      'src/http/retry.ts',
      'tests/token.test.ts',
    ]);
    const filler = files.filter((f) => !r.score.has(f.path));
    expect(filler.every((f) => f.score === 0)).toBe(true);
    expect(rankedFileList(g, r, 1, true)).toEqual([
      { path: 'src/http/retry.ts', score: expect.any(Number) as number, signals: r.signals.get('src/http/retry.ts') },
    ]);
  });
});
