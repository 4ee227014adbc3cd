import { createHash, verify } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { publicKeyObject, type TrustedKeys } from './keys.js';
import { compareVersions } from './semver.js';
import { parseSha256Sums } from './sha256-sums.js';
import { parseSignature, signedPayload } from './signature.js';

/** A `SHA256SUMS` whose signature checked out. */
export interface VerifiedSums {
  readonly keyId: string;
  /** The signed signing time. */
  readonly created: string;
  /** SHA-256 by registry path. */
  readonly sums: ReadonlyMap<string, string>;
}

/**
 * Verifies `SHA256SUMS` against `SHA256SUMS.sig` and the client's trusted keys, in this
 * order: the signature document parses; its key is trusted (`KEY_UNKNOWN`) and not revoked
 * (`KEY_REVOKED`); the ed25519 signature matches (`SIGNATURE_INVALID`); a retired key
 * signed before its `notAfter` (`KEY_RETIRED`); the list parses (`SUMS_MALFORMED`).
 *
 * @throws RegistryError with one of the codes above; nothing from the registry is to be trusted then.
 * @example
 * ```ts
 * const { sums } = verifyRegistryDocument(sumsText, sigText, trusted);
 * await verifyFileHash(tgz, checksumFor(sums, doc.artifacts[0].file), doc.artifacts[0].size);
 * ```
 */
export function verifyRegistryDocument(sumsText: string, sigJson: unknown, trustedKeys: TrustedKeys): VerifiedSums {
  const sig = parseSignature(sigJson);
  const key = trustedKeys.get(sig.keyId);
  if (!key) {
    throw new RegistryError(
      RegistryErrorCode.KeyUnknown,
      `the registry is signed by key ${sig.keyId}, which is not among your ${trustedKeys.size} trusted key${trustedKeys.size === 1 ? '' : 's'}; if the registry announced a new key, add it to your trusted keys, otherwise do not install from it`,
      { keyId: sig.keyId },
    );
  }
  if (key.revoked) {
    throw new RegistryError(
      RegistryErrorCode.KeyRevoked,
      `the registry is signed by key ${sig.keyId}, which you revoked; do not install from it until it is re-signed with a current key`,
      { keyId: sig.keyId },
    );
  }
  const ok = verify(
    null,
    signedPayload(sumsText, sig.keyId, sig.created),
    publicKeyObject(key.publicKey),
    Buffer.from(sig.signature, 'base64'),
  );
  if (!ok) {
    throw new RegistryError(
      RegistryErrorCode.SignatureInvalid,
      `SHA256SUMS does not match its signature by key ${sig.keyId}: the checksum list or its signature changed after signing (tampering, or a damaged download); do not install from this registry — fetch again, and tell its maintainer if it persists`,
      { keyId: sig.keyId },
    );
  }
  if (key.notAfter !== undefined && Date.parse(sig.created) >= Date.parse(key.notAfter)) {
    throw new RegistryError(
      RegistryErrorCode.KeyRetired,
      `the registry was signed at ${sig.created} by key ${sig.keyId}, which retired at ${key.notAfter}; trust the registry's current key, or ask its maintainer to re-sign`,
      { keyId: sig.keyId, created: sig.created, notAfter: key.notAfter },
    );
  }
  return { keyId: sig.keyId, created: sig.created, sums: parseSha256Sums(sumsText) };
}

/**
 * The signed SHA-256 of one registry path.
 *
 * @throws RegistryError `CHECKSUM_MISSING` when `SHA256SUMS` does not list it.
 * @example
 * ```ts
 * checksumFor(sumsText, 'index.json'); // 'e3b0…'
 * ```
 */
export function checksumFor(sums: string | ReadonlyMap<string, string> | VerifiedSums, path: string): string {
  const map = typeof sums === 'string' ? parseSha256Sums(sums) : 'sums' in sums ? sums.sums : sums;
  const sha = map.get(path);
  if (sha === undefined) {
    throw new RegistryError(
      RegistryErrorCode.ChecksumMissing,
      `the registry's signed SHA256SUMS does not list ${path}, so it cannot be trusted; the registry is incomplete or tampered with — tell its maintainer`,
      { path },
    );
  }
  return sha;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Checks fetched bytes (`index.json`, a version document) against their signed checksum.
 *
 * @throws RegistryError `CHECKSUM_MISSING` or `ARTIFACT_HASH_MISMATCH`
 * @example
 * ```ts
 * verifyListedBytes(verified, 'index.json', indexBytes);
 * const index = parseRegistryIndex(indexBytes);
 * ```
 */
export function verifyListedBytes(sums: string | ReadonlyMap<string, string> | VerifiedSums, path: string, bytes: Uint8Array): void {
  const expected = checksumFor(sums, path);
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new RegistryError(
      RegistryErrorCode.ArtifactHashMismatch,
      `${path} from the registry has SHA-256 ${actual}, but the signed SHA256SUMS says ${expected}: it was changed or damaged in transit; nothing was installed — fetch again, and tell the registry's maintainer if it persists`,
      { path, expected, actual },
    );
  }
}

/**
 * SHA-256 (lowercase hex) and size of a file, streamed.
 *
 * @example
 * ```ts
 * const { sha256, size } = await sha256File('artifacts/example-lua-0.1.0-any.tgz');
 * ```
 */
export async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const h = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    h.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: h.digest('hex'), size };
}

/**
 * Checks a downloaded file against its recorded size and SHA-256.
 *
 * @throws RegistryError `ARTIFACT_SIZE_MISMATCH` or `ARTIFACT_HASH_MISMATCH`
 * @example
 * ```ts
 * await verifyFileHash(tgz, artifact.sha256, artifact.size);
 * ```
 */
export async function verifyFileHash(file: string, expectedSha256: string, expectedSize?: number): Promise<void> {
  const { sha256, size } = await sha256File(file);
  if (expectedSize !== undefined && size !== expectedSize) {
    throw new RegistryError(
      RegistryErrorCode.ArtifactSizeMismatch,
      `${file} is ${size} bytes, but the registry records ${expectedSize}: the download is truncated or was replaced; nothing was installed — download it again`,
      { file, expectedSize, size },
    );
  }
  if (sha256 !== expectedSha256) {
    throw new RegistryError(
      RegistryErrorCode.ArtifactHashMismatch,
      `${file} has SHA-256 ${sha256}, but the registry records ${expectedSha256}: the archive was changed or damaged after publishing; nothing was installed — download it again, and tell the registry's maintainer if it persists`,
      { file, expected: expectedSha256, actual: sha256 },
    );
  }
}

/**
 * Refuses to move a plugin to an older version than the one its lock file pins (a registry
 * or mirror serving stale documents — a rollback attack — or a mistaken downgrade).
 *
 * @throws RegistryError `VERSION_ROLLBACK`
 * @example
 * ```ts
 * assertNoRollback('lang-go', lock.version, doc.version);
 * ```
 */
export function assertNoRollback(id: string, lockedVersion: string, offeredVersion: string): void {
  if (compareVersions(offeredVersion, lockedVersion) < 0) {
    throw new RegistryError(
      RegistryErrorCode.VersionRollback,
      `the registry offers ${id}@${offeredVersion}, older than ${lockedVersion} pinned in your lock file; a registry going backwards may be replaying old documents, so nothing was installed — to downgrade on purpose, change the lock file first`,
      { id, locked: lockedVersion, offered: offeredVersion },
    );
  }
}
