import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import type * as AjvModule from 'ajv';
import type * as Standalone from 'ajv/dist/standalone/index.js';
import * as graph from './graph.js';
import * as manifest from './manifest.js';
import * as messages from './messages.js';
import { AJV_OPTIONS } from './ajv-options.js';

/*
 * Build tool: turns the TypeBox definitions into plain modules, so that importing the package
 * loads neither TypeBox (~150 ms of module loading) nor ajv, and no protocol schema is compiled
 * at run time (the manifest alone took ~200 ms):
 * - src/schema/generated/schemas.ts: every exported schema (and METHODS) as a literal object,
 *   the shape TypeBox builds, symbols and shared sub-objects included, typed from the
 *   definitions; small, so tsc compiles it like any source file;
 * - generated/validators.js (+ .d.ts): ajv's standalone code for every schema validate.ts
 *   checks against (see validatedSchemaNames), with AJV_OPTIONS. It lives outside src/ and dist/ so that tsc neither re-prints it (its deep
 *   nesting would triple its size, and loading time with it) nor needs it rebuilt: src/ and
 *   dist/ import it by the same relative path.
 * All are committed; test/schema/precompile.test.ts fails when one is stale.
 */

const require = createRequire(import.meta.url);

/** The TypeBox definition modules, by the name the generated schemas module imports their types under. */
const DEFINITIONS = { graph, messages, manifest } as const;
type DefinitionModule = keyof typeof DEFINITIONS;

/** The generated files, relative to the package root. */
export const GENERATED_FILES = {
  schemas: 'src/schema/generated/schemas.ts',
  validators: 'generated/validators.js',
  validatorTypes: 'generated/validators.d.ts',
} as const;
const REGENERATE = 'npx tsc -b && npm run precompile -w @travsr/protocol && npx tsc -b';

const isSchema = (value: unknown): value is TSchema =>
  typeof value === 'object' && value !== null && Object.getOwnPropertySymbols(value).includes(Symbol.for('TypeBox.Kind'));

interface NamedExport {
  module: DefinitionModule;
  name: string;
  value: object;
}

/** Every object-valued export of the definitions (schemas and METHODS), module by module, by name. */
function namedExports(): NamedExport[] {
  const out: NamedExport[] = [];
  for (const [module, exports] of Object.entries(DEFINITIONS) as [DefinitionModule, Record<string, unknown>][]) {
    // Sorted: a module namespace lists its names sorted in Node.js but in declaration order in vitest.
    for (const [name, value] of Object.entries(exports).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (typeof value === 'object' && value !== null) out.push({ module, name, value });
    }
  }
  return out;
}

/** Writes a value as a JavaScript expression, referring to already declared objects by name. */
class LiteralWriter {
  private readonly names = new Map<object, string>();
  private readonly declarations: string[] = [];
  private readonly symbols = new Map<symbol, string>();
  private readonly uses = new Map<object, number>();
  /** Exported objects not declared yet: written under their export name where first reached. */
  private readonly pending = new Map<object, NamedExport>();
  private shared = 0;

