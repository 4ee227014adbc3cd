import { blake3 } from '@noble/hashes/blake3';
import { bytesToHex } from '@noble/hashes/utils';
import type { VName } from '../schema/graph.js';

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
  return bytesToHex(blake3(canonicalVName(v)));
}

/** A short human-readable form, `path#signature (language)`, for messages and logs. */
export function formatVName(v: VName): string {
  return `${v.corpus ? `${v.corpus}/` : ''}${v.path}#${v.signature} (${v.language})`;
}
