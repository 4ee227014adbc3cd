import { createPrivateKey, sign } from 'node:crypto';
import { RegistryError, RegistryErrorCode } from './errors.js';
import type { SigningKey } from './keys.js';

/**
 * `SHA256SUMS.sig`: a detached ed25519 signature of `SHA256SUMS`.
 *
 * The signed bytes are not `SHA256SUMS` alone but {@link signedPayload}: a fixed header
 * naming the key and the `created` time, then the file. Signing `created` is what lets a
 * retired key keep verifying what it signed before its retirement.
 */
export interface SumsSignature {
  keyId: string;
  /** ISO 8601 UTC time of signing. */
  created: string;
  /** ed25519 signature, base64. */
  signature: string;
}

/**
 * The exact bytes a registry signature covers:
 * `travsr-registry-sha256sums-v1\nkey-id: <keyId>\ncreated: <created>\n\n` + `SHA256SUMS`.
 *
 * @example
 * ```ts
 * verify(null, signedPayload(sums, sig.keyId, sig.created), publicKey, Buffer.from(sig.signature, 'base64'));
 * ```
 */
export function signedPayload(sumsText: string, keyId: string, created: string): Buffer {
  return Buffer.from(`travsr-registry-sha256sums-v1\nkey-id: ${keyId}\ncreated: ${created}\n\n${sumsText}`, 'utf8');
}

/**
 * Signs a `SHA256SUMS` text.
 *
 * @example
 * ```ts
 * const sig = signSha256Sums(sumsText, key);
 * await writeFile('SHA256SUMS.sig', serializeSignature(sig));
 * ```
 */
export function signSha256Sums(sumsText: string, key: SigningKey, created: Date = new Date()): SumsSignature {
  const at = created.toISOString();
  const signature = sign(null, signedPayload(sumsText, key.keyId, at), createPrivateKey(key.privateKeyPem)).toString('base64');
  return { keyId: key.keyId, created: at, signature };
}

/**
 * The bytes of `SHA256SUMS.sig`.
 *
 * @example
 * ```ts
 * serializeSignature(sig); // '{\n  "keyId": "ed25519:…", …}\n'
 * ```
 */
export function serializeSignature(sig: SumsSignature): string {
  return `${JSON.stringify({ keyId: sig.keyId, created: sig.created, signature: sig.signature }, null, 2)}\n`;
}

/**
 * Parses `SHA256SUMS.sig` (text or already-parsed JSON).
 *
 * @throws RegistryError `SIGNATURE_INVALID` when it is not a signature document.
 * @example
 * ```ts
 * const sig = parseSignature(await readFile('SHA256SUMS.sig', 'utf8'));
 * ```
 */
export function parseSignature(source: unknown): SumsSignature {
  let value = source;
  if (typeof source === 'string' || source instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof source === 'string' ? source : Buffer.from(source).toString('utf8'));
    } catch {
      value = undefined;
    }
  }
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (
    typeof v.keyId !== 'string' ||
    typeof v.created !== 'string' ||
    Number.isNaN(Date.parse(v.created)) ||
    typeof v.signature !== 'string' ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(v.signature)
  ) {
    throw new RegistryError(
      RegistryErrorCode.SignatureInvalid,
      'SHA256SUMS.sig is not a signature document { keyId, created, signature }; the registry is damaged or tampered with — do not install from it, and tell its maintainer',
    );
  }
  return { keyId: v.keyId, created: v.created, signature: v.signature };
}
