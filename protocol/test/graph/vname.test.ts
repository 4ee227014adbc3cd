import { blake3 } from '@noble/hashes/blake3';
import { bytesToHex } from '@noble/hashes/utils';
import { describe, expect, it } from 'vitest';
import { canonicalVName, formatVName, nodeId } from '../../src/graph/vname.js';
import type { VName } from '../../src/schema/graph.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const v = (corpus: string, root: string, path: string, language: string, signature: string): VName => ({
  corpus,
  root,
  path,
  language,
  signature,
});

/** The worked example of SPEC.md ("NodeId"). */
const CART_TOTAL = v('github.com/acme/shop', '', 'src/cart.py', 'python', 'Cart.total');

describe('canonicalVName', () => {
  it('writes each field as a 4-byte big-endian byte length and its UTF-8 bytes, in field order', () => {
    // written by hand: "c" | "" | "a.ts" | "ts" | "f"
    expect(hex(canonicalVName(v('c', '', 'a.ts', 'ts', 'f')))).toBe(
      '00000001' + '63' + '00000000' + '00000004' + '612e7473' + '00000002' + '7473' + '00000001' + '66',
    );
  });

  it('encodes the SPEC.md worked example to the bytes the spec shows', () => {
    expect(hex(canonicalVName(CART_TOTAL))).toBe(
      '00000014' +
        Buffer.from('github.com/acme/shop').toString('hex') +
        '00000000' +
        '0000000b' +
        Buffer.from('src/cart.py').toString('hex') +
        '00000006' +
        Buffer.from('python').toString('hex') +
        '0000000a' +
        Buffer.from('Cart.total').toString('hex'),
    );
  });

  it('counts UTF-8 bytes, not characters or UTF-16 units', () => {
    const bytes = canonicalVName(v('', '', 'é', 'x', '🚀'));
    // path "é" is 2 bytes (c3 a9); signature "🚀" is 4 bytes (f0 9f 9a 80)
    expect(hex(bytes)).toBe('00000000' + '00000000' + '00000002c3a9' + '0000000178' + '00000004f09f9a80');
  });

  it('is unambiguous where a separator-joined string would not be', () => {
    const pairs: [VName, VName][] = [
      [v('a', 'bc', '', 'x', ''), v('ab', 'c', '', 'x', '')],
      [v('', '', 'src/a', 'x', 'b'), v('', '', 'src/', 'x', 'ab')],
      [v('', '', 'a', 'x', ''), v('', '', '', 'x', 'a')],
      [v('', '', 'a\u0000', 'x', ''), v('', '', 'a', 'x', '\u0000')],
    ];
    for (const [a, b] of pairs) {
      expect(hex(canonicalVName(a))).not.toBe(hex(canonicalVName(b)));
      expect(nodeId(a)).not.toBe(nodeId(b));
    }
  });

  it('does not normalise Unicode: NFC and NFD spellings are different VNames', () => {
    const nfc = v('', '', 'caf\u00e9.py', 'python', '');
    const nfd = v('', '', 'cafe\u0301.py', 'python', '');
    expect(nodeId(nfc)).not.toBe(nodeId(nfd));
  });
});

describe('nodeId', () => {
  it('uses standard BLAKE3-256 (official test vectors)', () => {
    expect(bytesToHex(blake3(new Uint8Array()))).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    expect(bytesToHex(blake3(new TextEncoder().encode('abc')))).toBe('6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  });

  it('is BLAKE3-256 of the canonical encoding, as 64 lowercase hex digits', () => {
    expect(nodeId(CART_TOTAL)).toBe(bytesToHex(blake3(canonicalVName(CART_TOTAL))));
    expect(nodeId(CART_TOTAL)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps its golden values (a change here changes every stored graph)', () => {
    expect(nodeId(CART_TOTAL)).toBe('24b37bd83870a3ed227a7fd867e830d64f0382b423dfe664ecf3e85be395e24c');
    expect(nodeId(v('', '', '', 'x', ''))).toBe(bytesToHex(blake3(Buffer.from('0000000000000000000000000000000178' + '00000000', 'hex'))));
  });

  it('depends on every field', () => {
    const ids = new Set([
      nodeId(CART_TOTAL),
      nodeId({ ...CART_TOTAL, corpus: 'github.com/acme/shop2' }),
      nodeId({ ...CART_TOTAL, root: 'gen' }),
      nodeId({ ...CART_TOTAL, path: 'src/cart2.py' }),
      nodeId({ ...CART_TOTAL, language: 'cython' }),
      nodeId({ ...CART_TOTAL, signature: 'Cart.total2' }),
    ]);
    expect(ids.size).toBe(6);
  });
});

describe('formatVName', () => {
  it('reads as path#signature (language), with the corpus in front when there is one', () => {
    expect(formatVName(CART_TOTAL)).toBe('github.com/acme/shop/src/cart.py#Cart.total (python)');
    expect(formatVName({ ...CART_TOTAL, corpus: '' })).toBe('src/cart.py#Cart.total (python)');
  });
});
