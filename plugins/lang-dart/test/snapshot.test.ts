import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('lang-dart snapshots', () => {
  it('matches the golden annotated sources in snapshots/output (Phase A)', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-dart').toBe(true);
    const result = await snapshotTest({ pluginDir, updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/lang-dart' });
    expect(result.files.length).toBe(2);
  });

  it('reports syntax errors only where the source is broken', () => {
    const read = (p: string) => readFileSync(new URL(`../snapshots/output/${p}`, import.meta.url), 'utf8');
    expect(read('lib/src/counter.dart')).not.toContain('PARSE_ERRORS');
    expect(read('lib/src/unfinished.dart')).toContain('PARSE_ERRORS');
  });
});
