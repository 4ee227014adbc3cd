import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS } from '../../src/schema/ajv-options.js';
import * as generated from '../../src/schema/generated/schemas.js';
import * as graph from '../../src/schema/graph.js';
import * as manifest from '../../src/schema/manifest.js';
import * as messages from '../../src/schema/messages.js';
import { precompiledValidator } from '../../src/schema/precompiled.js';
import { compileSchema, describeSchemaErrors } from '../../src/schema/validate.js';
import { fromCorpusJson, loadCorpus, memberOf, schemaByName } from '../helpers/corpus.js';

/*
 * The precompiled validators must behave exactly like ajv compiling the TypeBox definitions at
 * run time, as the protocol did before: same verdict, same error objects, same message text.
 * The reference here is a fresh ajv with the same options, compiling the definitions themselves.
 */

const definitions: Record<string, unknown> = { ...graph, ...messages, ...manifest };
const copies = generated as unknown as Record<string, TSchema>;
const schemaNames = Object.keys(copies).filter((name) => name !== 'METHODS');
const reference = new Ajv(AJV_OPTIONS);
const nameOf = new Map<unknown, string>(schemaNames.map((name) => [definitions[name], name]));
/** What validate.ts checks against: the envelope, every method's params and result, the manifest. */
const validated = new Set<TSchema>([
  generated.EnvelopeSchema,
  ...Object.values(generated.METHODS).flatMap((spec: messages.MethodSpec) => (spec.result ? [spec.params, spec.result] : [spec.params])),
  generated.ManifestSchema,
]);
const validatedNames = schemaNames.filter((name) => validated.has(copies[name]!));

interface Verdict {
  valid: boolean;
  errors: ErrorObject[] | null | undefined;
  text: string;
}

function verdict(validate: (value: unknown) => boolean, errors: () => ErrorObject[] | null | undefined, value: unknown): Verdict {
  const valid = validate(value);
  const found = structuredClone(errors());
  return { valid, errors: found, text: valid ? '' : describeSchemaErrors(found) };
}

/** What the precompiled validator and run-time ajv say about `value` under the schema exported as `name`. */
function judge(name: string, value: unknown): { precompiled: Verdict; ajv: Verdict } {
  const precompiled = precompiledValidator(copies[name]!);
  if (!precompiled) throw new Error(`no precompiled validator for ${name}`);
  const compiled = reference.compile(definitions[name] as TSchema);
  return {
    precompiled: verdict(precompiled, () => precompiled.errors, value),
    ajv: verdict(compiled, () => compiled.errors, value),
  };
}

/** Variants of a valid value, one change each: a member removed, nulled, retyped; an unknown member added. */
function mutants(value: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (node: unknown, replace: (v: unknown) => unknown, remove?: () => unknown): void => {
    if (remove) out.push(remove());
    out.push(replace(null));
    out.push(replace(typeof node === 'string' ? 7 : typeof node === 'number' ? 'seven' : Array.isArray(node) ? {} : []));
    if (typeof node === 'number') out.push(replace(-1), replace(0.5), replace(Number.MAX_SAFE_INTEGER + 2));
    if (typeof node === 'string') out.push(replace(''), replace('X'.repeat(300)), replace(`${node}/..`));
    if (Array.isArray(node)) {
      out.push(replace([]), replace([...node, ...node]));
      node.forEach((item, i) =>
        visit(
          item,
          (v) => replace(node.map((x, j) => (j === i ? v : x))),
          () => replace(node.filter((_, j) => j !== i)),
        ),
      );
    } else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      out.push(replace({ ...record, unexpected: 1 }));
      for (const key of Object.keys(record)) {
        visit(
          record[key],
          (v) => replace({ ...record, [key]: v }),
          () => replace(Object.fromEntries(Object.entries(record).filter(([k]) => k !== key))),
        );
      }
    }
  };
  visit(value, (v) => v);
  return out;
}

/** Corpus messages with a stated schema, as (schema export name, value) pairs the way a receiver validates them. */
function corpusSamples(): { name: string; value: unknown; file: string }[] {
  const samples: { name: string; value: unknown; file: string }[] = [];
  for (const c of loadCorpus()) {
    if (c.schema === undefined) continue;
    const name = nameOf.get(schemaByName(c.schema));
    if (name === undefined) throw new Error(`corpus schema ${c.schema} is not an exported schema`);
    for (const raw of c.messages) {
      const message = fromCorpusJson(raw) as Record<string, unknown>;
      const member = memberOf(c.schema);
      samples.push({ name: 'EnvelopeSchema', value: message, file: c.file });
      if (member === undefined) samples.push({ name, value: message, file: c.file });
      else samples.push({ name, value: member === 'params' ? (message.params ?? {}) : message.result, file: c.file });
    }
  }
  return samples;
}

const MANIFEST = {
  id: 'example-python',
  version: '1.2.0',
  description: 'Python definitions, imports and calls',
  languages: ['python'],
  extensions: ['.py', '.pyi', 'SConstruct'],
  entrypoint: { runtime: 'node', path: 'dist/main.js', args: ['--quiet'] },
  protocolVersions: ['1'],
  phases: ['A', 'B'],
  constraints: {
    network: { allow: ['registry.npmjs.org', '*.pypi.org:443'] },
    ipc: 'none',
    hostApi: false,
    filesystem: 'repo-read-only',
    resources: { memoryMiB: 512, cpuSeconds: 60, processes: 4 },
    tools: ['scip-python'],
    optionalTools: ['pyright'],
    cache: true,
  },
};

