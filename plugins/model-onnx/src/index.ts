export {
  ModelError,
  MODEL_MANIFEST_FILE,
  readModelManifest,
  type ModelErrorCode,
  type ModelManifest,
  type ModelTask,
} from '@travsr/sdk/model';
export { pooledVectors, unitLength } from './pooling.js';
export { TextModel, type TextModelOptions } from './text-model.js';
export { configureRuntime, type RuntimeOptions } from './runtime.js';
export { builtRunnerDir } from './runner-dir.js';
