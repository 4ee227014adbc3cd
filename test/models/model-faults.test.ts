// A model plugin that cannot serve — it fails to load its model, hangs, crashes, or answers what
// its manifest does not allow — gives a coded error that says so, and is stopped; the host goes
// on. Real sandboxed sidecars built from test/fixtures/plugins/misbehave-model.ts.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../host/src/log/logger.js';
import { addModel } from '../../host/src/models/model-catalog.js';
import { ModelClient } from '../../host/src/models/model-client.js';
import { buildMisbehaveModelPlugins, type MisbehaveModelMode } from '../helpers/fixture-plugins.js';
import { embedderDir, embedderModel, embedderWeights, modelDir, tokenizerJson } from '@travsr/plugin-model-onnx/testing';
import { fileURLToPath } from 'node:url';
import { SemanticLayer } from '../../host/src/models/semantic-layer.js';

/** plugins/model-onnx's built runner: the real model plugins below run it. */
const RUNNER = join(fileURLToPath(import.meta.url), '../../../plugins/model-onnx/dist/runner');

let plugins: Awaited<ReturnType<typeof buildMisbehaveModelPlugins>>;
beforeAll(async () => {
  plugins = await buildMisbehaveModelPlugins(['ok', 'hang', 'crash', 'wrong-dims', 'not-finite', 'load-fails']);
}, 60_000);
afterAll(() => rmSync(plugins.root, { recursive: true, force: true }));

async function start(mode: MisbehaveModelMode): Promise<ModelClient> {
  const { model } = await addModel(plugins.dir(mode));
  return ModelClient.start(model, { logger: silentLogger });
}

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err as { code: string; message: string },
  );
  expect(e, 'expected a ModelChannelError').toBeDefined();
  return e!;
}

describe('a model plugin that cannot serve', () => {
  it('serves when it behaves: one vector per text, of its dimensions', async () => {
    const client = await start('ok');
    try {
      const v = await client.embed(['a', 'b', 'c'], { timeoutMs: 10_000 });
      expect(v.map((x) => [...x])).toEqual([
        [1, 0, 0, 0],
        [1, 0, 0, 0],
        [1, 0, 0, 0],
      ]);
      // Callers at once (a server's tool calls) are served one after the other, none refused.
      const many = await Promise.all(Array.from({ length: 6 }, (_, i) => client.embed([`q${i}`], { timeoutMs: 10_000 })));
      expect(many.map((x) => x.length)).toEqual([1, 1, 1, 1, 1, 1]);
    } finally {
      await client.stop();
    }
  });

  it("fails to load its model: the session does not start, with the model's reason", async () => {
    const e = await failure(start('load-fails'));
    expect(e.code).toBe('MODEL_UNAVAILABLE');
    expect(e.message).toMatch(/could not be started: .*MODEL_FILE_TAMPERED: model\.onnx is not the file the manifest pins/);
  });

  it('hangs: stopped once the request time passes (MODEL_TIMEOUT)', async () => {
    const client = await start('hang');
    const t0 = performance.now();
    const e = await failure(client.embed(['a'], { timeoutMs: 300 }));
    expect(e.code).toBe('MODEL_TIMEOUT');
    expect(e.message).toMatch(/did not answer in time and was stopped/);
    expect(performance.now() - t0).toBeLessThan(30_000);
    await client.stop();
  });

  it('crashes: MODEL_UNAVAILABLE naming how it ended', async () => {
    const client = await start('crash');
    const e = await failure(client.embed(['a'], { timeoutMs: 30_000 }));
    expect(e.code).toBe('MODEL_UNAVAILABLE');
    expect(e.message).toMatch(/exit|crash/i);
    await client.stop();
  });

  it.each([
    ['wrong-dims', /a vector of 3 dimensions; its manifest says 4/],
    ['not-finite', /not a finite number/],
  ] as const)('answers what its manifest does not allow (%s): MODEL_OUTPUT_INVALID, stopped', async (mode, message) => {
    const client = await start(mode);
    const e = await failure(client.embed(['a'], { timeoutMs: 30_000 }));
    // NaN does not survive MessagePack → JSON Schema as a number: refused by the schema or by the check.
    expect(['MODEL_OUTPUT_INVALID', 'MODEL_UNAVAILABLE']).toContain(e.code);
    if (e.code === 'MODEL_OUTPUT_INVALID') expect(e.message).toMatch(message);
    await client.stop();
  });

  it('a tampered model plugin is refused before it runs (its registered tree hash)', async () => {
    const { model } = await addModel(plugins.dir('ok'));
    appendFileSync(join(plugins.dir('ok'), 'main.js'), '\n// changed after registration\n');
    const e = await failure(ModelClient.start(model, { logger: silentLogger }));
    expect(e.code).toBe('MODEL_UNAVAILABLE');
    expect(e.message).toMatch(/PLUGIN_TAMPERED|tampered|changed/i);
  });
});

describe('a real model plugin whose model does not fit (the ONNX runner)', () => {
  it('a corrupt network: MODEL_CORRUPT from the runner, the session not started', async () => {
    const dir = modelDir(
      { 'model.onnx': new Uint8Array([1, 2, 3, 4]), 'tokenizer.json': JSON.stringify(tokenizerJson()) },
      { task: 'embed', dimensions: 4, max_tokens: 16 },
    );
    const { model } = await addModel(dir, { runnerDir: RUNNER });
    const e = await failure(ModelClient.start(model, { logger: silentLogger }));
    expect(e.code).toBe('MODEL_UNAVAILABLE');
    expect(e.message).toMatch(/not an ONNX model ONNX Runtime can load/);
  });

  it('inputs a text model does not take: MODEL_MISMATCH naming them', async () => {
    const w = embedderWeights(4);
    const dir = embedderDir(w, {}, embedderModel(w, { ids: 'tokens', mask: 'attention_mask' }));
    const { model } = await addModel(dir, { runnerDir: RUNNER });
    const e = await failure(ModelClient.start(model, { logger: silentLogger }));
    expect(e.message).toMatch(/the model's inputs are .*tokens.*missing input_ids/);
  });

  it('vectors of other dimensions than the manifest says: MODEL_MISMATCH at load', async () => {
    const dir = embedderDir(embedderWeights(4), { dimensions: 6 });
    const { model } = await addModel(dir, { runnerDir: RUNNER });
    const e = await failure(ModelClient.start(model, { logger: silentLogger }));
    expect(e.message).toMatch(/MODEL_MISMATCH|dimensions/);
  });

  it('a registered model whose directory is gone: the answer says so, retrieval goes on', async () => {
    const { model } = await addModel(embedderDir(embedderWeights(4)), { runnerDir: RUNNER });
    rmSync(model.plugin.dir, { recursive: true, force: true });
    const layer = new SemanticLayer(silentLogger);
    const seen: unknown[] = [];
    const repo = { root: '/nowhere', corpus: 'c', store: { vectorModels: () => [], getFile: () => undefined } };
    const answer = await layer.call('get_context', { query: 'x' }, [repo], {
      answer: async (extras) => (seen.push(extras), 'answer'),
      shortlist: async () => [],
    });
    expect(answer).toBe('answer');
    expect(JSON.stringify(seen[0])).toMatch(/cannot be loaded from .*register it again/);
    await layer.close();
  });
});
