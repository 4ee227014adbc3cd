import { DEFAULT_MAX_FRAME_BYTES, FRAME_HEADER_BYTES } from '../version.js';
import { ProtocolError, ProtocolErrorCode } from '../errors.js';
import { packValue, unpackValue } from './msgpack.js';

/**
 * Encodes one message as a frame: a 4-byte unsigned big-endian length N, then N bytes of
 * standard MessagePack.
 *
 * @throws ProtocolError `FRAME_TOO_LARGE` when the body exceeds `maxFrameBytes`.
 * @example
 * ```ts
 * const frame = encodeFrame({ kind: 'request', id: 1, method: 'ping' });
 * frame.readUInt32BE(0) === frame.length - 4; // true
 * ```
 */
export function encodeFrame(message: unknown, maxFrameBytes: number = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const body = packValue(message);
  if (body.length > maxFrameBytes) {
    throw new ProtocolError(ProtocolErrorCode.FrameTooLarge, `frame of ${body.length} bytes exceeds the ${maxFrameBytes}-byte limit`, {
      size: body.length,
      limit: maxFrameBytes,
    });
  }
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

/** Options of a {@link FrameDecoder}. */
export interface FrameDecoderOptions {
  /** Largest frame body accepted; checked on the length prefix, before any allocation. */
  maxFrameBytes?: number;
}

/**
 * Incremental frame decoder: push bytes in chunks of any size (one byte at a time, or many
 * frames at once) and collect whole decoded messages. A length over the limit is rejected
 * as soon as the 4-byte prefix is known, before the body is buffered or allocated.
 *
 * After any error the decoder is poisoned: a byte stream with one bad frame cannot be
 * resynchronised, so the session must end.
 *
 * @example
 * ```ts
 * const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20 });
 * for (const message of decoder.push(chunk)) handle(message);
 * ```
 */
export class FrameDecoder {
  readonly maxFrameBytes: number;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private expected = -1;
  private failure: ProtocolError | undefined;
  /** Total frames decoded so far. */
  framesDecoded = 0;
  /** Total bytes consumed so far, prefixes included. */
  bytesDecoded = 0;

  constructor(options: FrameDecoderOptions = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /** Bytes received but not yet part of a complete frame. */
  get pendingBytes(): number {
    return this.buffered;
  }

  /**
   * Feeds a chunk and returns every message it completes, in order.
   * @throws ProtocolError on an oversized, empty or undecodable frame.
   */
  push(chunk: Uint8Array): unknown[] {
    if (this.failure) throw this.failure;
    if (chunk.length === 0) return [];
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    this.buffered += chunk.length;
    const out: unknown[] = [];
    try {
      for (;;) {
        if (this.expected < 0) {
          if (this.buffered < FRAME_HEADER_BYTES) break;
          const length = this.take(FRAME_HEADER_BYTES).readUInt32BE(0);
          if (length > this.maxFrameBytes) {
            throw new ProtocolError(
              ProtocolErrorCode.FrameTooLarge,
              `peer announced a frame of ${length} bytes, over the ${this.maxFrameBytes}-byte limit${textHint(length)}`,
              { size: length, limit: this.maxFrameBytes },
            );
          }
          if (length === 0) {
            throw new ProtocolError(ProtocolErrorCode.FrameEmpty, 'peer sent an empty frame (length 0)');
          }
          this.expected = length;
        }
        if (this.buffered < this.expected) break;
        const body = this.take(this.expected);
        this.bytesDecoded += FRAME_HEADER_BYTES + this.expected;
        this.expected = -1;
        out.push(unpackValue(body));
        this.framesDecoded++;
      }
    } catch (e) {
      this.failure = e as ProtocolError;
      this.chunks = [];
      this.buffered = 0;
      throw e;
    }
    return out;
  }

  /**
   * Call when the stream ends. Throws `FRAME_TRUNCATED` if a partial frame is left over.
   */
  end(): void {
    if (this.failure) return;
    if (this.buffered > 0 || this.expected >= 0) {
      throw new ProtocolError(
        ProtocolErrorCode.FrameTruncated,
        `stream ended inside a frame (${this.buffered} byte(s) of ${this.expected < 0 ? 'a length prefix' : `a ${this.expected}-byte body`})`,
      );
    }
  }

  /** Removes and returns the first `n` buffered bytes, copying only when they span chunks. */
  private take(n: number): Buffer {
    const first = this.chunks[0]!;
    let result: Buffer;
    if (first.length >= n) {
      result = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      result = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const c = this.chunks[0]!;
        const want = n - filled;
        if (c.length <= want) {
          c.copy(result, filled);
          filled += c.length;
          this.chunks.shift();
        } else {
          c.copy(result, filled, 0, want);
          this.chunks[0] = c.subarray(want);
          filled += want;
        }
      }
    }
    this.buffered -= n;
    return result;
  }
}

/**
 * When a "length prefix" is four printable ASCII characters, the peer almost certainly
 * wrote text to the frame stream (a stray console.log): say so.
 */
function textHint(length: number): string {
  const bytes = [length >>> 24, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff];
  if (!bytes.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09)) return '';
  const text = JSON.stringify(String.fromCharCode(...bytes));
  return ` (its first bytes, ${text}, look like text: the frame stream carries frames only; logs go to stderr)`;
}
