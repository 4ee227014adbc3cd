import { encodeUleb128, readUleb128 } from './leb128.js';
import { WasmFormatError } from './wasm-format-error.js';

// What a plugin build needs to patch a prebuilt grammar: find a section, read its imports,
// exports or function bodies, and write one section back with a new body. Everything else of
// the module is copied byte for byte. Reference: the WebAssembly core spec, "Binary Format".

/**
 * Ids of the sections a build patches (the binary format numbers them).
 *
 * @example
 * ```ts
 * const imports = wasmSections(wasm).find((s) => s.id === WASM_SECTION.import);
 * ```
 */
export const WASM_SECTION = { custom: 0, type: 1, import: 2, function: 3, export: 7, code: 10, data: 11 } as const;

/**
 * Kinds of an import or export (`func`, `table`, `mem`, `global`, `tag`).
 *
 * @example
 * ```ts
 * const functions = readWasmImports(wasm, section).filter((i) => i.kind === WASM_EXTERNAL.function);
 * ```
 */
export const WASM_EXTERNAL = { function: 0, table: 1, memory: 2, global: 3, tag: 4 } as const;

/**
 * One section of a module, as byte offsets into it: the id byte at `start`, the body from
 * `bodyStart` to `end` (exclusive).
 *
 * @example
 * ```ts
 * const code: WasmSection | undefined = wasmSections(wasm).find((s) => s.id === WASM_SECTION.code);
 * ```
 */
export interface WasmSection {
  id: number;
  start: number;
  bodyStart: number;
  end: number;
}

/**
 * One entry of the import section. Offsets are into the module: the entry from `start` to
 * `end` (exclusive), its field name's length prefix at `nameStart`, its descriptor (kind and
 * type) at `descStart`.
 *
 * @example
 * ```ts
 * const names = readWasmImports(wasm, section).map((i: WasmImport) => `${i.module}.${i.name}`);
 * ```
 */
export interface WasmImport {
  module: string;
  name: string;
  kind: number;
  start: number;
  nameStart: number;
  descStart: number;
  end: number;
}

/**
 * One entry of the export section: its name, kind and index in that kind's index space
 * (for a function: imported functions first, then the module's own).
 *
 * @example
 * ```ts
 * const exported: WasmExport | undefined = readWasmExports(wasm, section).find((e) => e.name === 'main');
 * ```
 */
export interface WasmExport {
  name: string;
  kind: number;
  index: number;
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
const HEADER_BYTES = 8; // magic and version
const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/**
 * The sections of a module, in order.
 *
 * @throws WasmFormatError (`WASM_MALFORMED`) when the bytes are not a WebAssembly module
 *   or a section runs past the end.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { wasmSections, WASM_SECTION } from '@travsr/sdk/build';
 * const wasm = readFileSync('tree-sitter-lua.wasm');
 * const code = wasmSections(wasm).find((s) => s.id === WASM_SECTION.code);
 * ```
 */
export function wasmSections(wasm: Uint8Array): WasmSection[] {
  if (wasm.length < HEADER_BYTES || MAGIC.some((b, i) => wasm[i] !== b)) {
    throw new WasmFormatError('not a WebAssembly module: the bytes do not start with "\\0asm"; check the path of the .wasm file');
  }
  const sections: WasmSection[] = [];
  let pos = HEADER_BYTES;
  while (pos < wasm.length) {
    const id = wasm[pos]!;
    const [size, bodyStart] = readUleb128(wasm, pos + 1);
    const end = bodyStart + size;
    if (end > wasm.length) {
      throw new WasmFormatError(
        `section ${id} at byte ${pos} runs past the end of the module: it is truncated; build or download it again`,
      );
    }
    sections.push({ id, start: pos, bodyStart, end });
    pos = end;
  }
  return sections;
}

/** A cursor over one section's body. */
class SectionReader {
  constructor(
    private readonly wasm: Uint8Array,
    public pos: number,
    private readonly section: WasmSection,
  ) {}

  u32(): number {
    const [value, next] = readUleb128(this.wasm, this.pos);
    this.pos = next;
    return value;
  }

  byte(): number {
    const b = this.wasm[this.pos++];
    if (b === undefined || this.pos > this.section.end) throw this.malformed('it ends inside an entry');
    return b;
  }

  name(): string {
    const length = this.u32();
    const start = this.pos;
    this.pos += length;
    if (this.pos > this.section.end) throw this.malformed('a name runs past its end');
    return utf8.decode(this.wasm.subarray(start, this.pos));
  }

  /** Limits of a table or memory: flags, minimum, and a maximum when flag bit 0 is set. */
  limits(): void {
    const flags = this.byte();
    this.u32();
    if (flags & 1) this.u32();
  }

