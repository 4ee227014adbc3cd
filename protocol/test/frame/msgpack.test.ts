import { describe, expect, it } from 'vitest';
import { packValue, unpackValue } from '../../src/frame/msgpack.js';
import { MAX_NESTING_DEPTH } from '../../src/version.js';

describe('packValue / unpackValue', () => {
  it.each([
    ['nil', null],
    ['booleans', [true, false]],
    [
      'integers at every width boundary',
      [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, -1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31)],
    ],
    ['floats', [0.5, -1.25, 1e300, Number.MIN_VALUE]],
    ['strings', ['', 'a', 'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(256), 'x'.repeat(65536), 'é🚀计算']],
    ['nested containers', { a: [1, { b: [[], {}] }], ключ: { '': null } }],
    ['a map of 70000 keys', Object.fromEntries(Array.from({ length: 70000 }, (_, i) => [`k${i}`, i]))],
  ])('round-trips %s', (_what, value) => {
    expect(unpackValue(packValue(value))).toEqual(value);
  });

  it('round-trips bytes as bin', () => {
    const bytes = Uint8Array.of(0, 1, 254, 255);
    const back = unpackValue(packValue({ data: bytes })) as { data: Uint8Array };
    expect(packValue(bytes)[0]).toBe(0xc4);
    expect(Buffer.from(back.data).equals(Buffer.from(bytes))).toBe(true);
  });

  it('writes integers beyond 32 bits as float64 (SPEC.md: receivers accept integral floats)', () => {
    expect(packValue(2 ** 40).toString('hex')).toBe('cb4270000000000000');
    expect(unpackValue(packValue(2 ** 40))).toBe(2 ** 40);
    // and reads a uint64 within the safe range as a number
    expect(unpackValue(Buffer.from('cf001fffffffffffff', 'hex'))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('accepts nesting up to the limit and refuses one level more, without exhausting the stack', () => {
    const at = Buffer.concat([Buffer.alloc(MAX_NESTING_DEPTH, 0x91), Buffer.of(0xc0)]);
    expect(() => unpackValue(at)).not.toThrow();
    const over = Buffer.concat([Buffer.alloc(MAX_NESTING_DEPTH + 1, 0x91), Buffer.of(0xc0)]);
    expect(() => unpackValue(over)).toThrow(expect.objectContaining({ code: 'FRAME_UNDECODABLE' }));
    const hostile = Buffer.alloc(1_000_000, 0x91);
    expect(() => unpackValue(hostile)).toThrow(/nest deeper than 256 levels/);
  });

  it('names the offending byte offset and type in its errors', () => {
    expect(() => unpackValue(Buffer.from('81a161d40100', 'hex'))).toThrow('frame holds an extension type (0xd4) at byte 3');
    expect(() => unpackValue(Buffer.from('810101', 'hex'))).toThrow(
      'frame holds a map key of type int at byte 1: map keys must be strings',
    );
    expect(() => unpackValue(Buffer.from('c0c0', 'hex'))).toThrow('frame holds 1 byte(s) after its MessagePack value');
  });

  it('does not let a "__proto__" key change the prototype of what it decodes', () => {
    // {"__proto__": {"polluted": true}}
    const bytes = Buffer.from('81a95f5f70726f746f5f5f81a8706f6c6c75746564c3', 'hex');
    const value = unpackValue(bytes) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
