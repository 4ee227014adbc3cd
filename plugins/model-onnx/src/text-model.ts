import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { ModelError, readModelManifest, type ModelManifest } from '@travsr/sdk/model';
import { pooledVectors } from './pooling.js';
import { configureRuntime, ort, type RuntimeOptions } from './runtime.js';

/** Options of {@link TextModel.load}: the runtime's (process-wide, see {@link configureRuntime}). */
export type TextModelOptions = RuntimeOptions;

/** The inputs a text model may declare; `input_ids` and `attention_mask` are required. */
const REQUIRED_INPUTS = ['input_ids', 'attention_mask'] as const;
const TOKEN_TYPES = 'token_type_ids';

/** What the runner uses of a Hugging Face tokenizer (the package's own declarations do not resolve under `nodenext`). */
interface Tokenizer {
  encode(text: string, options: { text_pair: string | null; return_token_type_ids: true }): { ids: number[]; token_type_ids?: number[] };
}
const TokenizerFromFiles = HfTokenizer as unknown as new (tokenizerJson: object, tokenizerConfig: object) => Tokenizer;

interface Batch {
  feeds: Record<string, ort.Tensor>;
  mask: number[][];
}

/**
 * An ONNX text model loaded from a model directory (see {@link readModelManifest}): the
 * tokenizer from its own `tokenizer.json`, the network on ONNX Runtime (its WebAssembly build, CPU). An embedder
 * turns texts into unit vectors ({@link embed}); a cross-encoder scores (query, candidate)
 * pairs ({@link score}). Loading checks the files' hashes, the model's input names and, with a
 * probe run, its output's shape against the manifest, so a model that does not fit fails at
 * load with a {@link ModelError} rather than at the first real input.
 *
 * @example
 * ```ts
 * const model = await TextModel.load('/home/me/.travsr/models/code-minilm-1.0.0');
 * const [a, b] = await model.embed(['parse an HTTP date', 'def parse_http_date(value):']);
 * await model.close();
 * ```
 */
export class TextModel {
  private constructor(
    readonly manifest: ModelManifest,
    private readonly tokenizer: Tokenizer,
    private readonly session: ort.InferenceSession,
    private readonly output: string,
    private readonly withTokenTypes: boolean,
  ) {}

