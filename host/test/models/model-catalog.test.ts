import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embedderDir, embedderWeights } from '@travsr/plugin-model-onnx/testing';
import { readLangToml, writeLangToml } from '../../src/catalog/lang-toml.js';
import { addModel, listModels, modelKey, registeredModel, removeModel } from '../../src/models/model-catalog.js';
import { SemanticLayer } from '../../src/models/semantic-layer.js';
import type { ToolCallExtras } from '../../src/tools/tool-runner.js';
import { silentLogger } from '../../src/log/logger.js';

/** A runner directory as the build makes one (the catalog only copies it). */
function runnerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'runner-'));
  writeFileSync(join(dir, 'runner.mjs'), '// runner\n');
  writeFileSync(join(dir, 'ort-wasm-simd-threaded.wasm'), 'wasm');
  return dir;
}

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e as { code: string }).code,
  );

describe('the model catalog', () => {
  it('makes a model directory a model plugin under ~/.travsr/models and registers it for its task', async () => {
    const { model, madeFrom } = await addModel(embedderDir(embedderWeights(4)), { runnerDir: runnerDir() });
    expect(madeFrom).toBeDefined();
    expect(model.plugin.dir).toBe(join(process.env.TRAVSR_HOME!, 'models', 'test-model-1.0.0'));
    expect(existsSync(join(model.plugin.dir, 'runner', 'runner.mjs'))).toBe(true);
    expect(existsSync(join(model.plugin.dir, 'model.onnx'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(model.plugin.dir, 'travsr-plugin.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ kind: 'model', languages: [], model: { task: 'embed', dimensions: 4, licence: 'Apache-2.0' } });
    expect(model.key).toBe(modelKey('test-model', '1.0.0', model.treeHash));
    expect(model.key).toMatch(/^test-model@1\.0\.0\+[0-9a-f]{12}$/);
    expect(readLangToml().models).toEqual({ embed: 'test-model' });
    expect(listModels()).toEqual([{ task: 'embed', id: 'test-model', version: '1.0.0', dir: model.plugin.dir, registered: true }]);
    expect((await registeredModel('embed'))?.key).toBe(model.key);
    expect(await registeredModel('rerank')).toBeUndefined();
  });

  it('refuses a directory that is neither, a broken model, an analyzer, and a missing runner — each with its code', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'empty-'));
    expect(await codeOf(addModel(empty, { runnerDir: runnerDir() }))).toBe('MODEL_DIR_INVALID');
    const tampered = embedderDir(embedderWeights(4));
    writeFileSync(join(tampered, 'model.onnx'), 'not the pinned bytes');
    const e = await addModel(tampered, { runnerDir: runnerDir() }).catch((x: unknown) => x as Error & { code: string });
    expect(e).toMatchObject({ code: 'MODEL_DIR_INVALID' });
    expect((e as Error).message).toMatch(/model\.onnx/);
    const noRunner = mkdtempSync(join(tmpdir(), 'no-runner-'));
    expect(await codeOf(addModel(embedderDir(embedderWeights(4)), { runnerDir: noRunner }))).toBe('MODEL_DIR_INVALID');
    const analyzer = mkdtempSync(join(tmpdir(), 'analyzer-'));
    mkdirSync(join(analyzer, 'dist'));
    writeFileSync(join(analyzer, 'dist', 'main.js'), '');
    writeFileSync(
      join(analyzer, 'travsr-plugin.json'),
      JSON.stringify({
        id: 'lang-x',
        version: '1.0.0',
        languages: ['x'],
        extensions: ['.x'],
        entrypoint: { runtime: 'node', path: 'dist/main.js' },
        protocolVersions: ['1'],
        constraints: { network: false, ipc: 'none', hostApi: false },
      }),
    );
    expect(await codeOf(addModel(analyzer))).toBe('MODEL_DIR_INVALID');
  });

  it('refuses a model whose version would name a directory elsewhere', async () => {
    const dir = embedderDir(embedderWeights(4), { version: '0/../../../escape' });
    const e = await addModel(dir, { runnerDir: runnerDir() }).catch((x: unknown) => x as Error & { code: string });
    expect(e).toMatchObject({ code: 'MODEL_DIR_INVALID' });
    expect((e as Error).message).toMatch(/\/version must match pattern/);
  });

  it('a [models] entry whose plugin is gone is left out, not an error', async () => {
    const { model } = await addModel(embedderDir(embedderWeights(4)), { runnerDir: runnerDir() });
    const reg = readLangToml();
    delete reg.plugins[model.plugin.manifest.id];
    writeLangToml({ ...reg, models: { embed: model.plugin.manifest.id } });
    expect(readLangToml().models).toBeUndefined();
    expect(await registeredModel('embed')).toBeUndefined();
  });

  it('remove unregisters by task or id and deletes only the plugin it made', async () => {
    const { model } = await addModel(embedderDir(embedderWeights(4)), { runnerDir: runnerDir() });
    expect(removeModel('nothing')).toEqual([]);
    expect(removeModel('test-model').map((m) => m.task)).toEqual(['embed']);
    expect(existsSync(model.plugin.dir)).toBe(false);
    expect(readLangToml().plugins['test-model']).toBeUndefined();
    expect(await registeredModel('embed')).toBeUndefined();
  });
});

describe('SemanticLayer without running a model', () => {
  const repo = (models: string[]) => ({
    root: '/nowhere',
    corpus: 'c',
    store: { vectorModels: () => models.map((model) => ({ model, dim: 4, count: 1 })), getFile: () => undefined },
  });
  /** The extras each tool run got. */
  const recorded = () => {
    const seen: ToolCallExtras[] = [];
    const run = {
      answer: async (extras: ToolCallExtras) => (seen.push(extras), 'answer'),
      shortlist: async (extras: ToolCallExtras) => (seen.push(extras), []),
    };
    return { seen, run };
  };

  it('only runs the tool for other tools, and without a registered model', async () => {
    removeModel('embed');
    const layer = new SemanticLayer(silentLogger);
    const r = recorded();
    expect(await layer.call('get_callers', { symbol: 'x' }, [repo([])], r.run)).toBe('answer');
    expect(await layer.call('get_context', { query: 'x' }, [repo([])], r.run)).toBe('answer');
    expect(r.seen).toEqual([{}, {}]);
  });

  it('with a model but no vectors of it: says so without starting the model', async () => {
    const { model } = await addModel(embedderDir(embedderWeights(4)), { runnerDir: runnerDir() });
    const layer = new SemanticLayer(silentLogger);
    const r = recorded();
    await layer.call('get_context', { query: 'x' }, [repo([])], r.run);
    await layer.call('get_context', { query: 'x' }, [repo(['old@1'])], r.run);
    expect(r.seen[0]!.queryVector).toBeUndefined();
    expect(r.seen[0]!.semantic?.vector?.note).toMatch(/no vectors in this repository/);
    expect(r.seen[1]!.semantic?.vector?.note).toContain(`made by old@1, not by the registered ${model.key}`);
    await layer.close();
  });
});
