import { TravsrError } from '@travsr/protocol';

/** Why the semantic layer cannot use a model. Every message says what to do. */
export type ModelChannelErrorCode =
  /** No model is registered for the task (`travsr model add`, `travsr rerank install`). */
  | 'MODEL_NOT_REGISTERED'
  /** The directory given is neither a model plugin nor a model directory. */
  | 'MODEL_DIR_INVALID'
  /** A model directory needs the runner to become a plugin, and this installation has none. */
  | 'MODEL_RUNNER_MISSING'
  /** The model plugin could not be started or loaded (tampered, corrupt, mismatched, crashed). */
  | 'MODEL_UNAVAILABLE'
  /** The model answered with vectors or scores that do not fit its manifest. */
  | 'MODEL_OUTPUT_INVALID'
  /** The model did not answer in time. */
  | 'MODEL_TIMEOUT';

/** A model of the semantic layer that cannot be used; `code` says why. */
export class ModelChannelError extends TravsrError {
  override readonly name = 'ModelChannelError';
  constructor(
    readonly code: ModelChannelErrorCode,
    message: string,
  ) {
    super(message);
  }
}
