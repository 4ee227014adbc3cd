import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { EdgeSchema, NodeSchema, UnresolvedRefSchema, VNameSchema, DiagnosticSchema } from './graph.js';
import { EnvelopeSchema, METHODS } from './messages.js';
import { ManifestSchema } from './manifest.js';

const BASE = 'https://travsr.dev/schemas/protocol/v1/';

/** Every schema the build writes as a plain JSON Schema file, by file name. */
export function schemaFiles(): Record<string, TSchema> {
  const files: Record<string, TSchema> = {
    'envelope.schema.json': EnvelopeSchema,
    'travsr-plugin.schema.json': ManifestSchema,
    'vname.schema.json': VNameSchema,
    'node.schema.json': NodeSchema,
    'edge.schema.json': EdgeSchema,
    'unresolved-ref.schema.json': UnresolvedRefSchema,
    'diagnostic.schema.json': DiagnosticSchema,
  };
  for (const [name, spec] of Object.entries(METHODS)) {
    const base = name.replace('/', '-');
    files[`${base}.params.schema.json`] = spec.params;
    if ('result' in spec) files[`${base}.result.schema.json`] = spec.result;
  }
  return files;
}

/** Writes the JSON Schema files into `dir`. */
export function emitSchemas(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [file, schema] of Object.entries(schemaFiles())) {
    const doc = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: BASE + file,
      ...(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>),
    };
    writeFileSync(join(dir, file), JSON.stringify(doc, null, 2) + '\n');
    written.push(file);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'schemas');
  const files = emitSchemas(dir);
  console.log(`wrote ${files.length} JSON Schema files to ${dir}`);
}
