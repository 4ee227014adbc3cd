import { Type, type Static } from '@sinclair/typebox';
import { stringEnum } from './kinds.js';

/*
 * TypeBox definition of the manifest; like graph.ts, loaded by build tools only (the package
 * uses the precompiled copies in generated/ at run time).
 */

const host = Type.String({
  minLength: 1,
  maxLength: 260,
  // host or host:port; a leading "*." allows subdomains
  pattern: '^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$',
});

/**
 * What a plugin needs from its sandbox. Evaluated before any plugin code runs; a plugin
 * asking for more than its granted tier allows is refused.
 */
export const ConstraintsSchema = Type.Object(
  {
    /** `false`, or the hosts (`host[:port]`) it may reach through the host's proxy. */
    network: Type.Union([
      Type.Literal(false),
      Type.Object({ allow: Type.Array(host, { minItems: 1, maxItems: 64 }) }, { additionalProperties: false }),
    ]),
    /** `none`, or POSIX shared memory and message queues for parallel workers. */
    ipc: stringEnum(['none', 'posix-shm'] as const),
    /** Host functions beyond the protocol. No host offers any yet, so only `false` is grantable. */
    hostApi: Type.Boolean(),
    /** The repository is always a read-only view. */
    filesystem: Type.Optional(Type.Literal('repo-read-only')),
    /** Resource needs above the defaults (still capped by the host's limits). */
    resources: Type.Optional(
      Type.Object(
        {
          memoryMiB: Type.Optional(Type.Integer({ minimum: 16, maximum: 65536 })),
          cpuSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400 })),
          processes: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** External programs the plugin runs when present on PATH (e.g. `scip-go`); a missing one costs the plugin the pass it serves. */
    tools: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z0-9._-]+$', maxLength: 64 }), { maxItems: 32 })),
    /** Like `tools`, for an optional upgrade of a pass the plugin also runs without them (lang-python's `scip-python`): a missing one costs no pass. */
    optionalTools: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z0-9._-]+$', maxLength: 64 }), { maxItems: 32 })),
    /**
     * `true`: a private directory that persists between sessions for this plugin (version) and
     * repository, passed as `initialize.options.cacheDir` and writable inside the sandbox; the
     * host may empty it at any time, so it holds only what the plugin can recompute.
     */
    cache: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type Constraints = Static<typeof ConstraintsSchema>;

/**
 * What a model plugin serves (`kind: "model"`), so that the host can choose it without
 * starting it; the model's own `travsr-model.json` next to its files says the rest.
 */
export const ModelInfoSchema = Type.Object(
  {
    /** `embed`: texts → vectors (`embed` method); `rerank`: a cross-encoder scoring (query, text) pairs (`score` method). */
    task: stringEnum(['embed', 'rerank'] as const),
    /** Length of every vector of an `embed` model. */
    dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 16384 })),
    /** Tokens of one text the model reads; longer texts are cut. */
    maxTokens: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    /** SPDX expression of the model weights' licence. */
    licence: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);
export type ModelInfo = Static<typeof ModelInfoSchema>;

/** `travsr-plugin.json`: the contract of a plugin. */
export const ManifestSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    /**
     * `analyzer` (the default): analyzes the files of `languages`; `model`: serves a learned
     * model (`model` says which task) and analyzes nothing — `languages` and `extensions` are
     * empty and `phases` absent.
     */
    kind: Type.Optional(stringEnum(['analyzer', 'model'] as const)),
    id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)?$' }),
    version: Type.String({ maxLength: 64, pattern: '^\\d+\\.\\d+\\.\\d+(?:[-+][0-9A-Za-z.+-]+)?$' }),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    /** At least one for an analyzer; none for a model plugin. */
    languages: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9+#._-]*$' }), {
      maxItems: 256,
      uniqueItems: true,
    }),
    /** File extensions with the dot (`.ts`) or exact file names (`Dockerfile`); at least one for an analyzer, none for a model plugin. */
    extensions: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^/\\\\]+$' }), {
      maxItems: 1024,
      uniqueItems: true,
    }),
    entrypoint: Type.Object(
      {
        /** `node`: run `path` with the host's Node.js; `exec`: `path` is an executable. */
        runtime: stringEnum(['node', 'exec'] as const),
        /** Relative to the plugin directory, `/`-separated: no leading `/`, drive letter, `\\` or `..` segment. */
        path: Type.String({ minLength: 1, maxLength: 1024, pattern: '^(?!/)(?![A-Za-z]:)(?!.*\\\\)(?!.*(^|/)\\.\\.(/|$)).+$' }),
        args: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 64 })),
      },
      { additionalProperties: false },
    ),
    protocolVersions: Type.Array(Type.String({ maxLength: 16 }), { minItems: 1, maxItems: 16 }),
    phases: Type.Optional(Type.Array(stringEnum(['A', 'B'] as const), { minItems: 1, uniqueItems: true })),
    constraints: ConstraintsSchema,
    /** A model plugin's task and model (required with `kind: "model"`, refused otherwise). */
    model: Type.Optional(ModelInfoSchema),
  },
  { additionalProperties: false },
);
export type PluginManifest = Static<typeof ManifestSchema>;