  constructor(roots: readonly NamedExport[]) {
    for (const root of roots) if (!this.pending.has(root.value)) this.pending.set(root.value, root);
    const count = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      const seen = this.uses.get(value) ?? 0;
      this.uses.set(value, seen + 1);
      if (seen > 0) return;
      for (const key of Reflect.ownKeys(value)) count((value as Record<PropertyKey, unknown>)[key]);
    };
    for (const root of roots) count(root.value);
  }

  /** Declares `value` under `name` (after everything it refers to) unless it already has a name. */
  declare(value: object, name: string, type?: string): string {
    const known = this.names.get(value);
    if (known !== undefined) return known;
    this.pending.delete(value);
    const expression = this.expression(value, true);
    this.declarations.push(type === undefined ? `const ${name} = ${expression};` : `const ${name} = ${expression} as unknown as ${type};`);
    this.names.set(value, name);
    return name;
  }

  /** The declarations of the symbols and objects written so far, in dependency order. */
  source(): string {
    const symbols = [...this.symbols].map(([symbol, name]) => `const ${name} = Symbol.for(${JSON.stringify(Symbol.keyFor(symbol))});`);
    return [...symbols, ...this.declarations].join('\n');
  }

  private expression(value: unknown, declaring = false): string {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error(`precompile: ${value} cannot be written as a JSON Schema value`);
      return String(value);
    }
    if (typeof value !== 'object') throw new Error(`precompile: a schema holds a ${typeof value}, which cannot be written as a literal`);
    const known = this.names.get(value);
    if (known !== undefined) return known;
    const exported = declaring ? undefined : this.pending.get(value);
    if (exported) return this.declare(value, exported.name, `typeof ${exported.module}.${exported.name}`);
    // An object reached from two places stays one object, as TypeBox built it.
    if (!declaring && (this.uses.get(value) ?? 0) > 1) return this.declare(value, `shared${this.shared++}`);
    if (Array.isArray(value)) return `[${value.map((item) => this.expression(item)).join(', ')}]`;
    const members = Object.keys(value).map((key) => `${JSON.stringify(key)}: ${this.expression((value as Record<string, unknown>)[key])}`);
    for (const symbol of Object.getOwnPropertySymbols(value)) {
      members.push(`[${this.symbolName(symbol)}]: ${this.expression((value as Record<symbol, unknown>)[symbol])}`);
    }
    return `{ ${members.join(', ')} }`;
  }

  private symbolName(symbol: symbol): string {
    const key = Symbol.keyFor(symbol);
    if (key === undefined) throw new Error(`precompile: ${String(symbol)} is not a registered symbol, so it cannot be recreated`);
    let name = this.symbols.get(symbol);
    if (name === undefined) {
      name = `${key.replace(/\W/g, '_').toUpperCase()}`;
      this.symbols.set(symbol, name);
    }
    return name;
  }
}

const HEADER = (what: string): string =>
  [
    `// ${what}`,
    '// Generated by protocol/src/schema/precompile.ts from the TypeBox definitions: do not edit.',
    `// Regenerate after a schema change: ${REGENERATE}`,
  ].join('\n');

/** Source of generated/schemas.ts: the definitions' exported values as literals, typed as the definitions. */
function schemasSource(): string {
  const exports = namedExports();
  const writer = new LiteralWriter(exports);
  const lines: string[] = [];
  for (const { module, name, value } of exports) {
    const declared = writer.declare(value, name, `typeof ${module}.${name}`);
    lines.push(declared === name ? `export { ${name} };` : `export const ${name} = ${declared} as unknown as typeof ${module}.${name};`);
  }
  return [
    HEADER('The protocol schemas as plain objects, so that importing the package does not load TypeBox.'),
    ...Object.keys(DEFINITIONS).map((module) => `import type * as ${module} from '../${module}.js';`),
    '',
    writer.source(),
    '',
    ...lines,
    '',
  ].join('\n');
}

/**
 * What ajv's standalone code `require`s from its CommonJS runtime for `minLength`/`maxLength`
 * (an ES module cannot): the length in code points, a surrogate pair counting once.
 */
const UCS2_LENGTH = [
  'function ucs2length(text) {',
  '  let length = 0;',
  '  for (let at = 0; at < text.length; length++) {',
  '    const unit = text.charCodeAt(at++);',
  '    if (unit >= 0xd800 && unit <= 0xdbff && at < text.length && (text.charCodeAt(at) & 0xfc00) === 0xdc00) at++;',
  '  }',
  '  return length;',
  '}',
].join('\n');

/**
 * The schemas validate.ts checks against, by export name: the envelope, every method's params
 * and result, the manifest. Each gets a precompiled validator of the same name. The other
 * exported schemas (VNameSchema, NodeSchema, …) are parts of these, inlined in their validators;
 * nothing validates against them alone, and a validator each would add a third to the file that
 * every process and every plugin bundle loads. compileSchema still compiles them, with ajv.
 */
