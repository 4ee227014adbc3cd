import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { snapshotTest } from '@travsr/sdk/testing';
import { LANGUAGES } from '../src/languages.js';
import { buildHint, distDir, pluginDir } from './analyze-fixture.js';

const UPDATE = 'TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/lang-structural';
const output = (p: string) => readFileSync(new URL(`../snapshots/output/${p}`, import.meta.url), 'utf8');

describe('lang-structural snapshots', () => {
  it('matches the golden annotated sources in snapshots/output', async () => {
    expect(existsSync(`${distDir}main.js`), buildHint).toBe(true);
    // One plugin process analyzes every input in path order: each grammar parses its files one
    // after the other, the broken ones included, as in a real index.
    const result = await snapshotTest({ pluginDir, updateCommand: UPDATE, timeoutMs: 60_000 });
    const languages = new Set(result.files.map((f) => f.path.split('/')[0]));
    expect([...languages].sort()).toEqual(LANGUAGES.map((l) => l.id).sort());
  });

  it('reports syntax errors only where the source is broken', () => {
    const files = outputs();
    const broken = files.filter((p) => /\/unfinished[^/]*$/i.test(p));
    expect(broken.length).toBeGreaterThanOrEqual(LANGUAGES.length);
    for (const p of files) {
      if (broken.includes(p)) expect(output(p), p).toContain('PARSE_ERRORS');
      else expect(output(p), p).not.toContain('PARSE_ERRORS');
    }
  });
});

/** Paths of the stored snapshot outputs, relative to snapshots/output. */
function outputs(): string[] {
  const out: string[] = [];
  const walk = (dir: URL, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  };
  walk(new URL('../snapshots/output/', import.meta.url), '');
  return out.sort();
}
