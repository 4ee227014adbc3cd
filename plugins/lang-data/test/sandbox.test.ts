// The conformance kit in the standard sandbox tier, through the real CLI, as a user runs it:
// `travsr plugin test plugins/lang-data`. The bundle must run with no node_modules.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../../../host/bin/run.js', import.meta.url));

describe('lang-data in the sandbox', () => {
  it('passes `travsr plugin test` in the standard tier', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'plugin', 'test', pluginDir, '--json'], {
      env: { ...process.env },
      timeout: 120_000,
    });
    const report = JSON.parse(stdout) as { ok: boolean; tier: string; checks: { name: string; ok: boolean; detail: string }[] };
    expect(report.tier).toBe('standard');
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'analyze fixtures')?.detail).toMatch(/^13 file\(s\)/);
  });
});
