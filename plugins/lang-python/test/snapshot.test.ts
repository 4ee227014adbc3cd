// Phase A on a small package of our own: every definition with its qualified name, range and
// skeleton, and every ref as written, annotated onto the sources in snapshots/output.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string) => readFileSync(new URL(`../snapshots/output/${p}`, import.meta.url), 'utf8');

describe('lang-python snapshots', () => {
  it('matches the golden annotated sources in snapshots/output (Phase A)', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-python').toBe(true);
    const result = await snapshotTest({
      pluginDir,
      updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/lang-python/test/snapshot.test.ts',
      timeoutMs: 60_000,
    });
    expect(result.files.map((f) => f.path).sort()).toEqual([
      'app.py',
      'billing/__init__.py',
      'billing/base.py',
      'billing/drafts.py',
      'billing/invoice.py',
      'billing/ledger.py',
      'legacy/report2.py',
    ]);
  }, 120_000);

  it('reports syntax errors only where the source is broken, and keeps what parses', () => {
    for (const ok of ['app.py', 'billing/__init__.py', 'billing/base.py', 'billing/invoice.py', 'billing/ledger.py'])
      expect(read(ok), ok).not.toContain('PARSE_ERRORS');
    const drafts = read('billing/drafts.py');
    expect(drafts).toContain('PARSE_ERRORS');
    expect(drafts).toMatch(/definition class Draft\b/);
    expect(drafts).toMatch(/definition method Draft\.total\b/);
    // Python 2 (print statements, `except X, e`): the grammar still reads it; its definitions and calls are there.
    const py2 = read('legacy/report2.py');
    expect(py2).toMatch(/definition function report\b/);
    expect(py2).toMatch(/definition method Printer\.show\b/);
    expect(py2).toMatch(/reference calls ledger\.post \(from report\)/);
  });
});
