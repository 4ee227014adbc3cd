/**
 * @travsr/protocol — the wire format between the Travsr host and its analyzer plugins.
 * No Node.js-only APIs beyond Buffer; no internal dependencies. See SPEC.md.
 */
export * from './version.js';
export * from './errors.js';
export { encodeFrame, FrameDecoder, type FrameDecoderOptions } from './frame/codec.js';
export { packValue, unpackValue } from './frame/msgpack.js';
export * from './schema/graph.js';
export * from './schema/messages.js';
export * from './schema/manifest.js';
export {
  assertSchema,
  assertEnvelope,
  assertParams,
  assertResult,
  parseManifest,
  compileSchema,
  describeSchemaErrors,
} from './schema/validate.js';
export { canonicalVName, nodeId, formatVName, type NodeId } from './graph/vname.js';
export { pprWeight } from './graph/edge-weight.js';
