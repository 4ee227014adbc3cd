import { describe, expect, it } from 'vitest';
import { encodeUleb128, readUleb128 } from '../../src/build/index.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('unsigned LEB128', () => {
  it('encodes the examples of the spec and the one-byte boundary', () => {
    expect(hex(encodeUleb128(0))).toBe('00');
    expect(hex(encodeUleb128(127))).toBe('7f');
    expect(hex(encodeUleb128(128))).toBe('8001');
    expect(hex(encodeUleb128(300))).toBe('ac02');
    expect(hex(encodeUleb128(624485))).toBe('e58e26');
    expect(hex(encodeUleb128(2 ** 32 - 1))).toBe('ffffffff0f');
  });

  it('reads back what it writes, one to eight bytes long, at any offset', () => {
    const values = [
      0,
      1,
      63,
      64,
      127,
      128,
      255,
      256,
      16383,
      16384,
      624485,
      2 ** 21,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 53 - 1,
    ];
    const lengths = new Set<number>();
    for (const value of values) {
      const encoded = encodeUleb128(value);
      lengths.add(encoded.length);
      const padded = Uint8Array.from([0xaa, 0xbb, ...encoded, 0xcc]);
      expect(readUleb128(padded, 2), String(value)).toEqual([value, 2 + encoded.length]);
    }
    expect([...lengths].sort()).toEqual([1, 2, 3, 4, 5, 8]);
  });

  it('reads a padded (non-minimal) encoding, as a wasm linker may write sizes', () => {
    expect(readUleb128(Uint8Array.of(0x80, 0x00), 0)).toEqual([0, 2]);
    expect(readUleb128(Uint8Array.of(0x85, 0x80, 0x80, 0x80, 0x00), 0)).toEqual([5, 5]);
  });

  it('refuses a number the bytes end inside, or longer than a u64, with WASM_MALFORMED', () => {
    expect(() => readUleb128(Uint8Array.of(0x80, 0x80), 0)).toThrow(expect.objectContaining({ code: 'WASM_MALFORMED' }));
    expect(() => readUleb128(Uint8Array.of(0x01), 1)).toThrow(/the module is truncated/);
    expect(() => readUleb128(new Uint8Array(11).fill(0x80), 0)).toThrow(expect.objectContaining({ code: 'WASM_MALFORMED' }));
    // 2^63 fits a u64 but not a JavaScript number counted exactly.
    expect(() => readUleb128(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), 0)).toThrow(/too large/);
  });

  it('refuses to encode what is not a non-negative integer', () => {
    expect(() => encodeUleb128(-1)).toThrow(RangeError);
    expect(() => encodeUleb128(1.5)).toThrow(RangeError);
    expect(() => encodeUleb128(2 ** 53)).toThrow(RangeError);
  });
});
