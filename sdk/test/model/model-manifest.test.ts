// The model directory format: travsr-model.json checked (shape, pins, hashes) and a model
// directory assembled into a model plugin directory with a runner.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '@travsr/protocol';
import { assembleModelPlugin, readModelManifest, RUNNER_ENTRY } from '../../src/model/index.js';

const sha = (b: string) => createHash('sha256').update(b).digest('hex');

/** A model directory with these files and a manifest pinning them (`fields` override). */
function modelDir(
  fields: Record<string, unknown> = {},
  files: Record<string, string> = { 'model.onnx': 'net', 'tokenizer.json': '{}' },
): string {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-model-'));
  for (const [f, b] of Object.entries(files)) writeFileSync(join(dir, f), b);
  writeFileSync(
    join(dir, 'travsr-model.json'),
    JSON.stringify({
      id: 'm',
      version: '1.0.0',
      task: 'embed',
      dimensions: 8,
      max_tokens: 64,
      license: 'MIT',
      files: { model: 'model.onnx', tokenizer: 'tokenizer.json' },
      sha256: Object.fromEntries(Object.entries(files).map(([f, b]) => [f, sha(b)])),
      ...fields,
    }),
  );
  return dir;
}

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'ok';
};

describe('readModelManifest', () => {
  it('reads a model directory: task, dimensions, max tokens, pooling (mean by default), licence', () => {
    const m = readModelManifest(modelDir());
    expect(m).toMatchObject({ id: 'm', version: '1.0.0', task: 'embed', dimensions: 8, maxTokens: 64, pooling: 'mean', license: 'MIT' });
  });

  it.each([
    ['not JSON', (d: string) => writeFileSync(join(d, 'travsr-model.json'), '{'), 'MODEL_MANIFEST_INVALID'],
    ['a version that is not semver', (d: string) => rewrite(d, { version: '1/../x' }), 'MODEL_MANIFEST_INVALID'],
    ['an embedder without dimensions', (d: string) => rewrite(d, { dimensions: undefined }), 'MODEL_MANIFEST_INVALID'],
    ['a named file without a pin', (d: string) => rewrite(d, { sha256: { 'model.onnx': sha('net') } }), 'MODEL_MANIFEST_INVALID'],
    [
      'a pinned file missing',
      (d: string) => rewrite(d, { sha256: { 'model.onnx': sha('net'), 'tokenizer.json': sha('{}'), 'vocab.txt': sha('v') } }),
      'MODEL_FILE_MISSING',
    ],
    ['a file changed', (d: string) => writeFileSync(join(d, 'model.onnx'), 'other'), 'MODEL_FILE_TAMPERED'],
  ])('refuses %s', (_what, damage, code) => {
    const dir = modelDir();
    damage(dir);
    expect(codeOf(() => readModelManifest(dir))).toBe(code);
  });
});

function rewrite(dir: string, fields: Record<string, unknown>): void {
  const m = JSON.parse(readFileSync(join(dir, 'travsr-model.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'travsr-model.json'), JSON.stringify({ ...m, ...fields }));
}

describe('assembleModelPlugin', () => {
  const runner = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-runner-'));
    writeFileSync(join(dir, 'runner.mjs'), '// runner');
    return dir;
  };

  it('lays out a model plugin: its manifest (kind model, standard tier), the pinned files, the runner', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sdk-out-')), 'plugin');
    assembleModelPlugin(modelDir(), out, runner());
    const manifest = parseManifest(readFileSync(join(out, 'travsr-plugin.json'), 'utf8'));
    expect(manifest).toMatchObject({
      id: 'm',
      kind: 'model',
      languages: [],
      entrypoint: { path: RUNNER_ENTRY },
      model: { task: 'embed', dimensions: 8, maxTokens: 64, licence: 'MIT' },
    });
    expect(manifest.constraints).toMatchObject({ network: false, ipc: 'none', hostApi: false });
    for (const f of ['model.onnx', 'tokenizer.json', 'travsr-model.json', RUNNER_ENTRY]) expect(existsSync(join(out, f))).toBe(true);
  });

  it('replaces an earlier plugin whole, and leaves nothing when the model is refused or the runner missing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sdk-out-')), 'plugin');
    mkdirSync(out);
    writeFileSync(join(out, 'stale.txt'), 'old');
    assembleModelPlugin(modelDir(), out, runner());
    expect(existsSync(join(out, 'stale.txt'))).toBe(false);
    const broken = modelDir();
    writeFileSync(join(broken, 'model.onnx'), 'changed');
    const fresh = join(mkdtempSync(join(tmpdir(), 'sdk-out-')), 'plugin');
    expect(codeOf(() => assembleModelPlugin(broken, fresh, runner()))).toBe('MODEL_FILE_TAMPERED');
    expect(codeOf(() => assembleModelPlugin(modelDir(), fresh, mkdtempSync(join(tmpdir(), 'no-runner-'))))).toBe('MODEL_FILE_MISSING');
    expect(existsSync(fresh)).toBe(false);
  });
});
