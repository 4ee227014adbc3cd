// Patches a small module written byte by byte here, and checks every result with V8's own
// WebAssembly implementation: it compiles, lists the imports and exports we expect, and runs.
import { describe, expect, it } from 'vitest';
import {
  encodeWasmBytes,
  encodeWasmName,
  encodeWasmVector,
  readFunctionBodies,
  readWasmExports,
  readWasmImports,
  replaceSectionBody,
  WASM_EXTERNAL,
  WASM_SECTION,
  wasmSections,
  type WasmSection,
} from '../../src/build/index.js';

// The test writes its module with its own LEB128 and names, not the SDK's.
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n % 128;
    n = Math.floor(n / 128);
    out.push(n === 0 ? byte : byte | 0x80);
  } while (n !== 0);
  return out;
}
const name = (s: string) => [...uleb(Buffer.byteLength(s)), ...Buffer.from(s)];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];

const I32 = 0x7f;
const ANSWER_BODY = [0x00, 0x41, 0x2a, 0x0b]; // no locals; i32.const 42; end
const CALLER_BODY = [0x00, 0x41, 0xc1, 0x00, 0x10, 0x00, 0x0b]; // i32.const 65; call 0 (env.isalpha); end

/** Two imported functions (one with a non-ASCII name), a memory, a table and a global; two own functions; a custom section over 127 bytes. */
function sampleModule(): Buffer {
  return Buffer.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(
      WASM_SECTION.type,
      vector([
        [0x60, 0x00, 0x01, I32],
        [0x60, 0x01, I32, 0x01, I32],
      ]),
    ),
    ...section(
      WASM_SECTION.import,
      vector([
        [...name('env'), ...name('isalpha'), 0x00, 0x01],
        [...name('env'), ...name('memory'), 0x02, 0x01, 0x01, 0x02], // min 1, max 2 pages
        [...name('env'), ...name('table'), 0x01, 0x70, 0x00, 0x01], // funcref, min 1
        [...name('env'), ...name('g'), 0x03, I32, 0x00],
        [...name('env'), ...name('größe'), 0x00, 0x00],
      ]),
    ),
    ...section(WASM_SECTION.function, vector([[0x00], [0x00]])),
    ...section(
      WASM_SECTION.export,
      vector([
        [...name('answer'), 0x00, 0x02],
        [...name('callsImport'), 0x00, 0x03],
      ]),
    ),
    ...section(
      WASM_SECTION.code,
      vector([
        [...uleb(ANSWER_BODY.length), ...ANSWER_BODY],
        [...uleb(CALLER_BODY.length), ...CALLER_BODY],
      ]),
    ),
    ...section(WASM_SECTION.custom, [...name('padding'), ...new Array<number>(200).fill(0x2e)]),
  ]);
}

/** V8's WebAssembly API, typed here: the packages compile without the DOM lib, and @types/node 20 does not declare it. */
interface V8WebAssembly {
  Module: {
    new (bytes: Uint8Array): object;
    imports(module: object): { module: string; name: string; kind: string }[];
    exports(module: object): { name: string; kind: string }[];
  };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum: number }) => object;
  Table: new (descriptor: { initial: number; element: 'anyfunc' }) => object;
  Global: new (descriptor: { value: 'i32'; mutable: boolean }, value: number) => object;
}
const V8 = (globalThis as unknown as { WebAssembly: V8WebAssembly }).WebAssembly;

const sectionOf = (wasm: Uint8Array, id: number): WasmSection => wasmSections(wasm).find((s) => s.id === id)!;

/** Runs a module with the imports `env.<alpha>` (returning 7) and the rest. */
function instantiate(wasm: Uint8Array, alpha = 'isalpha'): { answer(): number; callsImport(): number } {
  const env = {
    [alpha]: () => 7,
    größe: () => 0,
    memory: new V8.Memory({ initial: 1, maximum: 2 }),
    table: new V8.Table({ initial: 1, element: 'anyfunc' }),
    g: new V8.Global({ value: 'i32', mutable: false }, 5),
  };
  return new V8.Instance(new V8.Module(wasm), { env }).exports as { answer(): number; callsImport(): number };
}

