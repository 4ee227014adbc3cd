// Real ONNX models and tokenizers made for the tests: small transformer-shaped graphs (token
// embeddings, a dense layer, an activation, the attention mask applied) written with onnx-proto,
// a WordPiece tokenizer.json made for their vocabulary, and model directories with a manifest
// that pins every file's SHA-256. `reference*` compute the same numbers in plain JavaScript.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/** The vocabulary of the test tokenizer: special tokens first, then words and a few word pieces. */
export const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'parse',
  '##r',
  'http',
  'date',
  'cache',
  'entry',
  'evict',
  'token',
  'verify',
  'user',
  'session',
  'expire',
  '_',
  '.',
  '(',
  ')',
  'def',
  'the',
  'a',
  // Words no test repository's code uses, for questions that share no word with it.
  'purge',
  'outdated',
  'timestamp',
  'decode',
];
const id = (w: string) => VOCAB.indexOf(w);

/** A Hugging Face tokenizer.json: BERT normalizer and pre-tokenizer, WordPiece, [CLS] a [SEP] b [SEP]. */
export function tokenizerJson(): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map((content, i) => ({
      id: i,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', id('[SEP]')], cls: ['[CLS]', id('[CLS]')] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCAB.map((w, i) => [w, i])),
    },
  };
}

/** Deterministic weights in [-1, 1). */
export function weights(n: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1;
  return Float32Array.from({ length: n }, () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 2 ** 32) * 2 - 1;
  });
}

const tensor = (name: string, dims: number[], values: Float32Array | BigInt64Array, dataType = FLOAT) => ({
  name,
  dims,
  dataType,
  rawData: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)),
});
const io = (name: string, elemType: number, dims: (number | string)[]) => ({
  name,
  type: {
    tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } },
  },
});
const node = (opType: string, input: string[], output: string[], attribute: object[] = []) => ({ opType, input, output, attribute });

function modelBytes(graph: object): Uint8Array {
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], producerName: 'travsr-tests', graph }),
  ).finish();
}

/** An embedder's weights: token embeddings [vocab, dims] and a dense layer [dims, dims]. */
export interface EmbedderWeights {
  dims: number;
  embeddings: Float32Array;
  dense: Float32Array;
}

export function embedderWeights(dims: number, seed = 7): EmbedderWeights {
  return { dims, embeddings: weights(VOCAB.length * dims, seed), dense: weights(dims * dims, seed + 1) };
}

/**
 * An embedder whose vectors mean something: one dimension per group of words (synonyms), a
 * word of a group embedded along its dimension, every other token (special tokens, unknown
 * words, punctuation) at zero, the dense layer the identity. Texts about the same groups get
 * close vectors whatever their words: `[['evict', 'purge'], ['date', 'timestamp']]` puts
 * "purge outdated" next to `def evict(self, key)`.
 */
export function conceptEmbedderWeights(groups: readonly (readonly string[])[]): EmbedderWeights {
  const dims = groups.length;
  const embeddings = new Float32Array(VOCAB.length * dims);
  groups.forEach((words, g) => {
    for (const w of words) {
      const i = id(w);
      if (i < 0) throw new Error(`${w} is not in the test vocabulary (VOCAB)`);
      embeddings[i * dims + g] = 0.8;
    }
  });
  const dense = new Float32Array(dims * dims);
  for (let i = 0; i < dims; i++) dense[i * dims + i] = 1;
  return { dims, embeddings, dense };
}

/**
 * An embedder: `last_hidden_state = tanh(E[input_ids] · W) * attention_mask`, [batch, tokens, dims].
 * `inputNames` renames its inputs (a model that does not fit a text runner).
 */
export function embedderModel(w: EmbedderWeights, inputNames = { ids: 'input_ids', mask: 'attention_mask' }): Uint8Array {
  const { dims } = w;
  return modelBytes({
    name: 'embedder',
    initializer: [
      tensor('embeddings', [VOCAB.length, dims], w.embeddings),
      tensor('dense', [dims, dims], w.dense),
      tensor('axis2', [1], BigInt64Array.from([2n]), INT64),
    ],
    node: [
      node('Gather', ['embeddings', inputNames.ids], ['h0'], [{ name: 'axis', i: 0, type: onnx.AttributeProto.AttributeType.INT }]),
      node('MatMul', ['h0', 'dense'], ['h1']),
      node('Tanh', ['h1'], ['h2']),
      node('Cast', [inputNames.mask], ['maskf'], [{ name: 'to', i: FLOAT, type: onnx.AttributeProto.AttributeType.INT }]),
      node('Unsqueeze', ['maskf', 'axis2'], ['mask3']),
      node('Mul', ['h2', 'mask3'], ['last_hidden_state']),
    ],
    input: [io(inputNames.ids, INT64, ['batch', 'tokens']), io(inputNames.mask, INT64, ['batch', 'tokens'])],
    output: [io('last_hidden_state', FLOAT, ['batch', 'tokens', dims])],
  });
}

