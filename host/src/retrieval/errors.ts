import { TravsrError } from '@travsr/protocol';

/**
 * Errors of the retrieval algorithms. Each carries a SCREAMING_SNAKE `code`; recognise them by
 * `code`, not `instanceof`. Messages say what happened, why, and what to do.
 */

/** String codes of retrieval errors. */
export const RetrievalErrorCode = {
  /** An edge names a node id at or above the graph's node count. */
  EdgeOutOfRange: 'EDGE_OUT_OF_RANGE',
  /** A seed, a path end point or a root names a node id outside the graph. */
  NodeOutOfRange: 'NODE_OUT_OF_RANGE',
  /** Input arrays disagree in length or hold values the algorithm cannot use (NaN, negative costs, …). */
  InvalidInput: 'INVALID_INPUT',
  /** An option is outside its allowed range. */
  InvalidOption: 'INVALID_OPTION',
} as const;
/** One of {@link RetrievalErrorCode}. */
export type RetrievalErrorCode = (typeof RetrievalErrorCode)[keyof typeof RetrievalErrorCode];

/** An error of a retrieval algorithm: the input or the options it was given cannot be used. */
export class RetrievalError extends TravsrError {
  override readonly name = 'RetrievalError';
  constructor(
    readonly code: RetrievalErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Throws INVALID_OPTION unless `value` is a finite number in [min, max]. */
export function checkRange(name: string, value: number, min: number, max: number, advice = ''): void {
  if (!(value >= min && value <= max))
    throw new RetrievalError(
      RetrievalErrorCode.InvalidOption,
      `${name} is ${value}, outside [${min}, ${max}]; ${advice || `pass a value in that range or leave ${name} out for the default`}`,
    );
}

/** Throws NODE_OUT_OF_RANGE unless `node` is an integer id in [0, nodeCount). */
export function checkNode(what: string, node: number, nodeCount: number): void {
  if (!(Number.isInteger(node) && node >= 0 && node < nodeCount))
    throw new RetrievalError(
      RetrievalErrorCode.NodeOutOfRange,
      `${what} ${node} is not a node of this graph (ids run from 0 to ${nodeCount - 1}); the graph was probably rebuilt since the id was read — look the node up again`,
    );
}
