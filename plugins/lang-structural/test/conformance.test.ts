import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatReport, runConformance } from '@travsr/sdk/testing';
import { buildHint, distDir, pluginDir } from './analyze-fixture.js';

describe('lang-structural conformance', () => {
  it('passes every check of the conformance kit', async () => {
    expect(existsSync(`${distDir}main.js`), buildHint).toBe(true);
    const report = await runConformance({ pluginDir, timeoutMs: 30_000 });
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.checks.length).toBeGreaterThanOrEqual(13);
  });
});
