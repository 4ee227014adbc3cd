import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DiagnosticSchema, EdgeSchema, NodeSchema, UnresolvedRefSchema } from './graph.js';
import { LOG_LEVELS, stringEnum } from './kinds.js';

/*
 * TypeBox definitions of the messages; like graph.ts, loaded by build tools only (the package
 * uses the precompiled copies in generated/ at run time).
 */

/** Request ids are non-negative integers or short strings, chosen by the sender. */
export const RequestIdSchema = Type.Union([
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  Type.String({ minLength: 1, maxLength: 128 }),
]);
export type RequestId = Static<typeof RequestIdSchema>;

const method = Type.String({ minLength: 1, maxLength: 128 });

export const WireErrorSchema = Type.Object(
  {
    code: Type.Integer(),
    message: Type.String({ maxLength: 65536 }),
    data: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export const RequestEnvelopeSchema = Type.Object(
  {
    kind: Type.Literal('request'),
    id: RequestIdSchema,
    method,
    params: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export const ResponseEnvelopeSchema = Type.Union([
  Type.Object(
    { kind: Type.Literal('response'), id: RequestIdSchema, result: Type.Unknown() },
    { additionalProperties: false, required: ['kind', 'id', 'result'] },
  ),
  Type.Object({ kind: Type.Literal('response'), id: RequestIdSchema, error: WireErrorSchema }, { additionalProperties: false }),
]);
export const NotificationEnvelopeSchema = Type.Object(
  {
    kind: Type.Literal('notification'),
    method,
    params: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
/** Every frame carries exactly one envelope. */
export const EnvelopeSchema = Type.Union([RequestEnvelopeSchema, ResponseEnvelopeSchema, NotificationEnvelopeSchema]);

export interface RequestEnvelope {
  kind: 'request';
  id: RequestId;
  method: string;
  params?: unknown;
}
export type ResponseEnvelope =
  | { kind: 'response'; id: RequestId; result: unknown }
  | { kind: 'response'; id: RequestId; error: { code: number; message: string; data?: unknown } };
export interface NotificationEnvelope {
  kind: 'notification';
  method: string;
  params?: unknown;
}
export type Envelope = RequestEnvelope | ResponseEnvelope | NotificationEnvelope;

const semver = Type.String({ maxLength: 64, pattern: '^\\d+\\.\\d+\\.\\d+(?:[-+][0-9A-Za-z.+-]+)?$' });
const pluginId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)?$' });
const languageId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9+#._-]*$' });

// ---- hello (host → plugin, first frame) ----
export const HelloParamsSchema = Type.Object(
  {
    protocolVersions: Type.Array(Type.String({ maxLength: 16 }), { minItems: 1, maxItems: 16 }),
    host: Type.Object({ name: Type.String({ maxLength: 64 }), version: Type.String({ maxLength: 64 }) }),
    maxFrameBytes: Type.Integer({ minimum: 65536 }),
  },
  { additionalProperties: false },
);
export type HelloParams = Static<typeof HelloParamsSchema>;

export const CapabilitiesSchema = Type.Object(
  {
    /** Analysis phases implemented; at least one for an analyzer, none for a model plugin. */
    phases: Type.Array(stringEnum(['A', 'B'] as const), { maxItems: 2, uniqueItems: true }),
    cancellation: Type.Boolean(),
    progress: Type.Boolean(),
    /**
     * One session may serve several index runs over a repository that changes in between (a
     * daemon keeps it): the plugin notices changed files itself, and `analyze.params.changed`
     * lists them. Without it a session serves one run.
     */
    incremental: Type.Optional(Type.Boolean()),
    /** Model methods served (a model plugin): `embed` for an embedding model, `score` for a cross-encoder. */
    model: Type.Optional(Type.Array(stringEnum(['embed', 'score'] as const), { minItems: 1, maxItems: 2, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type Capabilities = Static<typeof CapabilitiesSchema>;

export const HelloResultSchema = Type.Object(
  {
    protocolVersion: Type.String({ maxLength: 16 }),
    plugin: Type.Object({ id: pluginId, version: semver }, { additionalProperties: false }),
    sdk: Type.Object({ name: Type.String({ maxLength: 64 }), version: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
    capabilities: CapabilitiesSchema,
    /** The plugin's own frame limit; the session uses the smaller of the two. */
    maxFrameBytes: Type.Integer({ minimum: 65536 }),
  },
  { additionalProperties: false },
);
export type HelloResult = Static<typeof HelloResultSchema>;

// ---- initialize ----
export const InitializeParamsSchema = Type.Object(
  {
    /** Absolute path of the repository root as the plugin sees it (inside the sandbox). */
    root: Type.String({ minLength: 1, maxLength: 4096 }),
    /** VName corpus for every node of this session. */
    corpus: Type.String({ maxLength: 512 }),
    /** Plugin options from configuration, opaque to the protocol. */
    options: Type.Optional(Type.Record(Type.String({ maxLength: 128 }), Type.Unknown())),
    /** Phases the host means to ask for in this session (default: all the plugin implements), so a plugin can prepare them. */
    phases: Type.Optional(Type.Array(stringEnum(['A', 'B'] as const), { minItems: 1, maxItems: 2, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type InitializeParams = Static<typeof InitializeParamsSchema>;

/** A phase the plugin implements but cannot run in this session, and why (a tool it needs is missing). */
export const UnavailablePhaseSchema = Type.Object(
  { phase: stringEnum(['A', 'B'] as const), reason: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);
export type UnavailablePhase = Static<typeof UnavailablePhaseSchema>;

export const InitializeResultSchema = Type.Object(
  {
    languages: Type.Array(languageId, { maxItems: 256 }),
    /** Phases this session can run: a subset of `hello`'s `capabilities.phases` (default: all of them). */
    phases: Type.Optional(Type.Array(stringEnum(['A', 'B'] as const), { minItems: 1, maxItems: 2, uniqueItems: true })),
    /** Implemented phases this session cannot run, each with the reason. */
    unavailable: Type.Optional(Type.Array(UnavailablePhaseSchema, { maxItems: 2 })),
  },
  { additionalProperties: false },
);
export type InitializeResult = Static<typeof InitializeResultSchema>;

// ---- analyze (streams graph/file notifications, then answers) ----
export const AnalyzeFileSchema = Type.Object(
  {
    /** Path relative to the repository root, `/`-separated. */
    path: Type.String({ minLength: 1, maxLength: 4096 }),
    language: languageId,
  },
  { additionalProperties: false },
);
export type AnalyzeFile = Static<typeof AnalyzeFileSchema>;

export const AnalyzeParamsSchema = Type.Object(
  {
    phase: stringEnum(['A', 'B'] as const),
    files: Type.Array(AnalyzeFileSchema, { maxItems: 1_000_000 }),
    /**
     * Repository paths written, created or deleted since the session's previous analyze request
     * (sent only to a plugin announcing `capabilities.incremental`, on the first request of a run).
     */
    changed: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 1_000_000 })),
  },
  { additionalProperties: false },
);
export type AnalyzeParams = Static<typeof AnalyzeParamsSchema>;

export const AnalyzeResultSchema = Type.Object(
  {
    files: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    nodes: Type.Integer({ minimum: 0 }),
    edges: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type AnalyzeResult = Static<typeof AnalyzeResultSchema>;

/** One complete file of an `analyze` request: everything the plugin found in it. */
export const GraphFileParamsSchema = Type.Object(
  {
    /** The id of the `analyze` request this file belongs to. */
    requestId: RequestIdSchema,
    path: Type.String({ minLength: 1, maxLength: 4096 }),
    language: languageId,
    phase: stringEnum(['A', 'B'] as const),
    /** `ok`: analyzed; `failed`: not analyzed (see diagnostics), nothing stored is replaced. */
    status: stringEnum(['ok', 'failed'] as const),
    nodes: Type.Array(NodeSchema),
    edges: Type.Array(EdgeSchema),
    refs: Type.Optional(Type.Array(UnresolvedRefSchema)),
    diagnostics: Type.Array(DiagnosticSchema, { maxItems: 10_000 }),
    /**
     * What other files' analysis can observe of this one, per qualified name inside the file
     * (`""`: the file as a whole), as an opaque digest. When a changed file's interface differs
     * from the stored one only at some names, the host re-analyzes only the dependents that
     * name them (SPEC §9.11); without it, every dependent.
     */
    interface: Type.Optional(
      Type.Record(Type.String({ maxLength: 4096 }), Type.String({ minLength: 1, maxLength: 128 }), { maxProperties: 1_000_000 }),
    ),
  },
  { additionalProperties: false },
);
export type GraphFileParams = Static<typeof GraphFileParamsSchema>;

// ---- embed, score (model plugins) ----
/** Texts of one `embed` or `score` request: the host batches, the model cuts each to its max tokens. */
const modelText = Type.String({ maxLength: 262_144 });
const MAX_MODEL_BATCH = 1024;

export const EmbedParamsSchema = Type.Object(
  { texts: Type.Array(modelText, { minItems: 1, maxItems: MAX_MODEL_BATCH }) },
  { additionalProperties: false },
);
export type EmbedParams = Static<typeof EmbedParamsSchema>;

export const EmbedResultSchema = Type.Object(
  {
    /** One unit-length vector per text, in order, each of the manifest's `model.dimensions`. */
    vectors: Type.Array(Type.Array(Type.Number(), { minItems: 1, maxItems: 16384 }), { maxItems: MAX_MODEL_BATCH }),
  },
  { additionalProperties: false },
);
export type EmbedResult = Static<typeof EmbedResultSchema>;

export const ScoreParamsSchema = Type.Object(
  {
    query: modelText,
    candidates: Type.Array(modelText, { minItems: 1, maxItems: MAX_MODEL_BATCH }),
  },
  { additionalProperties: false },
);
export type ScoreParams = Static<typeof ScoreParamsSchema>;

export const ScoreResultSchema = Type.Object(
  {
    /** One relevance score per candidate, in order; higher is more relevant. */
    scores: Type.Array(Type.Number(), { maxItems: MAX_MODEL_BATCH }),
  },
  { additionalProperties: false },
);
export type ScoreResult = Static<typeof ScoreResultSchema>;

// ---- cancel, ping, shutdown ----
export const CancelParamsSchema = Type.Object({ id: RequestIdSchema }, { additionalProperties: false });
export type CancelParams = Static<typeof CancelParamsSchema>;

export const PingParamsSchema = Type.Object({ nonce: Type.Optional(Type.Integer()) }, { additionalProperties: false });
export const PingResultSchema = Type.Object({ nonce: Type.Optional(Type.Integer()) }, { additionalProperties: false });
export type PingParams = Static<typeof PingParamsSchema>;
export type PingResult = Static<typeof PingResultSchema>;

export const EmptySchema = Type.Object({}, { additionalProperties: false });

// ---- progress, log (plugin → host notifications) ----
export const ProgressParamsSchema = Type.Object(
  {
    requestId: RequestIdSchema,
    done: Type.Integer({ minimum: 0 }),
    total: Type.Integer({ minimum: 0 }),
    message: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);
export type ProgressParams = Static<typeof ProgressParamsSchema>;

export const LogParamsSchema = Type.Object(
  {
    level: stringEnum(LOG_LEVELS),
    message: Type.String({ maxLength: 16384 }),
    data: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type LogParams = Static<typeof LogParamsSchema>;

/** Who sends a method and what it is. */
export interface MethodSpec {
  direction: 'host->plugin' | 'plugin->host';
  type: 'request' | 'notification';
  params: TSchema;
  result?: TSchema;
}

/** The method table of protocol version 1. */
export const METHODS = {
  hello: { direction: 'host->plugin', type: 'request', params: HelloParamsSchema, result: HelloResultSchema },
  initialize: { direction: 'host->plugin', type: 'request', params: InitializeParamsSchema, result: InitializeResultSchema },
  analyze: { direction: 'host->plugin', type: 'request', params: AnalyzeParamsSchema, result: AnalyzeResultSchema },
  embed: { direction: 'host->plugin', type: 'request', params: EmbedParamsSchema, result: EmbedResultSchema },
  score: { direction: 'host->plugin', type: 'request', params: ScoreParamsSchema, result: ScoreResultSchema },
  ping: { direction: 'host->plugin', type: 'request', params: PingParamsSchema, result: PingResultSchema },
  shutdown: { direction: 'host->plugin', type: 'request', params: EmptySchema, result: EmptySchema },
  cancel: { direction: 'host->plugin', type: 'notification', params: CancelParamsSchema },
  'graph/file': { direction: 'plugin->host', type: 'notification', params: GraphFileParamsSchema },
  progress: { direction: 'plugin->host', type: 'notification', params: ProgressParamsSchema },
  log: { direction: 'plugin->host', type: 'notification', params: LogParamsSchema },
} as const satisfies Record<string, MethodSpec>;
export type MethodName = keyof typeof METHODS;
