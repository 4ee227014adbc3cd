import { Packr, Unpackr } from 'msgpackr';
import { ProtocolError, ProtocolErrorCode } from '../errors.js';

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

/** Encodes one value as standard MessagePack. */
export function packValue(value: unknown): Buffer {
  return packr.pack(value);
}

/**
 * Decodes exactly one MessagePack value from `bytes`. Rejects trailing bytes, extension
 * types (including the timestamp extension) and anything else that is not plain data.
 */
export function unpackValue(bytes: Uint8Array): unknown {
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
  assertPlainData(value, '');
  return value;
}

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
    default:
      throw unsupported(path, typeof value);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) assertPlainData(value[i], `${path}/${i}`);
    return;
  }
  if (value instanceof Uint8Array) return;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    throw unsupported(path, (value as object).constructor?.name ?? 'object');
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
