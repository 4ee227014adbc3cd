import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('example-lua snapshots', () => {
  it('matches the golden annotated sources in snapshots/output', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-example-lua').toBe(true);
    const result = await snapshotTest({ pluginDir, updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/example-lua' });
    expect(result.files.length).toBe(6);
  });

  it('reports syntax errors only where the source is broken', () => {
    const read = (p: string) => readFileSync(new URL(`../snapshots/output/${p}`, import.meta.url), 'utf8');
    // Every file is parsed by the same parser one after the other: a scanner that leaked
    // state between files would show up here as errors in valid files.
    for (const p of ['src/taskq/queue.lua', 'src/taskq/config.lua', 'src/taskq/init.lua', 'src/taskq/util/strings.lua', 'bin/taskq.lua']) {
      expect(read(p), p).not.toContain('PARSE_ERRORS');
    }
    expect(read('examples/unfinished.lua')).toContain('PARSE_ERRORS');
  });
});
