import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatReport, runConformance } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('lang-dart conformance', () => {
  it('passes every check of the conformance kit', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-dart').toBe(true);
    const report = await runConformance({ pluginDir });
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.checks.length).toBeGreaterThanOrEqual(13);
  });
});
