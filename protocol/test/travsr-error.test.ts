import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from '../src/frame/codec.js';
import { Connection, ConnectionError } from '../src/node/connection.js';
import { ProtocolError, WireErrorCode, WireException, wireErrorFrom } from '../src/errors.js';
import { TravsrError, errorCode } from '../src/travsr-error.js';

// The example of TravsrError's JSDoc, as written there.
class CacheError extends TravsrError {
  override readonly name = 'CacheError';
  constructor(
    readonly code: 'CACHE_CORRUPT' | 'CACHE_FULL',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A subclass in the style of `LaunchSpecError`: code as a field, Error's own constructor. */
class FixedCodeError extends TravsrError {
  override readonly name = 'FixedCodeError';
  readonly code = 'FIXED_CODE';
}

/** What `fn` throws (fails the test when it returns). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('TravsrError', () => {
  it('gives every subclass a code, its own name, the message and the stack of an Error', () => {
    const e = new CacheError('CACHE_FULL', 'the cache is full; run `travsr cache prune`');
    expect(e).toBeInstanceOf(TravsrError);
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe('CACHE_FULL');
    expect(e.name).toBe('CacheError');
    expect(e.message).toBe('the cache is full; run `travsr cache prune`');
    expect(String(e)).toBe('CacheError: the cache is full; run `travsr cache prune`');
    expect(e.stack).toMatch(/^CacheError: the cache is full/);
    expect(errorCode(e)).toBe('CACHE_FULL');
  });

  it('tells subclasses apart by code and class, and all from a plain Error', () => {
    const errors: unknown[] = [new CacheError('CACHE_CORRUPT', 'a'), new FixedCodeError('b'), new Error('c')];
    expect(errors.map((e) => e instanceof TravsrError)).toEqual([true, true, false]);
    expect(errors.map((e) => e instanceof CacheError)).toEqual([true, false, false]);
    expect(errors.map(errorCode)).toEqual(['CACHE_CORRUPT', 'FIXED_CODE', undefined]);
  });

  it('keeps the cause given in the standard option, and has none otherwise', () => {
    const io = thrown(() => readFileSync(join(tmpdir(), 'travsr-no-such-file-' + process.pid)));
    const e = new CacheError('CACHE_CORRUPT', 'the cache index cannot be read', { cause: io });
    expect(e.cause).toBe(io);
    expect(errorCode(e.cause)).toBe('ENOENT');
    expect('cause' in new CacheError('CACHE_FULL', 'full')).toBe(false);
    expect(new FixedCodeError('with a cause', { cause: 'why' }).cause).toBe('why');
  });

  it('adds no property of its own: an error serializes to exactly its subclass fields', () => {
    const e = new CacheError('CACHE_FULL', 'full');
    expect(Object.keys(e).sort()).toEqual(['code', 'name']);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ name: 'CacheError', code: 'CACHE_FULL' });
    expect(JSON.parse(JSON.stringify(new ProtocolError('SCHEMA_VIOLATION', 'bad', { at: '/x' })))).toEqual({
      name: 'ProtocolError',
      code: 'SCHEMA_VIOLATION',
      details: { at: '/x' },
    });
  });
});

describe('errorCode', () => {
  it("reads a foreign error's string code (Node's ENOENT)", () => {
    expect(errorCode(thrown(() => readFileSync(join(tmpdir(), 'travsr-no-such-file-' + process.pid))))).toBe('ENOENT');
  });

  it('reads the code of an error from another copy of the class (a plugin bundles its own)', () => {
    const other = Object.assign(new Error('from another bundle'), { name: 'ProtocolError', code: 'FRAME_TOO_LARGE' });
    expect(other instanceof TravsrError).toBe(false);
    expect(errorCode(other)).toBe('FRAME_TOO_LARGE');
  });

  it('answers undefined for no code, a numeric code, and things that are not objects', () => {
    const wire = new WireException(WireErrorCode.InvalidParams, 'files must not be empty');
    for (const e of [new Error('plain'), wire, { code: 3 }, { code: null }, null, undefined, 'FRAME_TOO_LARGE', 42]) {
      expect(errorCode(e)).toBeUndefined();
    }
  });
});

describe('the protocol errors on the base', () => {
  it('ProtocolError from the frame decoder: a TravsrError with its code and details', () => {
    const big = encodeFrame({ kind: 'notification', method: 'log', params: { level: 'info', message: 'x'.repeat(200) } });
    const e = thrown(() => new FrameDecoder({ maxFrameBytes: 64 }).push(big));
    expect(e).toBeInstanceOf(ProtocolError);
    expect(e).toBeInstanceOf(TravsrError);
    expect(errorCode(e)).toBe('FRAME_TOO_LARGE');
    expect((e as ProtocolError).name).toBe('ProtocolError');
  });

  it('ConnectionError from a request on a closed connection: a TravsrError with its code', async () => {
    const conn = new Connection(new PassThrough(), new PassThrough(), { role: 'host' });
    conn.close();
    const e: unknown = await conn.request('ping', { nonce: 1 }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e).toBeInstanceOf(TravsrError);
    expect(errorCode(e)).toBe('CONNECTION_CLOSED');
    expect((e as ConnectionError).name).toBe('ConnectionError');
  });

  it('WireException stays the wire family: a numeric code, not a TravsrError', () => {
    const e = new WireException(WireErrorCode.InvalidParams, 'files must not be empty', { field: 'files' });
    expect(e).not.toBeInstanceOf(TravsrError);
    expect(wireErrorFrom(e)).toEqual({ code: WireErrorCode.InvalidParams, message: 'files must not be empty', data: { field: 'files' } });
  });
});
