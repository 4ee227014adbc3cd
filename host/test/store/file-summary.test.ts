import { describe, expect, it } from 'vitest';
import { analysis, def, edge, tempStore } from './graph-fixtures.js';

// What `travsr status` reads: aggregates that agree with a walk over every files row and with the
// per-provenance edge counts, read without either.

describe('GraphStore.fileSummary and phaseBProvenances', () => {
  it('count per language what listFiles and phaseBProvenance would, and list the failed and skipped files', () => {
    const store = tempStore();
    const a = def('a.py', '#a');
    const b = def('b.py', '#b');
    const g = def('g.go', '#g');
    const h = def('h.go', '#h');
    store.replaceFile(
      analysis('a.py', { language: 'python', phase: 'B', nodes: [a, b], edges: [edge(a.vname, b.vname, 'calls', 'phase-b')] }),
    );
    store.replaceFile(
      analysis('b.py', {
        language: 'python',
        nodes: [b],
        diagnostics: [{ severity: 'warning', code: 'PARSE_ERRORS', message: 'PARSE_ERRORS near line 3' }],
      }),
    );
    store.replaceFile(
      analysis('c.py', { language: 'python', diagnostics: [{ severity: 'warning', message: 'mentions PARSE_ERRORS only' }] }),
    );
    store.replaceFile(analysis('g.go', { language: 'go', phase: 'B', nodes: [g, h], edges: [edge(g.vname, h.vname, 'calls', 'scip')] }));
    store.replaceFile(analysis('h.go', { language: 'go', phase: 'B', nodes: [h] }));
    store.replaceFile(
      analysis('x.go', { language: 'go', status: 'failed', diagnostics: [{ severity: 'error', message: 'plugin crashed' }] }),
    );
    store.markSkipped('big.py', 'sha-big', 'larger than index.maxFileBytes', 'python');

    const summary = store.fileSummary();
    expect(summary.byLanguage).toEqual({
      go: { analyzed: 2, phaseB: 2, parseErrors: 0 },
      python: { analyzed: 3, phaseB: 1, parseErrors: 1 },
    });
    const rows = store.listFiles();
    expect(summary.failed).toEqual(
      rows.filter((f) => f.status === 'failed').map((f) => ({ path: f.path, plugin: f.plugin, reason: f.reason })),
    );
    expect(summary.failed).toEqual([{ path: 'x.go', plugin: 'lang-typescript@0.1.0', reason: 'plugin crashed' }]);
    expect(summary.skipped).toEqual([{ path: 'big.py', reason: 'larger than index.maxFileBytes' }]);

    expect(store.phaseBProvenances()).toEqual({ go: ['scip'], python: ['phase-b'] });
    const counted = store.phaseBProvenance();
    expect(Object.fromEntries(Object.entries(counted).map(([l, p]) => [l, Object.keys(p).sort()]))).toEqual(store.phaseBProvenances());
    store.close();
  });
});
