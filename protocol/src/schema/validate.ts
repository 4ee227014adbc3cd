import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { ProtocolError, ProtocolErrorCode } from '../errors.js';
import { AJV_OPTIONS } from './ajv-options.js';
import { EnvelopeSchema, ManifestSchema, METHODS } from './generated/schemas.js';
import type { Envelope, MethodName } from './messages.js';
import type { PluginManifest } from './manifest.js';
import { precompiledValidator } from './precompiled.js';

const cache = new WeakMap<TSchema, ValidateFunction>();
let ajv: Ajv | undefined;

/**
 * ajv, loaded the first time a schema that is not the protocol's own needs compiling (loading it
 * costs ~50 ms). ajv is CommonJS, so `require` loads it synchronously: a bundle (esbuild) turns
 * the plain `require('ajv')` into its own copy of ajv; unbundled ES modules have no `require`.
 */
function runtimeAjv(): Ajv {
  if (!ajv) {
    const ajvModule = (
      typeof require === 'function'
        ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one form esbuild bundles synchronously
          require('ajv')
        : createRequire(import.meta.url)('ajv')
    ) as typeof AjvModule;
    ajv = new ajvModule.Ajv(AJV_OPTIONS);
  }
  return ajv;
}

/**
 * The validator of a schema: compiled ahead of time for the protocol's own schemas
 * (`EnvelopeSchema`, `METHODS[m].params`, `ManifestSchema`, …), otherwise compiled by ajv on
 * first use and cached. Either way the same ajv options, so the same errors.
 *
 * @example
 * ```ts
 * const validate = compileSchema(PingParamsSchema);
 * validate({ nonce: 1 }); // true
 * ```
 */
export function compileSchema<T extends TSchema>(schema: T): ValidateFunction<Static<T>> {
  let fn = cache.get(schema);
  if (!fn) {
    fn = precompiledValidator(schema) ?? runtimeAjv().compile(schema);
    cache.set(schema, fn);
  }
  return fn as ValidateFunction<Static<T>>;
}

/** Renders ajv errors as one readable line: `/params/nodes/3/kind must be equal to one of …`. */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'unknown schema violation';
  return errors
    .slice(0, 3)
    .map((e) => {
      const where = e.instancePath || '/';
      const extra =
        e.keyword === 'additionalProperties'
          ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
          : e.keyword === 'enum' || e.keyword === 'const'
            ? ` (${JSON.stringify(e.params)})`
            : '';
      return `${where} ${e.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}

/**
 * Validates a value against a schema and returns it typed.
 *
 * @throws ProtocolError `SCHEMA_VIOLATION` naming the first failing path.
 * @example
 * ```ts
 * const hello = assertSchema(HelloResultSchema, response.result, 'hello result');
 * ```
 */
export function assertSchema<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  const fn = compileSchema(schema);
  if (!fn(value)) {
    throw new ProtocolError(ProtocolErrorCode.SchemaViolation, `${what} failed validation: ${describeSchemaErrors(fn.errors)}`, fn.errors);
  }
  return value;
}

/** Validates the envelope of a decoded frame. */
export function assertEnvelope(value: unknown): Envelope {
  const envelope: Envelope = assertSchema(EnvelopeSchema, value, 'frame envelope');
  return envelope;
}

/** Validates the params of a known method. */
export function assertParams<M extends MethodName>(method: M, params: unknown): Static<(typeof METHODS)[M]['params']> {
  return assertSchema(METHODS[method].params, params ?? {}, `${method} params`);
}

/** Validates the result of a known request method. */
export function assertResult<M extends MethodName>(method: M, result: unknown): unknown {
  const spec = METHODS[method] as { result?: TSchema };
  if (!spec.result) return result;
  return assertSchema(spec.result, result, `${method} result`);
}

/**
 * Parses and validates a `travsr-plugin.json` document.
 *
 * @throws ProtocolError `MANIFEST_INVALID` with the failing path.
 * @example
 * ```ts
 * const manifest = parseManifest(await readFile('travsr-plugin.json', 'utf8'));
 * ```
 */
export function parseManifest(source: unknown, where = 'travsr-plugin.json'): PluginManifest {
  let value: unknown = source;
  if (typeof source === 'string') {
    try {
      value = JSON.parse(source);
    } catch (e) {
      throw new ProtocolError(ProtocolErrorCode.ManifestInvalid, `${where} is not valid JSON: ${(e as Error).message}`);
    }
  }
  const fn = compileSchema(ManifestSchema);
  if (!fn(value)) {
    throw new ProtocolError(ProtocolErrorCode.ManifestInvalid, `${where} is invalid: ${describeSchemaErrors(fn.errors)}`, fn.errors);
  }
  const problem = kindProblem(value);
  if (problem) throw new ProtocolError(ProtocolErrorCode.ManifestInvalid, `${where} is invalid: ${problem}`);
  return value;
}

/** What the schema cannot say: an analyzer handles some language, a model plugin none. */
function kindProblem(m: PluginManifest): string | undefined {
  if (m.kind === 'model') {
    if (!m.model) return 'a model plugin (kind "model") must say what it serves in "model" (task, maxTokens, licence)';
    if (m.languages.length > 0 || m.extensions.length > 0)
      return 'a model plugin (kind "model") analyzes no files: "languages" and "extensions" must be empty';
    if (m.phases) return 'a model plugin (kind "model") has no analysis "phases"';
    // Models run in the standard tier: the texts come in the requests, nothing else is needed.
    if (m.constraints.network !== false || m.constraints.ipc !== 'none' || m.constraints.hostApi)
      return 'a model plugin (kind "model") runs in the standard tier: "constraints" must say network false, ipc "none" and hostApi false';
    if (m.model.task === 'embed' && m.model.dimensions === undefined)
      return 'an embedding model must give its vectors\' "dimensions" in "model"';
    return undefined;
  }
  if (m.model) return '"model" belongs to model plugins only: add "kind": "model", or remove it';
  if (m.languages.length === 0) return '"languages" must name at least one language (an analyzer plugin)';
  if (m.extensions.length === 0) return '"extensions" must name at least one extension or file name (an analyzer plugin)';
  return undefined;
}
