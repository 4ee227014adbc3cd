// Benchmark `embed` (issue 21): the ONNX model runner (plugins/model-onnx) in process, with the
// test models its tests build (a transformer-shaped embedder: token embeddings, a dense layer,
// tanh, the attention mask; a cross-encoder scoring pairs) and their WordPiece tokenizer:
// model load (hashes checked, probe run), embedding throughput in definitions per second for
// definition-sized texts (skeleton and body prefix, up to 128 tokens) at 64 and 384 dimensions,
// and the time to score a 50-candidate shortlist. The numbers are the runner's and the runtime's
// (onnxruntime-web, one thread); a real model's layers cost more per token.
import { rmSync } from 'node:fs';
import { TextModel } from '../../plugins/model-onnx/dist/index.js';
import {
  VOCAB,
  crossEncoderModel,
  crossEncoderWeights,
  embedderDir,
  embedderWeights,
  modelDir,
  tokenizerJson,
} from '../../plugins/model-onnx/dist/testing/model-fixtures.js';
import { log, percentile, prng, row } from './common.js';

export const name = 'embed';
export const title = 'model runner (test models)';

const DEFINITIONS = 1000;
const SHORTLIST = 50;
const WORDS = VOCAB.filter((w) => !w.startsWith('[') && !w.startsWith('##'));

function definitionTexts(count, seed) {
  const rand = prng(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 40 + Math.floor(rand() * 80) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '),
  );
}

export async function run() {
  const rows = [];
  const texts = definitionTexts(DEFINITIONS, 21);
  for (const dims of [64, 384]) {
    log(`embed: ${DEFINITIONS} definitions, ${dims} dimensions…`);
    const dir = embedderDir(embedderWeights(dims), { max_tokens: 128 });
    try {
      const t0 = performance.now();
      const model = await TextModel.load(dir);
      const loadMs = performance.now() - t0;
      const t1 = performance.now();
      const vectors = await model.embed(texts, 16);
      const embedS = (performance.now() - t1) / 1000;
      await model.close();
      if (vectors.length !== texts.length) throw new Error(`embedded ${vectors.length} of ${texts.length} texts`);
      rows.push(
        row(title, `embedder, ${dims} dimensions: load (manifest, hashes, probe run)`, loadMs, 'ms'),
        row(title, `embedder, ${dims} dimensions: throughput (40–120 words each, batches of 16)`, DEFINITIONS / embedS, 'definitions/s'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  log(`embed: a cross-encoder scoring ${SHORTLIST} candidates…`);
  const dir = modelDir(
    { 'model.onnx': crossEncoderModel(crossEncoderWeights('cache')), 'tokenizer.json': JSON.stringify(tokenizerJson()) },
    { task: 'rerank', max_tokens: 256 },
  );
  try {
    const model = await TextModel.load(dir);
    const candidates = definitionTexts(SHORTLIST, 22);
    const times = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await model.score('why is the cache entry stale after evict', candidates);
      times.push(performance.now() - t);
    }
    await model.close();
    rows.push(row(title, `cross-encoder: score a shortlist of ${SHORTLIST}, p50 of 10`, percentile(times, 50), 'ms'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
