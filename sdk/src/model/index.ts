/**
 * @travsr/sdk/model — the model directory format of Travsr's semantic layer, shared by the
 * model runner (inside a model plugin) and the host (which turns a model directory into a model
 * plugin): `travsr-model.json` read and checked ({@link readModelManifest}), the errors a model
 * fails with ({@link ModelError}), and the plugin directory a model is served from
 * ({@link assembleModelPlugin}). A model plugin's entry point calls `runModel` of `@travsr/sdk`.
 */
export { ModelError, type ModelErrorCode } from './model-error.js';
export { MODEL_MANIFEST_FILE, readModelManifest, type ModelManifest, type ModelTask } from './model-manifest.js';
export { assembleModelPlugin, modelPluginManifest, RUNNER_DIR, RUNNER_ENTRY } from './model-plugin.js';