  malformed(why: string): WasmFormatError {
    return new WasmFormatError(`section ${this.section.id} at byte ${this.section.start} is malformed: ${why}; the module is corrupt`);
  }
}

/**
 * The entries of an import section, in order.
 *
 * @throws WasmFormatError (`WASM_MALFORMED`) on an import kind the binary format does not
 *   define, or when the entries do not fill the section exactly.
 *
 * @example
 * ```ts
 * const section = wasmSections(wasm).find((s) => s.id === WASM_SECTION.import);
 * const functions = section ? readWasmImports(wasm, section).filter((i) => i.kind === WASM_EXTERNAL.function) : [];
 * ```
 */
export function readWasmImports(wasm: Uint8Array, section: WasmSection): WasmImport[] {
  const r = new SectionReader(wasm, section.bodyStart, section);
  const count = r.u32();
  const imports: WasmImport[] = [];
  for (let i = 0; i < count; i++) {
    const start = r.pos;
    const module = r.name();
    const nameStart = r.pos;
    const name = r.name();
    const descStart = r.pos;
    const kind = r.byte();
    switch (kind) {
      case WASM_EXTERNAL.function:
        r.u32(); // type index
        break;
      case WASM_EXTERNAL.table:
        r.byte(); // reference type
        r.limits();
        break;
      case WASM_EXTERNAL.memory:
        r.limits();
        break;
      case WASM_EXTERNAL.global:
        r.byte(); // value type
        r.byte(); // mutability
        break;
      case WASM_EXTERNAL.tag:
        r.byte(); // attribute
        r.u32(); // type index
        break;
      default:
        throw r.malformed(`import ${i} has kind ${kind}, which is not a WebAssembly import kind`);
    }
    imports.push({ module, name, kind, start, nameStart, descStart, end: r.pos });
  }
  if (r.pos !== section.end) throw r.malformed('it has bytes after its last entry');
  return imports;
}

/**
 * The entries of an export section, in order.
 *
 * @example
 * ```ts
 * const section = wasmSections(wasm).find((s) => s.id === WASM_SECTION.export);
 * const target = section && readWasmExports(wasm, section).find((e) => e.name === 'tree_sitter_lua');
 * ```
 */
export function readWasmExports(wasm: Uint8Array, section: WasmSection): WasmExport[] {
  const r = new SectionReader(wasm, section.bodyStart, section);
  const count = r.u32();
  const exports: WasmExport[] = [];
  for (let i = 0; i < count; i++) {
    const name = r.name();
    const kind = r.byte();
    exports.push({ name, kind, index: r.u32() });
  }
  return exports;
}

/**
 * The function bodies of a code section (each without its size prefix; views into `wasm`),
 * in the order of the module's own functions.
 *
 * @example
 * ```ts
 * const code = wasmSections(wasm).find((s) => s.id === WASM_SECTION.code)!;
 * const bodies = readFunctionBodies(wasm, code);
 * bodies[0] = patchedBody;
 * const patched = replaceSectionBody(wasm, code, encodeWasmVector(bodies.map(encodeWasmBytes)));
 * ```
 */
export function readFunctionBodies(wasm: Uint8Array, section: WasmSection): Uint8Array[] {
  const r = new SectionReader(wasm, section.bodyStart, section);
  const count = r.u32();
  const bodies: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const size = r.u32();
    const start = r.pos;
    r.pos += size;
    if (r.pos > section.end) throw r.malformed(`function body ${i} runs past its end`);
    bodies.push(wasm.subarray(start, r.pos));
  }
  return bodies;
}

/**
 * Bytes prefixed with their length (LEB128): a function body in the code section.
 *
 * @example
 * ```ts
 * encodeWasmBytes(Uint8Array.of(0x00, 0x0b)); // Uint8Array [0x02, 0x00, 0x0b]
 * ```
 */
export function encodeWasmBytes(bytes: Uint8Array): Uint8Array {
  return Buffer.concat([encodeUleb128(bytes.length), bytes]);
}

/**
 * A name as the binary format writes it: UTF-8, prefixed with its byte length.
 *
 * @example
 * ```ts
 * encodeWasmName('free'); // Uint8Array [0x04, 0x66, 0x72, 0x65, 0x65]
 * ```
 */
export function encodeWasmName(name: string): Uint8Array {
  return encodeWasmBytes(utf8Encoder.encode(name));
}

/**
 * A vector: its item count (LEB128), then the items' bytes as given.
 *
 * @example
 * ```ts
 * encodeWasmVector(bodies.map(encodeWasmBytes)); // a code section's body
 * // an import section's body, one entry renamed (module, name, then the descriptor as it was):
 * encodeWasmVector(imports.map((i) => Buffer.concat([encodeWasmName(i.module), encodeWasmName(i.name === '_Znwm' ? 'malloc' : i.name), wasm.subarray(i.descStart, i.end)])));
 * ```
 */
export function encodeWasmVector(items: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat([encodeUleb128(items.length), ...items]);
}

/**
 * The module with one section's body replaced (its size prefix rewritten); every other byte
 * is copied as it was.
 *
 * @example
 * ```ts
 * const imports = wasmSections(wasm).find((s) => s.id === WASM_SECTION.import)!;
 * const patched = replaceSectionBody(wasm, imports, newBody);
 * ```
 */
export function replaceSectionBody(wasm: Uint8Array, section: WasmSection, body: Uint8Array): Buffer {
  return Buffer.concat([
    wasm.subarray(0, section.start),
    Uint8Array.of(section.id),
    encodeUleb128(body.length),
    body,
    wasm.subarray(section.end),
  ]);
}