function validatedSchemaNames(): string[] {
  const nameOf = new Map<unknown, string>();
  for (const { name, value } of namedExports()) if (isSchema(value) && !nameOf.has(value)) nameOf.set(value, name);
  const validated = [
    messages.EnvelopeSchema,
    ...Object.values(messages.METHODS).flatMap((spec: messages.MethodSpec) => (spec.result ? [spec.params, spec.result] : [spec.params])),
    manifest.ManifestSchema,
  ];
  const names = validated.map((schema) => {
    const name = nameOf.get(schema);
    if (name === undefined) throw new Error('precompile: a validated schema is not exported under a name of its own; export it');
    return name;
  });
  return [...new Set(names)];
}

/** Source of generated/validators.js: one ajv standalone validator per validated schema, named like its export. */
function validatorsSource(): string {
  const { Ajv } = require('ajv') as typeof AjvModule;
  // A CommonJS module seen from an ES module: its `default` export is the whole module.
  const standaloneCode = (require('ajv/dist/standalone') as typeof Standalone.default).default;
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true, lines: true } });
  const exports = new Map(namedExports().map((e) => [e.name, e.value]));
  const refs: Record<string, string> = {};
  for (const name of validatedSchemaNames()) {
    ajv.addSchema(exports.get(name) as TSchema, name);
    refs[name] = name;
  }
  const code = standaloneCode(ajv, refs)
    .replace(/^"use strict";/, '')
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length');
  const leftover = /require\("[^"]*"\)/.exec(code);
  if (leftover)
    throw new Error(`precompile: the standalone code needs ${leftover[0]}, which an ES module cannot load; add a local helper for it`);
  return [
    HEADER('The protocol validators, compiled ahead of time by ajv (standalone mode) with AJV_OPTIONS of ajv-options.ts.'),
    '// Kept as ajv writes it (one statement a line, no indentation): indented, it would be three times the bytes to load.',
    UCS2_LENGTH,
    code,
    '',
  ].join('\n');
}

/** Source of generated/validators.d.ts. */
function validatorTypesSource(): string {
  return [
    HEADER('Types of validators.js.'),
    "import type { ErrorObject } from 'ajv';",
    '',
    '/** An ajv validate function as standalone code has it: no `schema` or `schemaEnv` property. */',
    'export interface StandaloneValidator {',
    '  (data: unknown): boolean;',
    '  errors?: ErrorObject[] | null;',
    '}',
    '',
    ...validatedSchemaNames().map((name) => `export declare const ${name}: StandaloneValidator;`),
    '',
  ].join('\n');
}

/** Formats a generated module the way the repository's Prettier configuration wants it, so the committed file passes `prettier --check`. */
async function formatted(file: string, source: string): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(source, { ...options, filepath: file });
}

/** The generated files of the package in `packageDir`, by path relative to it. */
export async function precompiledSources(packageDir: string): Promise<Record<string, string>> {
  return {
    [GENERATED_FILES.schemas]: await formatted(join(packageDir, GENERATED_FILES.schemas), schemasSource()),
    [GENERATED_FILES.validators]: validatorsSource(),
    [GENERATED_FILES.validatorTypes]: validatorTypesSource(),
  };
}

/** Writes the generated files of the package in `packageDir`. */
export async function writePrecompiled(packageDir: string): Promise<string[]> {
  const sources = await precompiledSources(packageDir);
  for (const [path, text] of Object.entries(sources)) {
    mkdirSync(dirname(join(packageDir, path)), { recursive: true });
    writeFileSync(join(packageDir, path), text);
  }
  return Object.keys(sources);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const packageDir = resolve(fileURLToPath(import.meta.url), '../../..');
  const files = await writePrecompiled(packageDir);
  console.log(`wrote ${files.join(', ')} in ${packageDir}; run npx tsc -b to compile them`);
}
