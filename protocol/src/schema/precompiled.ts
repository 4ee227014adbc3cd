import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import * as validators from '../../generated/validators.js';
import * as schemas from './generated/schemas.js';

/*
 * Pairs each protocol schema object (generated/schemas.js) with its validator compiled ahead of
 * time (generated/validators.js, same export name). Identity, not structure, picks the
 * validator: a caller's own schema that happens to look the same is compiled by ajv instead.
 * The path `../../generated/` is the same from src/schema/ and dist/schema/.
 */

const byName = validators as unknown as Record<string, validators.StandaloneValidator | undefined>;
const bySchema = new Map<object, ValidateFunction>();
for (const [name, schema] of Object.entries(schemas)) {
  const validate = byName[name];
  // Only what validate.ts checks against is precompiled (see precompile.ts); METHODS and the parts have none.
  if (validate === undefined || bySchema.has(schema)) continue;
  // ajv's compiled functions carry their schema; the standalone ones do not (nor `schemaEnv`).
  bySchema.set(schema, Object.assign(validate, { schema }) as unknown as ValidateFunction);
}

/** The validator compiled ahead of time for `schema` when it is one of the protocol's own schema objects. */
export function precompiledValidator(schema: TSchema): ValidateFunction | undefined {
  return bySchema.get(schema);
}
