import { Type, type Static, type TUnsafe } from '@sinclair/typebox';

/**
 * A string restricted to `values`, emitted as a plain JSON Schema `enum` (so a validation
 * error lists the allowed values once instead of one failed `const` per value).
 */
export function stringEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

/** Kinds of graph nodes a plugin may emit. */
export const NODE_KINDS = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'interface',
  'struct',
  'enum',
  'trait',
  'type',
  'function',
  'method',
  'constructor',
  'property',
  'field',
  'variable',
  'constant',
  'macro',
  'key',
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** Kinds of graph edges. `contains` links a file or scope to what it defines. */
export const EDGE_KINDS = ['contains', 'calls', 'imports', 'inherits', 'implements', 'types', 'references', 'overrides'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** Who produced an edge: the structural pass, the semantic pass, an external SCIP index. */
export const PROVENANCES = ['phase-a', 'phase-b', 'scip', 'lsif', 'manual'] as const;
export type Provenance = (typeof PROVENANCES)[number];

const text = (maxLength: number) => Type.String({ maxLength });

/** Kythe-style address of a node. `signature` is unique within (corpus, root, path, language). */
export const VNameSchema = Type.Object(
  {
    corpus: text(512),
    root: text(512),
    path: text(4096),
    language: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9+#._-]*$' }),
    signature: text(8192),
  },
  { additionalProperties: false },
);
export type VName = Static<typeof VNameSchema>;

/** Source range: lines are 1-based, columns 0-based in UTF-8 bytes; the end is exclusive. */
export const RangeSchema = Type.Object(
  {
    startLine: Type.Integer({ minimum: 1 }),
    startCol: Type.Integer({ minimum: 0 }),
    endLine: Type.Integer({ minimum: 1 }),
    endCol: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type Range = Static<typeof RangeSchema>;

/** A definition (or a file) in the graph. */
export const NodeSchema = Type.Object(
  {
    vname: VNameSchema,
    kind: stringEnum(NODE_KINDS),
    name: text(1024),
    qualifiedName: Type.Optional(text(4096)),
    range: Type.Optional(RangeSchema),
    /** Signature and leading doc, for display and embedding. */
    skeleton: Type.Optional(text(16384)),
  },
  { additionalProperties: false },
);
export type Node = Static<typeof NodeSchema>;

/** A resolved edge between two nodes, each named by its VName. */
export const EdgeSchema = Type.Object(
  {
    src: VNameSchema,
    dst: VNameSchema,
    kind: stringEnum(EDGE_KINDS),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    provenance: stringEnum(PROVENANCES),
  },
  { additionalProperties: false },
);
export type Edge = Static<typeof EdgeSchema>;

/**
 * A reference whose target the plugin could not resolve (a Phase A call site, an import
 * of a module outside the file): the host may match it by name, with low confidence.
 */
export const UnresolvedRefSchema = Type.Object(
  {
    src: VNameSchema,
    kind: stringEnum(EDGE_KINDS),
    /** The referenced name as written, e.g. `parse` or `os.path.join`. */
    name: Type.String({ minLength: 1, maxLength: 1024 }),
    range: Type.Optional(RangeSchema),
  },
  { additionalProperties: false },
);
export type UnresolvedRef = Static<typeof UnresolvedRefSchema>;

export const DiagnosticSchema = Type.Object(
  {
    severity: stringEnum(['error', 'warning', 'info'] as const),
    message: text(4096),
    code: Type.Optional(text(128)),
    range: Type.Optional(RangeSchema),
  },
  { additionalProperties: false },
);
export type Diagnostic = Static<typeof DiagnosticSchema>;
