import type * as Msgpackr from 'msgpackr';
// The `pack` / `unpack` entries are msgpackr without its stream classes and native decoder,
// which the main entry loads at once (~100 ms); see upgradeDecoder for the native one.
// Their typings re-export from '.', which ES module resolution cannot follow, hence the casts.
import * as packEntry from 'msgpackr/pack';
import * as unpackEntry from 'msgpackr/unpack';

import { ProtocolError, ProtocolErrorCode } from '../errors.js';
import { MAX_NESTING_DEPTH } from '../version.js';

const { Packr } = packEntry as unknown as Pick<typeof Msgpackr, 'Packr'>;
const { Unpackr } = unpackEntry as unknown as Pick<typeof Msgpackr, 'Unpackr'>;

/**
 * Standard MessagePack only: no msgpackr records, no structured clone, no extension
 * types, so that any msgpack library in any language reads and writes the same bytes.
 * `undefined` object properties are dropped rather than encoded as an extension.
 */
const packr = new Packr({
  // skipValues exists at runtime (msgpackr ≥1.10) but is missing from its typings.
  ...({ skipValues: [undefined] } as object),
  useRecords: false,
  structuredClone: false,
  moreTypes: false,
  bundleStrings: false,
  useFloat32: 0,
  encodeUndefinedAsNil: false,
  variableMapSize: true,
  largeBigIntToFloat: true,
});

const unpackr = new Unpackr({
  useRecords: false,
  structuredClone: false,
  moreTypes: false,
  bundleStrings: false,
  mapsAsObjects: true,
  int64AsType: 'number',
});

/**
 * Encodes one value as standard MessagePack.
 *
 * @throws ProtocolError `FRAME_UNSUPPORTED_TYPE` when the value holds something standard
 * MessagePack cannot carry (`undefined` in an array, a `Date`, a function, a `Map` with
 * non-string keys), which msgpackr would otherwise write as an extension the peer must reject.
 */
export function packValue(value: unknown): Buffer {
  const bytes = packr.pack(value);
  checkStandardMessagePack(bytes, 'value to send');
  return bytes;
}

/**
 * Decodes exactly one MessagePack value from `bytes`. Rejects trailing bytes, extension
 * types (including the timestamp extension) and anything else that is not plain data.
 */
export function unpackValue(bytes: Uint8Array): unknown {
  countDecoded(bytes.length);
  // msgpackr decodes some extensions even with records and structured clone off (its record
  // definitions, bundled strings, typed arrays), so the bytes are checked before it sees them.
  checkStandardMessagePack(bytes, 'frame');
  let value: unknown;
  try {
    value = unpackr.unpack(bytes);
  } catch (e) {
    const reason = (e as Error).message;
    if (reason.includes('end of buffer not reached')) {
      throw new ProtocolError(
        ProtocolErrorCode.FrameTrailingBytes,
        'frame holds bytes after its MessagePack value: a frame carries exactly one value',
      );
    }
    throw new ProtocolError(ProtocolErrorCode.FrameUndecodable, `frame is not valid MessagePack: ${reason}`);
  }
  if (!isPlainData(value)) assertPlainData(value, '');
  return value;
}

/**
 * Bytes a process decodes before it loads msgpackr's native string decoder: about where
 * decoding twice as fast has paid for loading it (~80 ms), so a short command (one file's
 * frames) never loads it and a full index does early on.
 */
export const NATIVE_DECODER_AFTER_BYTES = 8 * 1024 * 1024;
let decodedBytes = 0;

function countDecoded(length: number): void {
  if (decodedBytes >= NATIVE_DECODER_AFTER_BYTES) return;
  decodedBytes += length;
  if (decodedBytes >= NATIVE_DECODER_AFTER_BYTES) upgradeDecoder();
}

/**
 * Loads msgpackr's main entry in the background: it installs the native string decoder
 * (msgpackr-extract, when installed and not disabled) in the module that `msgpackr/unpack`
 * shares, so `unpackr` uses it from then on. Without the addon nothing changes.
 */
function upgradeDecoder(): void {
  import('msgpackr').catch(() => {
    // The JavaScript decoder goes on working; the native one is only faster.
  });
}

/** The fast check on the hot path: no path strings are built unless something is wrong. */
function isPlainData(value: unknown): boolean {
  if (value === null) return true;
  const t = typeof value;
  if (t === 'string' || t === 'boolean' || t === 'number') return true;
  if (t !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainData(value[i])) return false;
    return true;
  }
  if (value instanceof Uint8Array) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value as object) if (!isPlainData((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** The slow walk that names where the offending value is; only run once isPlainData failed. */
function assertPlainData(value: unknown, path: string): void {
  if (value === null) return;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      return;
    case 'object':
      break;
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      throw unsupported(path, typeof value);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) assertPlainData(value[i], `${path}/${i}`);
    return;
  }
  if (value instanceof Uint8Array) return;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    throw unsupported(path, value.constructor?.name ?? 'object');
  }
  for (const key of Object.keys(value)) {
    assertPlainData((value as Record<string, unknown>)[key], `${path}/${key}`);
  }
}

function unsupported(path: string, what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.FrameUnsupportedType,
    `frame holds a ${what} at "${path || '/'}": only standard MessagePack types (nil, bool, int, float, str, bin, array, map) are allowed`,
  );
}

