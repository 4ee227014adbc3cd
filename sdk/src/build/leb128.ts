import { WasmFormatError } from './wasm-format-error.js';

/** LEB128 groups are 7 bits: ten of them hold a u64, the widest number WebAssembly writes. */
const MAX_GROUPS = 10;

/**
 * Reads an unsigned LEB128 number (what WebAssembly uses for every size, count and index)
 * at `offset`: its value and the offset just after it.
 *
 * @throws WasmFormatError (`WASM_MALFORMED`) when the bytes end inside the number, it is
 *   longer than a u64, or its value is above `Number.MAX_SAFE_INTEGER`.
 *
 * @example
 * ```ts
 * readUleb128(Uint8Array.of(0xe5, 0x8e, 0x26), 0); // [624485, 3]
 * ```
 */
export function readUleb128(bytes: Uint8Array, offset: number): [value: number, next: number] {
  let value = 0;
  let pos = offset;
  for (let group = 0; group < MAX_GROUPS; group++) {
    const byte = bytes[pos++];
    if (byte === undefined) {
      throw new WasmFormatError(
        `the bytes end inside the LEB128 number at byte ${offset}: the module is truncated; build or download it again`,
      );
    }
    value += (byte & 0x7f) * 2 ** (7 * group);
    if ((byte & 0x80) === 0) {
      if (!Number.isSafeInteger(value))
        throw new WasmFormatError(`the LEB128 number at byte ${offset} is too large to count with: the module is corrupt`);
      return [value, pos];
    }
  }
  throw new WasmFormatError(`the LEB128 number at byte ${offset} is longer than ${MAX_GROUPS} bytes: the module is corrupt`);
}

/**
 * The shortest unsigned LEB128 encoding of `value`, as a WebAssembly writer emits sizes.
 *
 * @throws RangeError when `value` is not a non-negative safe integer.
 *
 * @example
 * ```ts
 * encodeUleb128(624485); // Uint8Array [0xe5, 0x8e, 0x26]
 * encodeUleb128(127); // Uint8Array [0x7f]; 128 takes two bytes: [0x80, 0x01]
 * ```
 */
export function encodeUleb128(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`cannot encode ${value} as unsigned LEB128: not a non-negative integer`);
  const out: number[] = [];
  let rest = value;
  do {
    // Division, not `>>>`: sizes above 2^31 must survive.
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return Uint8Array.from(out);
}
