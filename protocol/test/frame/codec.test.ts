import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeFrame, FrameDecoder } from '../../src/frame/codec.js';
import { ProtocolError } from '../../src/errors.js';
import { assertEnvelope, assertSchema } from '../../src/schema/validate.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../../src/version.js';
import {
  fromCorpusJson,
  loadCorpus,
  memberOf,
  randomChunks,
  schemaByName,
  seededRandom,
  toCorpusJson,
  type CorpusCase,
} from '../helpers/corpus.js';

const corpus = loadCorpus();
const valid = corpus.filter((c) => c.valid);
const rejected = corpus.filter((c) => !c.valid);
const frameRejected = rejected.filter((c) => c.error !== 'SCHEMA_VIOLATION');
const schemaRejected = rejected.filter((c) => c.error === 'SCHEMA_VIOLATION');

function decoderFor(c: CorpusCase): FrameDecoder {
  return new FrameDecoder(c.maxFrameBytes === undefined ? {} : { maxFrameBytes: c.maxFrameBytes });
}

/** Feeds the chunks, then ends the stream; returns the messages in corpus JSON form. */
function decodeChunks(c: CorpusCase, chunks: Iterable<Uint8Array>): unknown[] {
  const decoder = decoderFor(c);
  const out: unknown[] = [];
  for (const chunk of chunks) out.push(...decoder.push(chunk));
  decoder.end();
  return out.map(toCorpusJson);
}

/** The code of the error decoding `chunks` raises (the test fails if none is raised). */
function errorCodeOf(c: CorpusCase, chunks: Iterable<Uint8Array>): string {
  try {
    decodeChunks(c, chunks);
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolError);
    return (e as ProtocolError).code;
  }
  throw new Error(`${c.file}: decoded without an error`);
}

function* byteByByte(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

/** Validates a decoded message the way a receiver does: envelope, then the stated method schema. */
function validateAs(message: unknown, schema: string): void {
  assertEnvelope(message);
  const member = memberOf(schema);
  if (member) {
    const value = (message as Record<string, unknown>)[member];
    assertSchema(schemaByName(schema), member === 'params' ? (value ?? {}) : value, schema);
  } else if (schema !== 'envelope') {
    assertSchema(schemaByName(schema), message, schema);
  }
}

describe('frame corpus', () => {
  it('has valid and rejected cases for every error code', () => {
    expect(valid.length).toBeGreaterThan(40);
    const codes = new Set(rejected.map((c) => c.error));
    for (const code of [
      'FRAME_TOO_LARGE',
      'FRAME_EMPTY',
      'FRAME_UNDECODABLE',
      'FRAME_TRAILING_BYTES',
      'FRAME_UNSUPPORTED_TYPE',
      'FRAME_TRUNCATED',
      'SCHEMA_VIOLATION',
    ]) {
      expect(codes, code).toContain(code);
    }
  });

  describe.each(valid.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    it('decodes to the expected messages', () => {
      expect(decodeChunks(c, [c.bytes])).toEqual(c.messages);
    });

    if (c.schema !== undefined) {
      const schema = c.schema;
      it(`validates as ${schema}`, () => {
        for (const m of c.messages) validateAs(m, schema);
      });
    }

    it('re-encodes to frames that decode to the same messages', () => {
      const reencoded = Buffer.concat(c.messages.map((m) => encodeFrame(fromCorpusJson(m), c.maxFrameBytes)));
      expect(decodeChunks(c, [reencoded])).toEqual(c.messages);
      if (c.canonical) expect(reencoded.toString('hex')).toBe(c.bytes.toString('hex'));
    });

    it('decodes the same at every chunking', () => {
      expect(decodeChunks(c, byteByByte(c.bytes))).toEqual(c.messages);
      // every split into two chunks (every point for short streams, a stride for long ones)
      const stride = Math.max(1, Math.floor(c.bytes.length / 200));
      for (let at = 0; at <= c.bytes.length; at += stride) {
        expect(decodeChunks(c, [c.bytes.subarray(0, at), c.bytes.subarray(at)])).toEqual(c.messages);
      }
      const random = seededRandom(c.bytes.length);
      for (let round = 0; round < 20; round++) {
        expect(decodeChunks(c, randomChunks(c.bytes, random, 1 + round * 7))).toEqual(c.messages);
      }
    });
  });

  it('decodes all valid streams concatenated into one, at random chunkings', () => {
    const framed = valid.filter((c) => c.maxFrameBytes === undefined);
    const all = Buffer.concat(framed.map((c) => c.bytes));
    const expected = framed.flatMap((c) => c.messages);
    const random = seededRandom(20240611);
    const probe = { ...framed[0]!, maxFrameBytes: DEFAULT_MAX_FRAME_BYTES } as CorpusCase;
    for (const max of [1, 3, 17, 256, 4096]) {
      expect(decodeChunks(probe, randomChunks(all, random, max))).toEqual(expected);
    }
  });

  describe.each(frameRejected.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    it(`is rejected with ${c.error}`, () => {
      expect(errorCodeOf(c, [c.bytes])).toBe(c.error);
    });

    it('is rejected with the same code when fed byte by byte and in random chunks', () => {
      expect(errorCodeOf(c, byteByByte(c.bytes))).toBe(c.error);
      expect(errorCodeOf(c, randomChunks(c.bytes, seededRandom(7), 5))).toBe(c.error);
    });
  });

  describe.each(schemaRejected.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    it(`decodes, then fails ${c.schema} with SCHEMA_VIOLATION`, () => {
      const [message] = decodeChunks(c, [c.bytes]);
      expect(message).toEqual(c.messages[0]);
      const schema = c.schema!;
      if (schema === 'envelope') {
        expect(() => assertEnvelope(message)).toThrow(expect.objectContaining({ code: 'SCHEMA_VIOLATION' }));
      } else {
        expect(() => assertEnvelope(message), 'the envelope itself is valid').not.toThrow();
        expect(() => validateAs(message, schema)).toThrow(expect.objectContaining({ code: 'SCHEMA_VIOLATION' }));
      }
    });
  });
});

