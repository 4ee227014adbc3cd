import type { Options } from 'ajv';

/**
 * The ajv options of every protocol validator, precompiled (precompile.ts) or compiled at run
 * time (validate.ts). One object, so both produce the same error objects and messages.
 * `allErrors: false` stops at the first error, which is all a peer's bad frame needs.
 */
export const AJV_OPTIONS = {
  allErrors: false,
  strict: true,
  allowUnionTypes: true,
  validateFormats: false,
} as const satisfies Options;
