import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as generated from '../../src/schema/generated/schemas.js';
import * as graph from '../../src/schema/graph.js';
import * as manifest from '../../src/schema/manifest.js';
import * as messages from '../../src/schema/messages.js';
import { GENERATED_FILES, precompiledSources } from '../../src/schema/precompile.js';
import { PROTOCOL_DIR } from '../helpers/corpus.js';

const definitions: Record<string, unknown> = { ...graph, ...messages, ...manifest };
const copies: Record<string, unknown> = generated;

/** The first line where two texts differ, shortened (a generated file can be 300 kB: a full diff would bury the message). */
function firstDifference(committed: string, generated: string): string | undefined {
  const a = committed.split('\n');
  const b = generated.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x === y && i < a.length && i < b.length) continue;
    let column = 0;
    while (column < x.length && x[column] === y[column]) column++;
    const around = (line: string) => JSON.stringify(line.slice(Math.max(0, column - 60), column + 60));
    return `line ${i + 1}, column ${column + 1}: committed ${around(x)}, generated ${around(y)}`;
  }
  return undefined;
}

describe('generated files', () => {
  const fresh = precompiledSources(PROTOCOL_DIR);

  it.each(Object.values(GENERATED_FILES))('protocol/%s is what precompile.ts writes', async (file) => {
    const committed = readFileSync(join(PROTOCOL_DIR, file), 'utf8');
    const stale = 'stale: after a schema change run `npx tsc -b && npm run precompile -w @travsr/protocol && npx tsc -b`';
    expect(firstDifference(committed, (await fresh)[file] ?? ''), stale).toBeUndefined();
  });
});

describe('generated/schemas', () => {
  it('exports every schema and table of the TypeBox definitions, equal to them, TypeBox symbols included', () => {
    const objects = Object.keys(definitions).filter((name) => typeof definitions[name] === 'object');
    expect(Object.keys(copies).sort()).toEqual(objects.sort());
    // toStrictEqual compares symbol keys too ([Kind], [OptionalKind]), which TypeBox's own functions read.
    for (const name of objects) expect(copies[name], name).toStrictEqual(definitions[name]);
  });

  it('keeps one object where TypeBox has one, so a method schema is the exported schema', () => {
    expect(generated.METHODS.hello.params).toBe(generated.HelloParamsSchema);
    expect(generated.METHODS.shutdown.params).toBe(generated.METHODS.shutdown.result);
    expect(generated.GraphFileParamsSchema.properties.nodes.items).toBe(generated.NodeSchema);
    expect(generated.EdgeSchema.properties.src).toBe(generated.VNameSchema);
    // and the TypeBox definitions really share them (the generated copy does not invent sharing)
    expect(messages.GraphFileParamsSchema.properties.nodes.items).toBe(graph.NodeSchema);
  });
});
