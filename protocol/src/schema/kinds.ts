import type { TUnsafe } from '@sinclair/typebox';

/**
 * The closed vocabularies of the graph and the log, and the helper that turns one into a
 * schema. Plain values with no TypeBox at run time: `index.ts` exports them directly, while
 * the TypeBox definitions (`graph.ts`, `messages.ts`, `manifest.ts`) load only in build tools.
 *
 * @example
 * ```ts
 * import { EDGE_KINDS } from '@travsr/protocol';
 * EDGE_KINDS.includes('calls'); // true
 * ```
 */

/** TypeBox's kind marker (`Kind` of `@sinclair/typebox`), a registered symbol, so no TypeBox import is needed. */
const TYPEBOX_KIND = Symbol.for('TypeBox.Kind');

/**
 * A string restricted to `values`, emitted as a plain JSON Schema `enum` (so a validation
 * error lists the allowed values once instead of one failed `const` per value). The same
 * object `Type.Unsafe({ type: 'string', enum })` builds.
 *
 * @example
 * ```ts
 * const Severity = stringEnum(['error', 'warning'] as const); // { type: 'string', enum: ['error', 'warning'] }
 * ```
 */
export function stringEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return { type: 'string', enum: [...values], [TYPEBOX_KIND]: 'Unsafe' } as unknown as TUnsafe<T[number]>;
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

/** Severities of a `log` notification. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
