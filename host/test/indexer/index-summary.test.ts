import { describe, expect, it } from 'vitest';
import { emptySummary, failedFileLines, formatSummary } from '../../src/indexer/index-summary.js';

const failedLines = (text: string) => text.split('\n').filter((l) => l.startsWith('  failed ') || l.startsWith('  … '));

describe('formatSummary', () => {
  it('says a reason shared by many failed files once, naming the first paths', () => {
    const s = emptySummary('incremental', '/repo');
    const stale = 'not analyzed: lang-typescript@0.2.3: plugin files in /p changed since they were installed';
    s.failures = [
      ...Array.from({ length: 8 }, (_, i) => ({ path: `src/f${i}.ts`, plugin: 'lang-typescript@0.2.3', reason: stale })),
      { path: 'src/odd.py', plugin: 'lang-python@0.1.0', reason: 'syntax error at 3:1' },
    ];
    s.failed = 9;
    expect(failedLines(formatSummary(s))).toEqual([
      `  failed 8 files, src/f0.ts, src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts and 3 more (lang-typescript@0.2.3): ${stale}`,
      '  failed src/odd.py (lang-python@0.1.0): syntax error at 3:1',
    ]);
  });

  it('shows ten reasons at most, then how many failed files it did not show', () => {
    const s = emptySummary('full', '/repo');
    s.failures = Array.from({ length: 50 }, (_, i) => ({ path: `f${i}.lua`, plugin: 'example-lua@0.1.0', reason: `error ${i}` }));
    s.failed = 120;
    const lines = failedLines(formatSummary(s));
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('  failed f0.lua (example-lua@0.1.0): error 0');
    expect(lines[10]).toBe('  … 110 more failed files (travsr status --json lists them)');
  });

  it('groups failures without a plugin the same way (`travsr status`), and says where the whole list is', () => {
    const failures = [
      { path: 'a.py', reason: 'plugin crashed' },
      { path: 'b.py', reason: 'plugin crashed' },
      { path: 'c.py', reason: 'unreadable' },
    ];
    expect(failedFileLines(failures, 4, '--json lists them all')).toEqual([
      '  failed 2 files, a.py, b.py: plugin crashed',
      '  failed c.py: unreadable',
      '  … 1 more failed files (--json lists them all)',
    ]);
  });
});
