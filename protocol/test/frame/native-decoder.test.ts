import { createRequire } from 'node:module';
import * as unpackEntry from 'msgpackr/unpack';
import { describe, expect, it, vi } from 'vitest';
import { NATIVE_DECODER_AFTER_BYTES, packValue, unpackValue } from '../../src/frame/msgpack.js';

// msgpackr's flag, set when its native string decoder is installed (missing from its typings).
const nativeDecoder = () => (unpackEntry as unknown as { isNativeAccelerationEnabled: boolean }).isNativeAccelerationEnabled;

const addonInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve('msgpackr-extract');
    return process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED?.toLowerCase() !== 'true';
  } catch {
    return false;
  }
})();

describe('msgpackr native decoder', () => {
  // Without the optional addon (another platform, or disabled) there is nothing to load.
  it.skipIf(!addonInstalled)('is loaded only once a process has decoded NATIVE_DECODER_AFTER_BYTES', async () => {
    const value = { kind: 'notification', method: 'log', params: { level: 'info', message: 'é'.repeat(1 << 19) } };
    const frame = packValue(value); // a little over 1 MiB
    const framesBelow = Math.floor(NATIVE_DECODER_AFTER_BYTES / frame.length) - 1;
    for (let i = 0; i < framesBelow; i++) expect(unpackValue(frame)).toEqual(value);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(nativeDecoder()).toBe(false);

    unpackValue(frame);
    unpackValue(frame);
    await vi.waitFor(() => expect(nativeDecoder()).toBe(true), { timeout: 20_000 });
    expect(unpackValue(frame)).toEqual(value);
  });
});