describe('wasm module helpers', () => {
  it('read the sections, imports, exports and bodies V8 sees', () => {
    const wasm = sampleModule();
    expect(instantiate(wasm).answer()).toBe(42); // the sample itself is valid and runs
    const sections = wasmSections(wasm);
    expect(sections.map((s) => s.id)).toEqual([1, 2, 3, 7, 10, 0]);
    const custom = sections.at(-1)!;
    expect(custom.bodyStart - custom.start).toBe(3); // id + a two-byte size: 208 > 127
    expect(custom.end).toBe(wasm.length);

    const module = new V8.Module(wasm);
    const kinds = ['function', 'table', 'memory', 'global', 'tag'];
    const imports = readWasmImports(wasm, sectionOf(wasm, WASM_SECTION.import));
    expect(imports.map((i) => ({ module: i.module, name: i.name, kind: kinds[i.kind] }))).toEqual(V8.Module.imports(module));
    expect(imports.map((i) => i.name)).toContain('größe');
    const exports = readWasmExports(wasm, sectionOf(wasm, WASM_SECTION.export));
    expect(exports.map((e) => ({ name: e.name, kind: kinds[e.kind] }))).toEqual(V8.Module.exports(module));
    expect(exports.map((e) => e.index)).toEqual([2, 3]);
    const bodies = readFunctionBodies(wasm, sectionOf(wasm, WASM_SECTION.code));
    expect(bodies.map((b) => [...b])).toEqual([ANSWER_BODY, CALLER_BODY]);
  });

  it('rename an import, changing no byte outside the import section', () => {
    const wasm = sampleModule();
    const imports = sectionOf(wasm, WASM_SECTION.import);
    const entries = readWasmImports(wasm, imports).map((i) =>
      i.name === 'isalpha'
        ? Buffer.concat([wasm.subarray(i.start, i.nameStart), encodeWasmName('iswalpha'), wasm.subarray(i.descStart, i.end)])
        : wasm.subarray(i.start, i.end),
    );
    const patched = replaceSectionBody(wasm, imports, encodeWasmVector(entries));

    expect(patched.length).toBe(wasm.length + 1);
    expect(patched.subarray(0, imports.start).equals(wasm.subarray(0, imports.start))).toBe(true);
    expect(patched.subarray(imports.end + 1).equals(wasm.subarray(imports.end))).toBe(true);
    expect(V8.Module.imports(new V8.Module(patched)).map((i) => i.name)).toEqual(['iswalpha', 'memory', 'table', 'g', 'größe']);
    expect(instantiate(patched, 'iswalpha').callsImport()).toBe(7);
    expect(() => instantiate(patched, 'isalpha')).toThrow(/iswalpha/); // the old name is no longer what it links
  });

  it('replace a function body, growing the code section past 127 bytes (multi-byte sizes)', () => {
    const wasm = sampleModule();
    const code = sectionOf(wasm, WASM_SECTION.code);
    const bodies = readFunctionBodies(wasm, code);
    // 150 nops, then i32.const 1000 (signed LEB128 e8 07).
    bodies[0] = Uint8Array.from([0x00, ...new Array<number>(150).fill(0x01), 0x41, 0xe8, 0x07, 0x0b]);
    const patched = replaceSectionBody(wasm, code, encodeWasmVector(bodies.map(encodeWasmBytes)));

    const after = sectionOf(patched, WASM_SECTION.code);
    expect(after.bodyStart - after.start).toBe(3); // the section's size now takes two bytes
    expect(readFunctionBodies(patched, after).map((b) => b.length)).toEqual([155, CALLER_BODY.length]);
    const run = instantiate(patched);
    expect(run.answer()).toBe(1000);
    expect(run.callsImport()).toBe(7);
    // The custom section after it moved, unchanged.
    expect(patched.subarray(after.end).equals(wasm.subarray(code.end))).toBe(true);
  });

  it('encode names as UTF-8 bytes with their byte length', () => {
    expect([...encodeWasmName('free')]).toEqual([4, ...Buffer.from('free')]);
    expect([...encodeWasmName('größe')]).toEqual([7, ...Buffer.from('größe')]);
  });

  it('refuse bytes that are not a module, a truncated module and an unknown import kind, with WASM_MALFORMED', () => {
    const malformed = expect.objectContaining({ code: 'WASM_MALFORMED', name: 'WasmFormatError' });
    expect(() => wasmSections(Buffer.from('not wasm at all'))).toThrow(malformed);
    expect(() => wasmSections(Buffer.from('not wasm at all'))).toThrow(/not a WebAssembly module/);
    expect(() => wasmSections(new Uint8Array(0))).toThrow(/not a WebAssembly module/);
    const wasm = sampleModule();
    expect(() => wasmSections(wasm.subarray(0, wasm.length - 10))).toThrow(/runs past the end of the module/);

    const imports = sectionOf(wasm, WASM_SECTION.import);
    const broken = Buffer.from(wasm);
    const first = readWasmImports(wasm, imports)[0]!;
    broken[first.descStart] = 9;
    expect(() => readWasmImports(broken, imports)).toThrow(malformed);
    expect(() => readWasmImports(broken, imports)).toThrow(/kind 9/);
    // An import section with a byte after its entries.
    const body = Buffer.concat([wasm.subarray(imports.bodyStart, imports.end), Uint8Array.of(0)]);
    const padded = replaceSectionBody(wasm, imports, body);
    expect(() => readWasmImports(padded, sectionOf(padded, WASM_SECTION.import))).toThrow(/bytes after its last entry/);
  });

  it('count function imports apart from the others', () => {
    const wasm = sampleModule();
    const functions = readWasmImports(wasm, sectionOf(wasm, WASM_SECTION.import)).filter((i) => i.kind === WASM_EXTERNAL.function);
    expect(functions.map((i) => i.name)).toEqual(['isalpha', 'größe']);
  });
});