describe('FrameDecoder', () => {
  afterEach(() => vi.restoreAllMocks());

  it('rejects a length over the limit from the prefix alone, without allocating for it', () => {
    const allocUnsafe = vi.spyOn(Buffer, 'allocUnsafe');
    const alloc = vi.spyOn(Buffer, 'alloc');
    const decoder = new FrameDecoder();
    // 4 GiB - 1 announced, no body: the error comes at once, not when the body would arrive
    expect(() => decoder.push(Buffer.from('ffffffff', 'hex'))).toThrow(expect.objectContaining({ code: 'FRAME_TOO_LARGE' }));
    expect(decoder.pendingBytes).toBe(0);
    const sizes = [...allocUnsafe.mock.calls, ...alloc.mock.calls].map((call) => call[0]);
    expect(sizes.every((n) => n <= 16)).toBe(true);
  });

  it('rejects an oversized prefix that arrives one byte at a time as soon as its fourth byte arrives', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
    expect(decoder.push(Uint8Array.of(0x00))).toEqual([]);
    expect(decoder.push(Uint8Array.of(0x00))).toEqual([]);
    expect(decoder.push(Uint8Array.of(0x04))).toEqual([]);
    expect(() => decoder.push(Uint8Array.of(0x01))).toThrow(/1025 bytes, over the 1024-byte limit/);
  });

  it('buffers only the bytes received for a large frame, never the announced size', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 8 * 1024 * 1024 });
    const allocUnsafe = vi.spyOn(Buffer, 'allocUnsafe');
    decoder.push(Buffer.from([0x00, 0x80, 0x00, 0x00])); // 8 MiB announced
    decoder.push(Buffer.alloc(100));
    expect(decoder.pendingBytes).toBe(100);
    expect(allocUnsafe.mock.calls.every((call) => call[0] <= 100)).toBe(true);
  });

  it('is poisoned after an error: later input rethrows the same error and end() stays quiet', () => {
    const decoder = new FrameDecoder();
    let first: unknown;
    try {
      decoder.push(Buffer.from('00000000', 'hex'));
    } catch (e) {
      first = e;
    }
    expect(first).toMatchObject({ code: 'FRAME_EMPTY' });
    const good = encodeFrame({ kind: 'request', id: 1, method: 'ping' });
    expect(() => decoder.push(good)).toThrow(first);
    expect(decoder.pendingBytes).toBe(0);
    expect(() => decoder.end()).not.toThrow();
  });

  it('keeps frames that completed before an error in the same chunk out of the result: the chunk throws', () => {
    const decoder = new FrameDecoder();
    const chunk = Buffer.concat([encodeFrame({ kind: 'request', id: 1, method: 'ping' }), Buffer.from('00000000', 'hex')]);
    expect(() => decoder.push(chunk)).toThrow(expect.objectContaining({ code: 'FRAME_EMPTY' }));
  });

  it('reports a stream that ends inside a frame, and a clean end', () => {
    const d1 = new FrameDecoder();
    d1.push(Buffer.from('0000', 'hex'));
    expect(() => d1.end()).toThrow(/stream ended inside a frame \(2 byte\(s\) of a length prefix\)/);
    const d2 = new FrameDecoder();
    d2.push(Buffer.from('00000005a3', 'hex'));
    expect(() => d2.end()).toThrow(/of a 5-byte body/);
    const d3 = new FrameDecoder();
    d3.push(encodeFrame(1));
    expect(() => d3.end()).not.toThrow();
  });

  it('accepts plain Uint8Array chunks and counts frames and bytes', () => {
    const decoder = new FrameDecoder();
    const frames = Buffer.concat([encodeFrame('a'), encodeFrame([1, 2])]);
    const copy = new Uint8Array(frames.length + 3).subarray(3);
    copy.set(frames);
    expect(decoder.push(copy)).toEqual(['a', [1, 2]]);
    expect(decoder.framesDecoded).toBe(2);
    expect(decoder.bytesDecoded).toBe(frames.length);
    expect(decoder.push(new Uint8Array())).toEqual([]);
  });
});

describe('encodeFrame', () => {
  it('writes the body length big-endian in front of the body', () => {
    const frame = encodeFrame({ kind: 'notification', method: 'cancel', params: { id: 300 } });
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    expect(frame.subarray(0, 4).toString('hex')).toBe('0000002f');
  });

  it('refuses a body over the limit', () => {
    expect(() => encodeFrame({ message: 'x'.repeat(100) }, 64)).toThrow(expect.objectContaining({ code: 'FRAME_TOO_LARGE' }));
    expect(encodeFrame({ m: 'x'.repeat(50) }, 64).length).toBeLessThanOrEqual(68);
  });

  it('refuses values that standard MessagePack cannot carry instead of writing extensions', () => {
    for (const value of [[undefined], { at: new Date(0) }, new Map([[1, 'one']]), [() => 1]]) {
      expect(() => encodeFrame(value)).toThrow(expect.objectContaining({ code: 'FRAME_UNSUPPORTED_TYPE' }));
    }
  });

  it('drops undefined object members rather than encoding them', () => {
    const frame = encodeFrame({ kind: 'request', id: 1, method: 'ping', params: undefined });
    expect(new FrameDecoder().push(frame)).toEqual([{ kind: 'request', id: 1, method: 'ping' }]);
  });
});
