import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitSchemas, schemaFiles } from '../../src/schema/emit.js';
import { METHODS } from '../../src/schema/messages.js';
import { PROTOCOL_DIR } from '../helpers/corpus.js';

const committed = join(PROTOCOL_DIR, 'schemas');
const fresh = mkdtempSync(join(tmpdir(), 'travsr-schemas-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('JSON Schema files', () => {
  const written = emitSchemas(fresh).sort();

  it('protocol/schemas holds exactly the files emit.ts writes', () => {
    expect(readdirSync(committed).sort()).toEqual(written);
  });

  it.each(written)(
    '%s is what emit.ts produces (run `node protocol/dist/schema/emit.js protocol/schemas` after a schema change)',
    (file) => {
      expect(readFileSync(join(committed, file), 'utf8')).toBe(readFileSync(join(fresh, file), 'utf8'));
    },
  );

  it('has a params file for every method and a result file for every request', () => {
    const names = Object.keys(schemaFiles());
    for (const [method, spec] of Object.entries(METHODS)) {
      const base = method.replace('/', '-');
      expect(names).toContain(`${base}.params.schema.json`);
      if (spec.type === 'request') expect(names).toContain(`${base}.result.schema.json`);
    }
  });
});
