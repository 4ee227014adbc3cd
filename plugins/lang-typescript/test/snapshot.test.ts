import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string) => readFileSync(new URL(`../snapshots/output/${p}`, import.meta.url), 'utf8');

describe('lang-typescript snapshots (Phase A)', () => {
  it('matches the golden annotated sources in snapshots/output', async () => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-typescript').toBe(
      true,
    );
    const result = await snapshotTest({ pluginDir, updateCommand: 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/lang-typescript' });
    expect(result.files.length).toBe(11);
  });

  it('reports syntax errors only where the source is broken', () => {
    for (const p of [
      'src/app.ts',
      'src/lib/shapes.ts',
      'src/lib/format.ts',
      'src/components/Badge.tsx',
      'src/legacy/util.js',
      'src/assigned/forms.ts',
      'src/types/env.d.ts',
    ]) {
      expect(read(p), p).not.toContain('PARSE_ERRORS');
    }
    expect(read('src/unfinished.ts')).toContain('PARSE_ERRORS');
    expect(read('src/unfinished.ts')).toMatch(/definition function ready/);
  });

  it('gives overloads distinct signatures and the implementation the plain name', () => {
    const out = read('src/lib/format.ts');
    expect(out).toContain('definition function format@overload1');
    expect(out).toContain('definition function format@overload2');
    expect(out).toMatch(/definition function format \[/);
  });
});
