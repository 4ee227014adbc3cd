export { ModelError, type ModelErrorCode } from './model-error.js';
export { MODEL_MANIFEST_FILE, readModelManifest, type ModelManifest, type ModelTask } from './model-manifest.js';
export { pooledVectors, unitLength } from './pooling.js';
export { TextModel, type TextModelOptions } from './text-model.js';
export { configureRuntime, type RuntimeOptions } from './runtime.js';
