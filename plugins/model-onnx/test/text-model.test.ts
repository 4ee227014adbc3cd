import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelError, TextModel } from '../src/index.js';
import {
  crossEncoderModel,
  crossEncoderWeights,
  embedderDir,
  embedderModel,
  embedderWeights,
  idsOf,
  modelDir,
  referenceEmbedding,
  tokenizerJson,
} from '../src/testing/model-fixtures.js';

const dirs: string[] = [];
const track = (d: string) => (dirs.push(d), d);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function loadError(dir: string): Promise<ModelError> {
  const e = await TextModel.load(dir).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ModelError);
  return e as ModelError;
}

describe('TextModel: an embedder', () => {
  const w = embedderWeights(8);

  it('embeds texts as the network computes them: token vectors mean-pooled over the mask, unit length', async () => {
    const model = await TextModel.load(track(embedderDir(w)));
    const [a, b] = await model.embed(['parse http date', 'Cache entry evict']);
    expect([...a!].map((x) => +x.toFixed(5))).toEqual(referenceEmbedding(w, idsOf('parse', 'http', 'date')).map((x) => +x.toFixed(5)));
    expect([...b!].map((x) => +x.toFixed(5))).toEqual(referenceEmbedding(w, idsOf('cache', 'entry', 'evict')).map((x) => +x.toFixed(5)));
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    await model.close();
  });

  it('gives a text the same vector alone and padded in a batch with a longer one', async () => {
    const model = await TextModel.load(track(embedderDir(w)));
    const [alone] = await model.embed(['verify token']);
    const [inBatch] = await model.embed(['verify token', 'the user session expire cache entry evict parse date'], 2);
    for (let i = 0; i < 8; i++) expect(inBatch![i]).toBeCloseTo(alone![i]!, 5);
    await model.close();
  });

  it('cuts an input to max_tokens, keeping its closing [SEP]', async () => {
    const model = await TextModel.load(track(embedderDir(w, { max_tokens: 4 })));
    const [cut] = await model.embed(['parse http date cache entry']);
    const expected = referenceEmbedding(w, [...idsOf('parse', 'http')]);
    for (let i = 0; i < 8; i++) expect(cut![i]).toBeCloseTo(expected[i]!, 5);
    await model.close();
  });

  it('embeds more texts than one batch, in order', async () => {
    const model = await TextModel.load(track(embedderDir(w)));
    const texts = ['parse', 'http', 'date', 'cache', 'entry'];
    const batched = await model.embed(texts, 2);
    const one = await Promise.all(texts.map(async (t) => (await model.embed([t]))[0]!));
    expect(batched.map((v) => [...v].map((x) => +x.toFixed(5)))).toEqual(one.map((v) => [...v].map((x) => +x.toFixed(5))));
    await expect(model.score('q', ['c'])).rejects.toMatchObject({ code: 'MODEL_RUN_FAILED' });
    await model.close();
  });
});

describe('TextModel: a cross-encoder', () => {
  it('scores (query, candidate) pairs as the model dictates, reading the token types', async () => {
    const dir = track(
      modelDir(
        { 'model.onnx': crossEncoderModel(crossEncoderWeights('cache')), 'tokenizer.json': JSON.stringify(tokenizerJson()) },
        { task: 'rerank', max_tokens: 32 },
      ),
    );
    const model = await TextModel.load(dir);
    const candidates = ['parse http date', 'cache entry evict cache', 'verify token', 'evict cache entry'];
    const scores = await model.score('why is the cache entry stale', candidates);
    // 1 favoured word in the query; each candidate adds its own, and half a word per token
    // of it (its words and the closing [SEP]).
    expect(scores).toEqual([1 + 2, 1 + 2 + 2.5, 1 + 1.5, 1 + 1 + 2]);
    const order = candidates.map((c, i) => [c, scores[i]!] as const).sort((a, b) => b[1] - a[1]);
    expect(order.map(([c]) => c)).toEqual(['cache entry evict cache', 'evict cache entry', 'parse http date', 'verify token']);
    await expect(model.embed(['x'])).rejects.toMatchObject({ code: 'MODEL_RUN_FAILED' });
    await model.close();
  });
});

describe('TextModel: models that cannot be used', () => {
  const w = embedderWeights(8);

  it('refuses a file that changed since the model was packed', async () => {
    const dir = track(embedderDir(w));
    const bytes = readFileSync(join(dir, 'model.onnx'));
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(join(dir, 'model.onnx'), bytes);
    const e = await loadError(dir);
    expect(e.code).toBe('MODEL_FILE_TAMPERED');
    expect(e.message).toMatch(/model\.onnx has SHA-256 [0-9a-f]{64}, its manifest pins [0-9a-f]{64}.*install the model again/);
  });

  it('refuses a missing file and a manifest that is not one', async () => {
    const dir = track(embedderDir(w));
    rmSync(join(dir, 'tokenizer.json'));
    expect((await loadError(dir)).code).toBe('MODEL_FILE_MISSING');
    const noDims = track(embedderDir(w, { dimensions: undefined }));
    const e = await loadError(noDims);
    expect(e.code).toBe('MODEL_MANIFEST_INVALID');
    expect(e.message).toMatch(/dimensions/);
    writeFileSync(join(noDims, 'travsr-model.json'), '{ not json');
    expect((await loadError(noDims)).code).toBe('MODEL_MANIFEST_INVALID');
  });

  it('refuses a model whose vectors do not have the dimensions its manifest says', async () => {
    const e = await loadError(track(embedderDir(w, { dimensions: 16 })));
    expect(e.code).toBe('MODEL_MISMATCH');
    expect(e.message).toMatch(/shape \[1, 3, 8\]; its manifest says vectors of 16 dimensions/);
  });

  it('refuses a model whose inputs are not a text model’s', async () => {
    const model = embedderModel(w, { ids: 'ids', mask: 'attention_mask' });
    const e = await loadError(track(embedderDir(w, {}, model)));
    expect(e.code).toBe('MODEL_MISMATCH');
    expect(e.message).toMatch(/missing input_ids; unknown ids/);
  });

  it('refuses bytes that are not an ONNX model, and a tokenizer it cannot read', async () => {
    expect((await loadError(track(embedderDir(w, {}, new TextEncoder().encode('not a model'))))).code).toBe('MODEL_CORRUPT');
    const badTokenizer = track(
      modelDir({ 'model.onnx': embedderModel(w), 'tokenizer.json': '{"model": 3}' }, { task: 'embed', dimensions: 8, max_tokens: 16 }),
    );
    expect((await loadError(badTokenizer)).code).toBe('MODEL_CORRUPT');
  });
});
