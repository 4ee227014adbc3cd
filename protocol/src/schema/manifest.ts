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

/** `travsr-plugin.json`: the contract of a plugin. */
export const ManifestSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)?$' }),
    version: Type.String({ maxLength: 64, pattern: '^\\d+\\.\\d+\\.\\d+(?:[-+][0-9A-Za-z.+-]+)?$' }),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    languages: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9+#._-]*$' }), {
      minItems: 1,
      maxItems: 256,
      uniqueItems: true,
    }),
    /** File extensions with the dot (`.ts`) or exact file names (`Dockerfile`). */
    extensions: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^/\\\\]+$' }), {
      minItems: 1,
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
  },
  { additionalProperties: false },
);
export type PluginManifest = Static<typeof ManifestSchema>;
