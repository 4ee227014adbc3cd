import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatReport, runConformance, snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('{{id}}', () => {
  it('passes the Travsr conformance kit', async () => {
    const report = await runConformance({ pluginDir });
    expect(report.ok, formatReport(report)).toBe(true);
  });

  it('matches the golden snapshots (update: TRAVSR_UPDATE_SNAPSHOTS=1 npm test)', async () => {
    await snapshotTest({ pluginDir, updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npm test' });
  });
});