describe('precompiled validators', () => {
  it('exist for the envelope, every method’s params and result and the manifest, and compileSchema hands them out', () => {
    expect(validatedNames).toHaveLength(validated.size);
    expect(validatedNames).toEqual(
      expect.arrayContaining(['EnvelopeSchema', 'GraphFileParamsSchema', 'HelloResultSchema', 'ManifestSchema']),
    );
    for (const name of validatedNames) {
      const validate = precompiledValidator(copies[name]!);
      expect(validate, name).toBeTypeOf('function');
      expect(compileSchema(copies[name]!), name).toBe(validate);
    }
    expect(compileSchema(generated.METHODS['graph/file'].params)).toBe(precompiledValidator(generated.GraphFileParamsSchema));
  });

  it('leave the parts (VNameSchema, NodeSchema, …) to ajv, which compileSchema loads for them with the same options', () => {
    const parts = schemaNames.filter((name) => !validated.has(copies[name]!));
    expect(parts).toEqual(expect.arrayContaining(['VNameSchema', 'NodeSchema', 'EdgeSchema', 'ConstraintsSchema']));
    for (const name of parts) {
      expect(precompiledValidator(copies[name]!), name).toBeUndefined();
      const validate = compileSchema(copies[name]!);
      const expected = reference.compile(definitions[name] as TSchema);
      for (const value of [{}, null, 'x', { corpus: '', root: '', path: '', language: 'Py', signature: '' }]) {
        expect(validate(value), name).toBe(expected(value));
        expect(validate.errors, name).toEqual(expected.errors);
      }
    }
  });

  it('compileSchema still compiles any other schema with ajv, a look-alike TypeBox object included', () => {
    const lookalike = compileSchema(messages.PingParamsSchema);
    expect(lookalike).not.toBe(precompiledValidator(generated.PingParamsSchema));
    expect(lookalike({ nonce: 1 })).toBe(true);
    const own = compileSchema({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 2 } },
      required: ['n'],
    } as unknown as TSchema);
    expect(own({ n: 1 })).toBe(false);
    expect(describeSchemaErrors(own.errors)).toBe('/n must be >= 2');
  });

  it('agree with run-time ajv on every corpus message, valid and rejected', () => {
    const samples = corpusSamples();
    expect(samples.length).toBeGreaterThan(100);
    let rejected = 0;
    for (const { name, value, file } of samples) {
      const { precompiled, ajv } = judge(name, value);
      expect(precompiled, `${file} (${name})`).toEqual(ajv);
      if (!ajv.valid) rejected++;
    }
    expect(rejected).toBeGreaterThan(10);
  });

  it('agree with run-time ajv on every one-change variant of the valid corpus messages', () => {
    let compared = 0;
    let rejected = 0;
    for (const { name, value, file } of corpusSamples()) {
      if (!judge(name, value).ajv.valid) continue;
      for (const variant of mutants(value)) {
        const { precompiled, ajv } = judge(name, variant);
        expect(precompiled, `${file} (${name}): ${JSON.stringify(variant)?.slice(0, 300)}`).toEqual(ajv);
        compared++;
        if (!ajv.valid) rejected++;
      }
    }
    expect(compared).toBeGreaterThan(2000);
    expect(rejected).toBeGreaterThan(1000);
  });

  it('agree with run-time ajv on a full manifest and every one-change variant of it', () => {
    expect(judge('ManifestSchema', MANIFEST).precompiled.valid).toBe(true);
    const variants = [
      ...mutants(MANIFEST),
      { ...MANIFEST, languages: ['python', 'python'] },
      { ...MANIFEST, version: '1.2' },
      { ...MANIFEST, id: 'owner/plugin' },
      { ...MANIFEST, entrypoint: { runtime: 'exec', path: 'dist/../../x' } },
      { ...MANIFEST, entrypoint: { runtime: 'exec', path: 'C:\\x.exe' } },
      { ...MANIFEST, constraints: { ...MANIFEST.constraints, network: false, ipc: 'posix-shm' } },
      { ...MANIFEST, constraints: { ...MANIFEST.constraints, network: { allow: ['example.com/x'] } } },
      { ...MANIFEST, constraints: { ...MANIFEST.constraints, resources: { memoryMiB: 15 } } },
    ];
    let rejected = 0;
    for (const variant of variants) {
      const { precompiled, ajv } = judge('ManifestSchema', variant);
      expect(precompiled, JSON.stringify(variant)).toEqual(ajv);
      if (!ajv.valid) rejected++;
    }
    expect(rejected).toBeGreaterThan(50);
  });

  it('count string lengths in code points like ajv: a surrogate pair is one character, a lone surrogate one', () => {
    const log = (message: string) => ({ level: 'info', message });
    const cases = [
      ['😀'.repeat(16384), true],
      ['😀'.repeat(16385), false],
      ['\ud800'.repeat(16384), true],
      ['\ud800'.repeat(16385), false],
      [`${'a'.repeat(16383)}\ud83d`, true],
    ] as const;
    for (const [message, valid] of cases) {
      const { precompiled, ajv } = judge('LogParamsSchema', log(message));
      expect(precompiled).toEqual(ajv);
      expect(precompiled.valid).toBe(valid);
    }
    expect(judge('InitializeParamsSchema', { root: '', corpus: '' }).precompiled.text).toBe('/root must NOT have fewer than 1 characters');
  });

  it('agree with run-time ajv on values of the wrong shape, for every precompiled schema', () => {
    for (const name of validatedNames) {
      for (const value of [null, undefined, 0, -1, 1.5, '', 'x', [], [{}], {}, { kind: 'request' }, true]) {
        const { precompiled, ajv } = judge(name, value);
        expect(precompiled, `${name}: ${String(JSON.stringify(value))}`).toEqual(ajv);
      }
    }
  });
});
