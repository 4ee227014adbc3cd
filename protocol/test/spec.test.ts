import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { canonicalVName, nodeId } from '../src/graph/vname.js';
import { pprWeight } from '../src/graph/edge-weight.js';
import { WireErrorCode } from '../src/errors.js';
import { EDGE_KINDS, NODE_KINDS } from '../src/schema/kinds.js';
import type { VName } from '../src/schema/graph.js';
import { METHODS } from '../src/schema/messages.js';
import { DEFAULT_MAX_FRAME_BYTES, MAX_NESTING_DEPTH, MIN_MAX_FRAME_BYTES, PLUGIN_COOKIE_VALUE } from '../src/version.js';
import { memberOf, PROTOCOL_DIR } from './helpers/corpus.js';

const spec = readFileSync(join(PROTOCOL_DIR, 'SPEC.md'), 'utf8');

/** Fenced blocks of SPEC.md with their info string. */
const blocks = [...spec.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  info: m[1]!.trim(),
  body: m[2]!,
  at: spec.slice(0, m.index).split('\n').length,
}));
const examples = blocks
  .map((b) => ({ ...b, schema: /^json\s+example=([\w.-]+)$/.exec(b.info)?.[1] }))
  .filter((b): b is typeof b & { schema: string } => b.schema !== undefined);

/** Validators compiled from the committed JSON Schema files: what other languages use. */
const validators = (() => {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
  const byName = new Map<string, ValidateFunction>();
  const dir = join(PROTOCOL_DIR, 'schemas');
  for (const file of readdirSync(dir)) {
    byName.set(file.replace(/\.schema\.json$/, ''), ajv.compile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as object));
  }
  return byName;
})();

function check(schema: string, value: unknown): string[] {
  const fn = validators.get(schema);
  if (!fn) return [`no schema file named ${schema}.schema.json`];
  return fn(value) ? [] : (fn.errors ?? []).map((e) => `${schema}: ${e.instancePath || '/'} ${e.message ?? ''}`);
}

describe('SPEC.md examples', () => {
  it('has examples, and no json block that escapes checking', () => {
    expect(examples.length).toBeGreaterThan(20);
    const unchecked = blocks.filter((b) => b.info.startsWith('json') && !/example=/.test(b.info));
    expect(unchecked.map((b) => `line ${b.at}`)).toEqual([]);
  });

  it.each(examples.map((e) => [`line ${e.at}: ${e.schema}`, e] as const))('%s validates against schemas/', (_name, e) => {
    const value = JSON.parse(e.body) as unknown;
    const member = memberOf(e.schema);
    if (member) {
      expect(check('envelope', value)).toEqual([]);
      const inner = (value as Record<string, unknown>)[member];
      expect(inner, `the example has no ${member}`).toBeDefined();
      expect(check(e.schema, inner)).toEqual([]);
    } else {
      expect(check(e.schema, value)).toEqual([]);
    }
  });

  it('shows the params of every method and the result of every request', () => {
    const shown = new Set(examples.map((e) => e.schema));
    for (const [method, m] of Object.entries(METHODS)) {
      const base = method.replace('/', '-');
      expect(shown, method).toContain(`${base}.params`);
      if (m.type === 'request') expect(shown, method).toContain(`${base}.result`);
    }
    for (const name of ['vname', 'node', 'edge', 'unresolved-ref', 'diagnostic', 'travsr-plugin']) expect(shown).toContain(name);
  });
});

describe('SPEC.md facts', () => {
  it('works the NodeId example with the bytes and hash the code computes', () => {
    const vnameExample = examples.find((e) => e.schema === 'vname')!;
    const v = JSON.parse(vnameExample.body) as VName;
    const worked = blocks.find((b) => b.body.includes('NodeId ='))!;
    const hexInBlock = worked.body
      .split('\n')
      .map((line) => /^((?:[0-9a-f]{8})(?: [0-9a-f]+)?)\s/.exec(line)?.[1]?.replace(' ', '') ?? '')
      .join('');
    expect(hexInBlock).toBe(Buffer.from(canonicalVName(v)).toString('hex'));
    expect(worked.body).toContain(`NodeId = ${nodeId(v)}`);
    expect(spec).toContain(`(${canonicalVName(v).length} bytes)`);
    expect(spec).toContain(nodeId({ ...v, signature: '' }));
  });

  it('lists the constants of the code', () => {
    expect(spec).toContain(`\`${PLUGIN_COOKIE_VALUE}\``);
    expect(spec).toContain(`FRAME_TOO_LARGE`);
    const thin = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');
    expect(spec).toContain(`${thin(DEFAULT_MAX_FRAME_BYTES)} bytes (16 MiB)`);
    expect(spec).toContain(`${thin(MIN_MAX_FRAME_BYTES)} bytes (64 KiB)`);
    expect(spec).toContain(`nested deeper than **${MAX_NESTING_DEPTH}** levels`);
    const python = blocks.find((b) => b.info === 'python')!;
    expect(python.body).toContain(`COOKIE = "${PLUGIN_COOKIE_VALUE}"`);
  });

  it('has every wire error code in its table', () => {
    for (const [name, code] of Object.entries(WireErrorCode)) {
      expect(spec, name).toMatch(new RegExp(`\\|\\s*−${Math.abs(code)}\\s*\\|\\s*\`${name}\`\\s*\\|`));
    }
  });

  it('names every node kind and every edge kind with its weight', () => {
    for (const kind of NODE_KINDS) expect(spec).toContain(`\`${kind}\``);
    for (const kind of EDGE_KINDS)
      expect(spec).toMatch(new RegExp(`\\|\\s*\`${kind}\`\\s*\\|[^|]+\\|\\s*${pprWeight(kind).toFixed(1)}\\s*\\|`));
  });
});