/**
 * Walks the MessagePack bytes of one value without decoding them and throws on the first
 * problem, left to right: an extension type or a map key that is not a string
 * (`FRAME_UNSUPPORTED_TYPE`), the never-used byte 0xc1, a value running past the end or
 * nesting deeper than {@link MAX_NESTING_DEPTH} (`FRAME_UNDECODABLE`), bytes after the value
 * (`FRAME_TRAILING_BYTES`). Iterative, so hostile nesting cannot exhaust the stack.
 */
function checkStandardMessagePack(bytes: Uint8Array, what: string): void {
  const end = bytes.length;
  // remaining[d]: values still to read in the container open at depth d (a map counts keys
  // and values); depth 0 is the top-level value itself.
  const remaining: number[] = [1];
  const isMap: boolean[] = [false];
  let depth = 0;
  let pos = 0;
  let start = 0; // where the value being checked begins, for messages
  const undecodable = (reason: string) =>
    new ProtocolError(ProtocolErrorCode.FrameUndecodable, `${what} is not valid MessagePack: ${reason} (value at byte ${start})`);
  const lengthAt = (at: number, size: 1 | 2 | 4): number => {
    if (at + size > end) throw undecodable('value runs past the end of the frame');
    let n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + bytes[at + i]!;
    return n;
  };
  for (;;) {
    while (depth >= 0 && remaining[depth] === 0) depth--;
    if (depth < 0) break;
    const isKey = isMap[depth] === true && remaining[depth]! % 2 === 0;
    remaining[depth]!--;
    start = pos;
    if (pos >= end) throw undecodable('value runs past the end of the frame');
    const t = bytes[pos]!;
    if (isKey && !((t >= 0xa0 && t <= 0xbf) || (t >= 0xd9 && t <= 0xdb))) {
      throw new ProtocolError(
        ProtocolErrorCode.FrameUnsupportedType,
        `${what} holds a map key of type ${typeName(t)} at byte ${pos}: map keys must be strings`,
      );
    }
    let container = -1; // number of values a container opened here holds
    let map = false;
    if (t <= 0x7f || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) pos += 1;
    else if (t <= 0x8f) {
      container = 2 * (t & 0x0f);
      map = true;
      pos += 1;
    } else if (t <= 0x9f) {
      container = t & 0x0f;
      pos += 1;
    } else if (t <= 0xbf) pos += 1 + (t & 0x1f);
    else if (t === 0xc1) throw undecodable('byte 0xc1 is never used in MessagePack');
    else if ((t >= 0xc7 && t <= 0xc9) || (t >= 0xd4 && t <= 0xd8)) {
      throw new ProtocolError(
        ProtocolErrorCode.FrameUnsupportedType,
        `${what} holds an extension type (0x${t.toString(16)}) at byte ${pos}: only standard MessagePack types (nil, bool, int, float, str, bin, array, map) are allowed`,
      );
    } else if (t === 0xc4 || t === 0xd9) pos += 2 + lengthAt(pos + 1, 1);
    else if (t === 0xc5 || t === 0xda) pos += 3 + lengthAt(pos + 1, 2);
    else if (t === 0xc6 || t === 0xdb) pos += 5 + lengthAt(pos + 1, 4);
    else if (t === 0xcc || t === 0xd0) pos += 2;
    else if (t === 0xcd || t === 0xd1) pos += 3;
    else if (t === 0xca || t === 0xce || t === 0xd2) pos += 5;
    else if (t === 0xcb || t === 0xcf || t === 0xd3) pos += 9;
    else if (t === 0xdc || t === 0xdd) {
      const size = t === 0xdc ? 2 : 4;
      container = lengthAt(pos + 1, size);
      pos += 1 + size;
    } else {
      // 0xde, 0xdf
      const size = t === 0xde ? 2 : 4;
      container = 2 * lengthAt(pos + 1, size);
      map = true;
      pos += 1 + size;
    }
    if (pos > end) throw undecodable('value runs past the end of the frame');
    if (container >= 0) {
      if (depth + 1 > MAX_NESTING_DEPTH) throw undecodable(`arrays and maps nest deeper than ${MAX_NESTING_DEPTH} levels`);
      // every value takes at least one byte: a count beyond what is left cannot be complete
      if (container > end - pos) throw undecodable('value runs past the end of the frame');
      depth++;
      remaining[depth] = container;
      isMap[depth] = map;
    }
  }
  if (pos < end) {
    throw new ProtocolError(
      ProtocolErrorCode.FrameTrailingBytes,
      `${what} holds ${end - pos} byte(s) after its MessagePack value: a frame carries exactly one value`,
    );
  }
}

function typeName(t: number): string {
  if (t <= 0x7f || t >= 0xe0 || (t >= 0xcc && t <= 0xd3)) return 'int';
  if (t <= 0x8f || t === 0xde || t === 0xdf) return 'map';
  if (t <= 0x9f || t === 0xdc || t === 0xdd) return 'array';
  if (t === 0xc0) return 'nil';
  if (t === 0xc2 || t === 0xc3) return 'bool';
  if (t === 0xca || t === 0xcb) return 'float';
  if (t >= 0xc4 && t <= 0xc6) return 'bin';
  if ((t >= 0xc7 && t <= 0xc9) || (t >= 0xd4 && t <= 0xd8)) return 'ext';
  return `0x${t.toString(16)}`;
}
