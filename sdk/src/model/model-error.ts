import { TravsrError } from '@travsr/protocol';

/** Why a model cannot be used. Every code names what to do in its message. */
export type ModelErrorCode =
  /** `travsr-model.json` is missing, not JSON, or not a model manifest. */
  | 'MODEL_MANIFEST_INVALID'
  /** A file the manifest names is not in the model directory. */
  | 'MODEL_FILE_MISSING'
  /** A file's SHA-256 is not the one the manifest pins: changed since the model was packed. */
  | 'MODEL_FILE_TAMPERED'
  /** The ONNX file or the tokenizer cannot be loaded. */
  | 'MODEL_CORRUPT'
  /** The model does not fit its manifest or its task: input names, output shape, dimensions. */
  | 'MODEL_MISMATCH'
  /** Running the model failed, or it was asked for what its task does not do. */
  | 'MODEL_RUN_FAILED';

/** A model directory that cannot be loaded or run; `code` says which check failed. */
export class ModelError extends TravsrError {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