  /** Loads and checks the model in `dir`. */
  static async load(dir: string, options: TextModelOptions = {}): Promise<TextModel> {
    const manifest = readModelManifest(dir);
    const tokenizer = loadTokenizer(dir, manifest);
    configureRuntime(options);
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(readFileSync(join(dir, manifest.files.model)), {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      });
    } catch (e) {
      throw new ModelError(
        'MODEL_CORRUPT',
        `${join(dir, manifest.files.model)} is not an ONNX model ONNX Runtime can load: ${(e as Error).message}`,
      );
    }
    const missing = REQUIRED_INPUTS.filter((n) => !session.inputNames.includes(n));
    const unknown = session.inputNames.filter((n) => n !== TOKEN_TYPES && !(REQUIRED_INPUTS as readonly string[]).includes(n));
    if (missing.length > 0 || unknown.length > 0) {
      await session.release();
      throw new ModelError(
        'MODEL_MISMATCH',
        `${manifest.id}: the model's inputs are ${session.inputNames.join(', ')}; a text model takes input_ids and attention_mask ` +
          `(and optionally token_type_ids)${missing.length ? `; missing ${missing.join(', ')}` : ''}${unknown.length ? `; unknown ${unknown.join(', ')}` : ''}`,
      );
    }
    const model = new TextModel(manifest, tokenizer, session, session.outputNames[0]!, session.inputNames.includes(TOKEN_TYPES));
    try {
      await model.probe();
    } catch (e) {
      await session.release();
      throw e;
    }
    return model;
  }

  /** Unit vectors of `texts`, in order (task `embed`), `batchSize` texts per run. */
  async embed(texts: readonly string[], batchSize = 16): Promise<Float32Array[]> {
    this.expectTask('embed');
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += batchSize) {
      const batch = this.batch(texts.slice(i, i + batchSize).map((t) => this.encode(t)));
      const result = await this.run(batch);
      out.push(...pooledVectors(result.data as Float32Array, result.dims, batch.mask, this.manifest.pooling));
    }
    return out;
  }

  /** The model's score of each (query, candidate) pair, higher is more relevant (task `rerank`). */
  async score(query: string, candidates: readonly string[], batchSize = 16): Promise<number[]> {
    this.expectTask('rerank');
    const out: number[] = [];
    for (let i = 0; i < candidates.length; i += batchSize) {
      const pairs = candidates.slice(i, i + batchSize).map((c) => this.encode(query, c));
      const result = await this.run(this.batch(pairs));
      const data = result.data as Float32Array;
      const per = data.length / pairs.length;
      // [batch], [batch, 1] or [batch, classes]: the last logit is "relevant".
      for (let b = 0; b < pairs.length; b++) out.push(data[b * per + per - 1]!);
    }
    return out;
  }

  /** Frees the runtime's session. */
  async close(): Promise<void> {
    await this.session.release();
  }

  /** One short input through the model: its output must have the shape the task and the manifest say. */
  private async probe(): Promise<void> {
    const { task, dimensions, id } = this.manifest;
    const probe = task === 'embed' ? this.encode('probe') : this.encode('probe', 'probe');
    const result = await this.run(this.batch([probe]));
    const dims = result.dims;
    if (task === 'embed') {
      const ok = (dims.length === 3 || dims.length === 2) && dims[dims.length - 1] === dimensions;
      if (!ok)
        throw new ModelError(
          'MODEL_MISMATCH',
          `${id}: the model's output ${this.output} has shape [${dims.join(', ')}]; its manifest says vectors of ${dimensions} ` +
            `dimensions ([batch, tokens, ${dimensions}] or [batch, ${dimensions}])`,
        );
    } else if (!(dims.length >= 1 && dims.length <= 2 && dims[0] === 1)) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `${id}: a cross-encoder's output is one score per pair; ${this.output} has shape [${dims.join(', ')}]`,
      );
    }
  }

  private expectTask(task: 'embed' | 'rerank'): void {
    if (this.manifest.task !== task)
      throw new ModelError('MODEL_RUN_FAILED', `${this.manifest.id} is a ${this.manifest.task} model; it cannot ${task}`);
  }

  /** Token ids and types of a text or a pair, cut to the manifest's max_tokens (the last token, a closing marker, kept). */
  private encode(text: string, pair?: string): { ids: number[]; types: number[] } {
    const e = this.tokenizer.encode(text, { text_pair: pair ?? null, return_token_type_ids: true });
    let ids = e.ids;
    let types = e.token_type_ids ?? ids.map(() => 0);
    const max = this.manifest.maxTokens;
    if (ids.length > max) {
      ids = [...ids.slice(0, max - 1), ids[ids.length - 1]!];
      types = [...types.slice(0, max - 1), types[types.length - 1]!];
    }
    return { ids, types };
  }

  /** Inputs padded to the longest, with their attention mask. */
  private batch(inputs: readonly { ids: number[]; types: number[] }[]): Batch {
    const width = Math.max(1, ...inputs.map((i) => i.ids.length));
    const ids = new BigInt64Array(inputs.length * width);
    const mask = new BigInt64Array(inputs.length * width);
    const types = new BigInt64Array(inputs.length * width);
    const maskRows: number[][] = [];
    inputs.forEach((input, b) => {
      const row = new Array<number>(width).fill(0);
      input.ids.forEach((id, t) => {
        ids[b * width + t] = BigInt(id);
        mask[b * width + t] = 1n;
        types[b * width + t] = BigInt(input.types[t] ?? 0);
        row[t] = 1;
      });
      maskRows.push(row);
    });
    const shape = [inputs.length, width];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
    };
    if (this.withTokenTypes) feeds[TOKEN_TYPES] = new ort.Tensor('int64', types, shape);
    return { feeds, mask: maskRows };
  }

  private async run(batch: Batch): Promise<ort.Tensor> {
    let results: ort.InferenceSession.ReturnType;
    try {
      results = await this.session.run(batch.feeds);
    } catch (e) {
      throw new ModelError('MODEL_RUN_FAILED', `${this.manifest.id}: the model failed on its input: ${(e as Error).message}`);
    }
    const out = results[this.output]!;
    if (out.type !== 'float32')
      throw new ModelError('MODEL_MISMATCH', `${this.manifest.id}: the model's output ${this.output} is ${out.type}, not float32`);
    return out;
  }
}

/** The tokenizer of the model in `dir`, from its `tokenizer.json` (and `tokenizer_config.json` when the manifest names one). */
function loadTokenizer(dir: string, manifest: ModelManifest): Tokenizer {
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as object;
  try {
    const config = manifest.files.tokenizerConfig ? read(manifest.files.tokenizerConfig) : {};
    return new TokenizerFromFiles(read(manifest.files.tokenizer), config);
  } catch (e) {
    throw new ModelError(
      'MODEL_CORRUPT',
      `${join(dir, manifest.files.tokenizer)} is not a tokenizer this runner reads (a Hugging Face tokenizer.json): ${(e as Error).message}`,
    );
  }
}
