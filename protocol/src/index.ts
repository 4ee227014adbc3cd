/**
 * @travsr/protocol — the wire format between the Travsr host and its analyzer plugins.
 * No Node.js-only APIs beyond Buffer (and `createRequire`, to load ajv on demand); no internal
 * dependencies. See SPEC.md.
 */
export * from './version.js';
export * from './errors.js';
export { encodeFrame, FrameDecoder, type FrameDecoderOptions } from './frame/codec.js';
export { packValue, unpackValue } from './frame/msgpack.js';
export * from './schema/kinds.js';
// The schema values come from the generated copies (no TypeBox at run time), their types from
// the TypeBox definitions they were generated from.
export * from './schema/generated/schemas.js';
export type { VName, Range, Node, Edge, UnresolvedRef, Diagnostic } from './schema/graph.js';
export type {
  RequestId,
  RequestEnvelope,
  ResponseEnvelope,
  NotificationEnvelope,
  Envelope,
  HelloParams,
  Capabilities,
  HelloResult,
  InitializeParams,
  UnavailablePhase,
  InitializeResult,
  AnalyzeFile,
  AnalyzeParams,
  AnalyzeResult,
  GraphFileParams,
  EmbedParams,
  EmbedResult,
  ScoreParams,
  ScoreResult,
  CancelParams,
  PingParams,
  PingResult,
  ProgressParams,
  LogParams,
  MethodSpec,
  MethodName,
} from './schema/messages.js';
export type { RequestMethod, NotificationMethod, ParamsOf, ResultOf } from './schema/method-types.js';
export type { Constraints, ModelInfo, PluginManifest } from './schema/manifest.js';
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
