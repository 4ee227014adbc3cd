// Entry point of a model plugin (bundled into runner/runner.mjs of every model plugin
// directory, see model-plugin.ts): serves the model in the directory above it over the
// protocol — `embed` for an embedding model, `score` for a cross-encoder — on ONNX Runtime's
// WebAssembly build, whose files lie next to this bundle.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runModel } from '@travsr/sdk';
import { TextModel } from './text-model.js';

const runnerDir = dirname(fileURLToPath(import.meta.url));
const modelDir = join(runnerDir, '..');
// Who this plugin is comes from its travsr-plugin.json; the model itself (its manifest, the
// hashes of its files, its inputs and outputs) is checked when the host initializes the session,
// so that a broken model is reported to the host with its reason instead of a process that dies.
const plugin = JSON.parse(readFileSync(join(modelDir, 'travsr-plugin.json'), 'utf8')) as {
  id: string;
  version: string;
  model?: { task?: string };
};
let model: TextModel | undefined;

const loaded = (): TextModel => {
  if (!model) throw new Error('the model is not loaded');
  return model;
};

await runModel({
  id: plugin.id,
  version: plugin.version,
  async load() {
    const loaded = await TextModel.load(modelDir, { wasmDir: runnerDir });
    if (loaded.manifest.task !== plugin.model?.task) {
      await loaded.close();
      throw new Error(
        `travsr-model.json says task ${loaded.manifest.task}, travsr-plugin.json ${String(plugin.model?.task)}: assemble the plugin again`,
      );
    }
    model = loaded;
  },
  ...(plugin.model?.task === 'embed'
    ? { embed: (texts: readonly string[]) => loaded().embed(texts) }
    : { score: (query: string, candidates: readonly string[]) => loaded().score(query, candidates) }),
  async shutdown() {
    await model?.close();
  },
});