/** What {@link embedderModel} computes for token ids, mean-pooled and scaled to unit length. */
export function referenceEmbedding(w: EmbedderWeights, ids: readonly number[]): number[] {
  const { dims } = w;
  const sum = new Array<number>(dims).fill(0);
  for (const t of ids)
    for (let j = 0; j < dims; j++) {
      let x = 0;
      for (let k = 0; k < dims; k++) x += w.embeddings[t * dims + k]! * w.dense[k * dims + j]!;
      sum[j]! += Math.tanh(x);
    }
  const mean = sum.map((x) => x / ids.length);
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

/** A cross-encoder's weights: token and segment embeddings, and the scoring vector. */
export interface CrossEncoderWeights {
  dims: number;
  embeddings: Float32Array;
  segments: Float32Array;
  scorer: Float32Array;
}

/**
 * A cross-encoder whose score grows with the word `favoured` in the pair: token embeddings are
 * one-hot, the scorer reads the favoured word's dimension, and each token of the second text
 * (segment 1) adds `perCandidateToken` of a favoured word (default half) — so the score is
 * (favoured words) + tokens of the candidate × perCandidateToken, and the model reads
 * token_type_ids.
 */
export function crossEncoderWeights(favoured: string, perCandidateToken = 0.5): CrossEncoderWeights {
  const dims = VOCAB.length;
  const embeddings = new Float32Array(dims * dims);
  for (let i = 0; i < dims; i++) embeddings[i * dims + i] = 1;
  // Segment 1 (the candidate) adds part of a favoured word to each of its tokens.
  const segments = new Float32Array(2 * dims);
  segments[dims + id(favoured)] = perCandidateToken;
  const scorer = new Float32Array(dims);
  scorer[id(favoured)] = 1;
  return { dims, embeddings, segments, scorer };
}

/** `logits = Σ_tokens ((E[ids] + S[types]) * mask) · w`, [batch, 1]. */
export function crossEncoderModel(w: CrossEncoderWeights): Uint8Array {
  const { dims } = w;
  return modelBytes({
    name: 'cross-encoder',
    initializer: [
      tensor('embeddings', [VOCAB.length, dims], w.embeddings),
      tensor('segments', [2, dims], w.segments),
      tensor('scorer', [dims, 1], w.scorer),
      tensor('axis1', [1], BigInt64Array.from([1n]), INT64),
      tensor('axis2', [1], BigInt64Array.from([2n]), INT64),
    ],
    node: [
      node('Gather', ['embeddings', 'input_ids'], ['tok']),
      node('Gather', ['segments', 'token_type_ids'], ['seg']),
      node('Add', ['tok', 'seg'], ['h']),
      node('Cast', ['attention_mask'], ['maskf'], [{ name: 'to', i: FLOAT, type: onnx.AttributeProto.AttributeType.INT }]),
      node('Unsqueeze', ['maskf', 'axis2'], ['mask3']),
      node('Mul', ['h', 'mask3'], ['hm']),
      node('ReduceSum', ['hm', 'axis1'], ['pooled'], [{ name: 'keepdims', i: 0, type: onnx.AttributeProto.AttributeType.INT }]),
      node('MatMul', ['pooled', 'scorer'], ['logits']),
    ],
    input: [
      io('input_ids', INT64, ['batch', 'tokens']),
      io('attention_mask', INT64, ['batch', 'tokens']),
      io('token_type_ids', INT64, ['batch', 'tokens']),
    ],
    output: [io('logits', FLOAT, ['batch', 1])],
  });
}

/** A model directory: the files, and a travsr-model.json pinning each one's SHA-256 (`manifest` overrides fields). */
export function modelDir(files: Record<string, Uint8Array | string>, manifest: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'travsr-model-'));
  const sha256: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) {
    writeFileSync(join(dir, name), bytes);
    sha256[name] = createHash('sha256').update(bytes).digest('hex');
  }
  writeFileSync(
    join(dir, 'travsr-model.json'),
    JSON.stringify({
      id: 'test-model',
      version: '1.0.0',
      license: 'Apache-2.0',
      files: { model: 'model.onnx', tokenizer: 'tokenizer.json' },
      sha256,
      ...manifest,
    }),
  );
  return dir;
}

/** A cross-encoder's model directory (task `rerank`). */
export function crossEncoderDir(w: CrossEncoderWeights, manifest: Record<string, unknown> = {}): string {
  return modelDir(
    { 'model.onnx': crossEncoderModel(w), 'tokenizer.json': JSON.stringify(tokenizerJson()) },
    { id: 'test-reranker', task: 'rerank', max_tokens: 128, ...manifest },
  );
}

/** An embedder's model directory. */
export function embedderDir(w: EmbedderWeights, manifest: Record<string, unknown> = {}, model = embedderModel(w)): string {
  return modelDir(
    { 'model.onnx': model, 'tokenizer.json': JSON.stringify(tokenizerJson()) },
    { task: 'embed', dimensions: w.dims, max_tokens: 16, pooling: 'mean', ...manifest },
  );
}

/** Token ids of `words` as the test tokenizer gives them, with [CLS] and [SEP]. */
export function idsOf(...words: string[]): number[] {
  return [id('[CLS]'), ...words.map(id), id('[SEP]')];
}
