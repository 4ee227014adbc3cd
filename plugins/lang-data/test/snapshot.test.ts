import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('lang-data snapshots', () => {
  it('matches the golden annotated sources in snapshots/output', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-data').toBe(true);
    const result = await snapshotTest({ pluginDir, updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/lang-data' });
    expect(result.files.length).toBe(13);
  });
});
