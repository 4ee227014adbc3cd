import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ModelError } from './model-error.js';
import { readModelManifest, type ModelManifest } from './model-manifest.js';

/** Where a model plugin keeps the runner (relative to the plugin directory). */
export const RUNNER_DIR = 'runner';
/** The runner's entry point, relative to the plugin directory. */
export const RUNNER_ENTRY = `${RUNNER_DIR}/runner.mjs`;

/** The `travsr-plugin.json` of the model plugin serving `manifest`. */
export function modelPluginManifest(manifest: ModelManifest): Record<string, unknown> {
  return {
    id: manifest.id,
    version: manifest.version,
    kind: 'model',
    description: `${manifest.task === 'embed' ? 'Embedding model' : 'Cross-encoder'} ${manifest.id} ${manifest.version} (ONNX)`,
    languages: [],
    extensions: [],
    entrypoint: { runtime: 'node', path: RUNNER_ENTRY },
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false, resources: { memoryMiB: 2048 } },
    model: {
      task: manifest.task,
      ...(manifest.dimensions !== undefined ? { dimensions: manifest.dimensions } : {}),
      maxTokens: manifest.maxTokens,
      licence: manifest.license,
    },
  };
}

/**
 * Makes the model plugin of the model in `modelDir` in `outDir` (replaced): its
 * travsr-plugin.json (kind `model`), the model's files as its manifest pins them, and the runner
 * from `runnerDir`. The result is an ordinary plugin directory: the host runs it in the sandbox
 * like an analyzer, `travsr plugin pack` makes it a registry artifact. The model is checked first
 * (manifest, hashes) unless the caller read its `manifest` already: a {@link ModelError} says why it
 * cannot be used.
 */
export function assembleModelPlugin(
  modelDir: string,
  outDir: string,
  runnerDir: string,
  manifest: ModelManifest = readModelManifest(modelDir),
): ModelManifest {
  if (!existsSync(join(runnerDir, 'runner.mjs')))
    throw new ModelError(
      'MODEL_FILE_MISSING',
      `${runnerDir} holds no runner.mjs: the model runner (@travsr/plugin-model-onnx) is not built; run npm run build`,
    );
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, RUNNER_DIR), { recursive: true });
  try {
    for (const file of ['travsr-model.json', ...Object.keys(manifest.sha256)]) copyFileSync(join(modelDir, file), join(tmp, file));
    for (const file of readdirSync(runnerDir)) copyFileSync(join(runnerDir, file), join(tmp, RUNNER_DIR, file));
    writeFileSync(join(tmp, 'travsr-plugin.json'), `${JSON.stringify(modelPluginManifest(manifest), null, 2)}\n`);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(dirname(outDir), { recursive: true });
    renameSync(tmp, outDir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return manifest;
}
