import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_DIR } from './helpers/corpus.js';

/*
 * What a process loads when it imports the BUILT package (`npx tsc -b`), step by step: ES
 * modules as the resolve hook of helpers/log-resolutions.mjs reports them, CommonJS modules from
 * require.cache. Importing must stay cheap: no TypeBox (the schemas are precompiled), no ajv
 * (the validators are), no BLAKE3 and no msgpackr native addon until something needs them.
 */

const dist = (path: string) => pathToFileURL(join(PROTOCOL_DIR, 'dist', path)).href;

const SCRIPT = `
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const step = (name) => writeSync(2, 'step ' + name + ' ' + JSON.stringify(Object.keys(require.cache)) + '\\n');
const protocol = await import(${JSON.stringify(dist('index.js'))});
await import(${JSON.stringify(dist('node/index.js'))});
step('import');
protocol.parseManifest({
  id: 'x', version: '1.0.0', languages: ['python'], extensions: ['.py'],
  entrypoint: { runtime: 'node', path: 'main.js' }, protocolVersions: ['1'],
  constraints: { network: false, ipc: 'none', hostApi: false },
});
protocol.assertEnvelope({ kind: 'notification', method: 'log', params: { level: 'info', message: 'hi' } });
protocol.assertParams('log', { level: 'info', message: 'hi' });
protocol.assertResult('hello', { protocolVersion: '1', plugin: { id: 'x', version: '1.0.0' }, sdk: { name: 's', version: '1' },
  capabilities: { phases: ['A'], cancellation: true, progress: false }, maxFrameBytes: 65536 });
new protocol.FrameDecoder({ maxFrameBytes: 1 << 20 }).push(protocol.encodeFrame({ kind: 'request', id: 1, method: 'ping' }));
step('validate');
protocol.compileSchema({ type: 'object' });
step('own-schema');
protocol.nodeId({ corpus: '', root: '', path: 'a.py', language: 'python', signature: 'f' });
step('node-id');
`;

interface Loaded {
  /** ES module URLs resolved so far. */
  esm: string[];
  /** CommonJS files loaded so far. */
  cjs: string[];
}

/** What the process running SCRIPT had loaded at each of its steps. */
function loadedBySteps(): Map<string, Loaded> {
  const hooks = pathToFileURL(join(PROTOCOL_DIR, 'test', 'helpers', 'log-resolutions.mjs')).href;
  const run = spawnSync(process.execPath, ['--import', hooks, '--input-type=module', '-e', SCRIPT], {
    encoding: 'utf8',
    // msgpackr skips its native addon when this is 'true'; unset, the test sees what a host loads
    env: { ...process.env, MSGPACKR_NATIVE_ACCELERATION_DISABLED: '' },
  });
  expect(run.status, run.stderr).toBe(0);
  const steps = new Map<string, Loaded>();
  const esm: string[] = [];
  for (const line of run.stderr.split('\n')) {
    const resolved = /^resolved (.+)$/.exec(line);
    if (resolved) esm.push(resolved[1]!);
    const step = /^step (\S+) (.+)$/.exec(line);
    if (step) steps.set(step[1]!, { esm: [...new Set(esm)], cjs: JSON.parse(step[2]!) as string[] });
  }
  return steps;
}

/** The loaded files whose path mentions `fragment`. */
const matching = (loaded: Loaded | undefined, fragment: string): string[] =>
  [...(loaded?.esm ?? []), ...(loaded?.cjs ?? [])].filter((file) => file.includes(fragment));

describe('loading @travsr/protocol (built)', () => {
  const steps = loadedBySteps();

  it("imports without TypeBox, ajv, BLAKE3, msgpackr's stream or native entry", () => {
    const imported = steps.get('import');
    expect(matching(imported, 'protocol/dist/schema/generated/schemas.js')).not.toEqual([]);
    expect(matching(imported, 'protocol/generated/validators.js')).not.toEqual([]);
    for (const absent of [
      '@sinclair/typebox',
      '/ajv/',
      '@noble/hashes',
      'msgpackr/node-index.js',
      'msgpackr/stream.js',
      'msgpackr-extract',
    ]) {
      expect(matching(imported, absent), absent).toEqual([]);
    }
  });

  it('validates manifests, envelopes, params and results without loading ajv or TypeBox', () => {
    const validated = steps.get('validate');
    expect(validated).toBeDefined();
    expect(matching(validated, '/ajv/')).toEqual([]);
    expect(matching(validated, '@sinclair/typebox')).toEqual([]);
  });

  it("loads ajv for a schema of the caller's own, and BLAKE3 for the first node id", () => {
    expect(matching(steps.get('own-schema'), '/ajv/dist/ajv.js')).not.toEqual([]);
    expect(matching(steps.get('own-schema'), '@noble/hashes')).toEqual([]);
    expect(matching(steps.get('node-id'), '@noble/hashes/blake3.js')).not.toEqual([]);
  });
});
