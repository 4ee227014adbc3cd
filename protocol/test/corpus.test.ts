import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHODS } from '../src/schema/messages.js';
import { loadCorpus, PROTOCOL_DIR } from './helpers/corpus.js';

describe('protocol/corpus', () => {
  it('is what generate.mjs writes (run `node protocol/corpus/generate.mjs` after changing it)', () => {
    const out = execFileSync(process.execPath, [join(PROTOCOL_DIR, 'corpus', 'generate.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/^frame corpus is up to date \(\d+ files\)/);
  });

  it('has a valid frame for the params of every method and the result of every request', () => {
    const schemas = new Set(
      loadCorpus()
        .filter((c) => c.valid)
        .map((c) => c.schema),
    );
    for (const [method, m] of Object.entries(METHODS)) {
      const base = method.replace('/', '-');
      expect(schemas, method).toContain(`${base}.params`);
      if (m.type === 'request') expect(schemas, method).toContain(`${base}.result`);
    }
  });

  it('has hand-written frames that do not come from the generator', () => {
    expect(loadCorpus().filter((c) => c.file.startsWith('valid/hand-')).length).toBeGreaterThanOrEqual(4);
  });
});
