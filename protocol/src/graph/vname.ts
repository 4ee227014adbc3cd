import { createRequire } from 'node:module';
import type * as Blake3Module from '@noble/hashes/blake3';
import type { VName } from '../schema/graph.js';

let blake3: typeof Blake3Module.blake3 | undefined;

/**
 * BLAKE3, loaded on the first {@link nodeId} (loading it costs ~30 ms, and most processes that
 * import the protocol never hash a VName). @noble/hashes ships CommonJS too, so `require` loads
 * it synchronously: a bundle (esbuild) turns the plain `require` into its own copy; unbundled ES
 * modules have no `require`.
 */
function loadBlake3(): typeof Blake3Module.blake3 {
  blake3 ??= (
    (typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- the one form esbuild bundles synchronously
        require('@noble/hashes/blake3')
      : createRequire(import.meta.url)('@noble/hashes/blake3')) as typeof Blake3Module
  ).blake3;
  return blake3;
}

const encoder = new TextEncoder();
const FIELDS = ['corpus', 'root', 'path', 'language', 'signature'] as const;

/**
 * Canonical byte encoding of a VName: for each field in the order corpus, root, path,
 * language, signature, a 4-byte big-endian byte length and the field's UTF-8 bytes.
 * Unambiguous (no separator can be forged) and the same in every language.
 *
 * @example
 * ```ts
 * canonicalVName({ corpus: 'c', root: '', path: 'a.ts', language: 'typescript', signature: 'f' });
 * ```
 */
export function canonicalVName(v: VName): Uint8Array {
  const parts = FIELDS.map((f) => encoder.encode(v[f]));
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    view.setUint32(at, p.length);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}

/** A node's stable identity: BLAKE3-256 of its canonical VName, as 64 lowercase hex digits. */
export type NodeId = string;

/**
 * Computes the {@link NodeId} of a VName.
 *
 * @example
 * ```ts
 * nodeId({ corpus: '', root: '', path: '', language: 'x', signature: '' }).length === 64; // true
 * ```
 */
export function nodeId(v: VName): NodeId {
  const digest = loadBlake3()(canonicalVName(v));
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('hex');
}

/** A short human-readable form, `path#signature (language)`, for messages and logs. */
export function formatVName(v: VName): string {
  return `${v.corpus ? `${v.corpus}/` : ''}${v.path}#${v.signature} (${v.language})`;
}
