import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { ModelError } from './model-error.js';

/** The file in a model directory that describes it. */
export const MODEL_MANIFEST_FILE = 'travsr-model.json';

/** What a model does: embed texts into vectors, or score (query, candidate) pairs. */
export type ModelTask = 'embed' | 'rerank';

/**
 * A model directory's manifest (`travsr-model.json`), as read: what the model is, what it
 * needs and the SHA-256 of every file it is made of.
 *
 * ```json
 * { "id": "code-minilm", "version": "1.0.0", "task": "embed", "dimensions": 384,
 *   "max_tokens": 256, "pooling": "mean", "license": "Apache-2.0",
 *   "files": { "model": "model.onnx", "tokenizer": "tokenizer.json" },
 *   "sha256": { "model.onnx": "…", "tokenizer.json": "…" } }
 * ```
 */
export interface ModelManifest {
  id: string;
  version: string;
  task: ModelTask;
  /** Length of the vectors an embedder writes (embed only). */
  dimensions?: number;
  /** Tokens per input (a pair's two texts together); longer inputs are cut to this. */
  maxTokens: number;
  /** How token vectors become one vector (embed only): their mean over the attention mask, or the first token's. */
  pooling: 'mean' | 'cls';
  license: string;
  files: { model: string; tokenizer: string; tokenizerConfig?: string };
  /** Every file of the model by its name in the directory. */
  sha256: Record<string, string>;
}

const FILE_NAME = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' };
const SCHEMA = {
  type: 'object',
  required: ['id', 'version', 'task', 'max_tokens', 'license', 'files', 'sha256'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' },
    // Semver: it names the model plugin and its directory, so no path separators or dots-only parts.
    version: { type: 'string', maxLength: 64, pattern: '^\\d+\\.\\d+\\.\\d+(?:[-+][0-9A-Za-z.+-]+)?$' },
    task: { enum: ['embed', 'rerank'] },
    dimensions: { type: 'integer', minimum: 1, maximum: 65536 },
    max_tokens: { type: 'integer', minimum: 2, maximum: 65536 },
    pooling: { enum: ['mean', 'cls'] },
    license: { type: 'string', minLength: 1, maxLength: 128 },
    description: { type: 'string', maxLength: 4096 },
    files: {
      type: 'object',
      required: ['model', 'tokenizer'],
      additionalProperties: false,
      properties: { model: FILE_NAME, tokenizer: FILE_NAME, tokenizer_config: FILE_NAME },
    },
    sha256: {
      type: 'object',
      minProperties: 1,
      propertyNames: FILE_NAME,
      additionalProperties: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    },
  },
  if: { properties: { task: { const: 'embed' } } },
  then: { required: ['dimensions'] },
} as const;

const validate = new Ajv({ allErrors: true }).compile(SCHEMA);

interface ManifestJson {
  id: string;
  version: string;
  task: ModelTask;
  dimensions?: number;
  max_tokens: number;
  pooling?: 'mean' | 'cls';
  license: string;
  files: { model: string; tokenizer: string; tokenizer_config?: string };
  sha256: Record<string, string>;
}

/**
 * Reads and checks the manifest of the model in `dir`: its shape, that every file it names is
 * pinned by a SHA-256, and that every pinned file is there with that hash. Throws a
 * {@link ModelError}: MODEL_MANIFEST_INVALID, MODEL_FILE_MISSING or MODEL_FILE_TAMPERED.
 */
export function readModelManifest(dir: string): ModelManifest {
  const path = join(dir, MODEL_MANIFEST_FILE);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ModelError(
      'MODEL_MANIFEST_INVALID',
      `${path} cannot be read as JSON (${(e as Error).message}): a model directory holds a travsr-model.json next to its files`,
    );
  }
  if (!validate(json)) {
    const why = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    throw new ModelError('MODEL_MANIFEST_INVALID', `${path} is not a model manifest: ${why}`);
  }
  const m = json as ManifestJson;
  const named = [m.files.model, m.files.tokenizer, ...(m.files.tokenizer_config ? [m.files.tokenizer_config] : [])];
  for (const f of named)
    if (!(f in m.sha256))
      throw new ModelError('MODEL_MANIFEST_INVALID', `${path} names ${f} in "files" but pins no SHA-256 for it in "sha256"`);
  for (const [file, expected] of Object.entries(m.sha256)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, file));
    } catch {
      throw new ModelError('MODEL_FILE_MISSING', `${join(dir, file)} is missing: the model in ${dir} is incomplete; install it again`);
    }
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== expected)
      throw new ModelError(
        'MODEL_FILE_TAMPERED',
        `${join(dir, file)} has SHA-256 ${actual}, its manifest pins ${expected}: the file changed since the model was packed; install the model again`,
      );
  }
  return {
    id: m.id,
    version: m.version,
    task: m.task,
    ...(m.dimensions !== undefined ? { dimensions: m.dimensions } : {}),
    maxTokens: m.max_tokens,
    pooling: m.pooling ?? 'mean',
    license: m.license,
    files: {
      model: m.files.model,
      tokenizer: m.files.tokenizer,
      ...(m.files.tokenizer_config ? { tokenizerConfig: m.files.tokenizer_config } : {}),
    },
    sha256: { ...m.sha256 },
  };
}
