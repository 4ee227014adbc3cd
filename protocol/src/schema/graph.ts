import { Type, type Static } from '@sinclair/typebox';
import { EDGE_KINDS, NODE_KINDS, PROVENANCES, stringEnum } from './kinds.js';

/*
 * TypeBox definitions of the graph: the source of the types, of schemas/*.json and of the
 * precompiled copies in generated/. Only build tools load this file; at run time the package
 * uses generated/schemas.js, so TypeBox is never imported (see precompile.ts).
 */

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
