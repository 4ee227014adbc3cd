import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { RegistryError, RegistryErrorCode } from './errors.js';

/**
 * A registry signing key (ed25519). `publicKey` is the raw 32-byte key in base64, the form
 * that goes into a client's trusted keys.
 */
export interface SigningKey {
  /** `ed25519:` + the first 16 hex digits of SHA-256 over the raw public key. */
  readonly keyId: string;
  readonly publicKey: string;
  readonly publicKeyPem: string;
  /** PKCS#8 PEM. Keep it secret: whoever holds it can publish to the registry. */
  readonly privateKeyPem: string;
}

/**
 * A public key a client trusts to sign registries.
 *
 * Rotation: a **retired** key (`notAfter` set) still verifies signatures whose signed
 * `created` time is before `notAfter`, so a registry signed before the switch keeps
 * working while mirrors catch up; retire a key you replaced but still trust. A **revoked**
 * key verifies nothing; revoke a key that leaked.
 */
export interface TrustedKey {
  readonly keyId: string;
  /** Raw 32-byte ed25519 public key, base64. */
  readonly publicKey: string;
  /** ISO 8601 time from which the key no longer signs (see above). */
  readonly notAfter?: string;
  readonly revoked?: boolean;
}

const RAW_KEY_BYTES = 32;

function invalidKey(message: string): RegistryError {
  return new RegistryError(RegistryErrorCode.KeyInvalid, message);
}

function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw invalidKey(
      `the key is ${key.asymmetricKeyType ?? 'not asymmetric'}, not ed25519; registry keys are ed25519 (travsr registry keygen)`,
    );
  }
  return Buffer.from(jwk.x, 'base64url');
}

/**
 * The key id of a raw public key (base64): `ed25519:` + 16 hex digits of its SHA-256.
 *
 * @example
 * ```ts
 * keyIdOf(generateSigningKey().publicKey); // 'ed25519:3f9a0c…' (16 hex digits)
 * ```
 */
export function keyIdOf(publicKeyBase64: string): string {
  return `ed25519:${createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('hex').slice(0, 16)}`;
}

/**
 * The `KeyObject` of a raw base64 ed25519 public key.
 *
 * @throws RegistryError `KEY_INVALID` when it is not 32 bytes of base64.
 * @example
 * ```ts
 * const key = publicKeyObject(trusted.publicKey);
 * ```
 */
export function publicKeyObject(publicKeyBase64: string): KeyObject {
  const raw = Buffer.from(publicKeyBase64, 'base64');
  if (raw.length !== RAW_KEY_BYTES || raw.toString('base64') !== publicKeyBase64) {
    throw invalidKey(
      `"${publicKeyBase64.slice(0, 60)}" is not an ed25519 public key (32 bytes, base64); copy it again from the registry's .pub file`,
    );
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/**
 * A signing key from its private key PEM (PKCS#8); the public half is derived.
 *
 * @throws RegistryError `KEY_INVALID` when the PEM is not an ed25519 private key.
 * @example
 * ```ts
 * const key = signingKeyFromPem(process.env.TRAVSR_REGISTRY_KEY ?? '');
 * ```
 */
export function signingKeyFromPem(privateKeyPem: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(privateKeyPem);
  } catch (e) {
    throw invalidKey(`not a private key PEM (${(e as Error).message}); registry keys come from travsr registry keygen`);
  }
  const publicKeyObj = createPublicKey(privateKey);
  const publicKey = rawPublicKey(publicKeyObj).toString('base64');
  return {
    keyId: keyIdOf(publicKey),
    publicKey,
    publicKeyPem: publicKeyObj.export({ format: 'pem', type: 'spki' }).toString(),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

/**
 * Generates a new ed25519 registry signing key.
 *
 * @example
 * ```ts
 * const key = generateSigningKey();
 * key.keyId; // 'ed25519:…'
 * ```
 */
export function generateSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  return signingKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
}

/**
 * The trusted-key entry for a signing key, as it goes into a client's configuration.
 *
 * @example
 * ```ts
 * const trusted = new TrustedKeys([trustedKeyOf(key)]);
 * ```
 */
export function trustedKeyOf(key: Pick<SigningKey, 'keyId' | 'publicKey'>): TrustedKey {
  return { keyId: key.keyId, publicKey: key.publicKey };
}

async function writeNew(file: string, content: string, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(file, 'wx', mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RegistryError(
        RegistryErrorCode.KeyFileExists,
        `${file} already exists; keys are never overwritten — choose another file name or move the old key away first`,
      );
    }
    throw new RegistryError(RegistryErrorCode.KeyFileUnreadable, `cannot write ${file}: ${(e as Error).message}`);
  }
  try {
    await handle.chmod(mode);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/**
 * Writes a signing key: the private key PEM to `file` (mode 0600) and its trusted-key
 * entry (JSON `{ keyId, publicKey }`) to `file.pub`. Refuses to overwrite either.
 *
 * @throws RegistryError `KEY_FILE_EXISTS`
 * @example
 * ```ts
 * await writeSigningKey('/secrets/registry.key', generateSigningKey()); // + /secrets/registry.key.pub
 * ```
 */
export async function writeSigningKey(file: string, key: SigningKey): Promise<void> {
  await writeNew(`${file}.pub`, `${JSON.stringify(trustedKeyOf(key), null, 2)}\n`, 0o644);
  await writeNew(file, key.privateKeyPem, 0o600);
}

/**
 * Reads a private key file written by {@link writeSigningKey}. Like ssh, refuses a key file
 * that other users can read or write (POSIX only).
 *
 * @throws RegistryError `KEY_FILE_UNREADABLE`, `KEY_FILE_PERMISSIONS` or `KEY_INVALID`
 * @example
 * ```ts
 * const key = await readSigningKey('/secrets/registry.key');
 * ```
 */
export async function readSigningKey(file: string): Promise<SigningKey> {
  let pem: string;
  try {
    const st = await stat(file);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      throw new RegistryError(
        RegistryErrorCode.KeyFilePermissions,
        `${file} is accessible to other users (mode ${(st.mode & 0o777).toString(8)}); a registry private key must be private — run chmod 600 ${file}`,
      );
    }
    pem = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof RegistryError) throw e;
    throw new RegistryError(RegistryErrorCode.KeyFileUnreadable, `cannot read the signing key ${file}: ${(e as Error).message}`);
  }
  return signingKeyFromPem(pem);
}

/**
 * Reads a public key file: the JSON `{ keyId, publicKey }` that {@link writeSigningKey}
 * writes, or an SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
 *
 * @throws RegistryError `KEY_FILE_UNREADABLE` or `KEY_INVALID`
 * @example
 * ```ts
 * const trusted = new TrustedKeys([await readTrustedKeyFile('registry.key.pub')]);
 * ```
 */
export async function readTrustedKeyFile(file: string): Promise<TrustedKey> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new RegistryError(RegistryErrorCode.KeyFileUnreadable, `cannot read the public key ${file}: ${(e as Error).message}`);
  }
  if (text.trimStart().startsWith('-----BEGIN PUBLIC KEY-----')) {
    let raw: Buffer;
    try {
      raw = rawPublicKey(createPublicKey(text));
    } catch (e) {
      if (e instanceof RegistryError) throw e;
      throw invalidKey(`${file} is not a public key PEM: ${(e as Error).message}`);
    }
    const publicKey = raw.toString('base64');
    return { keyId: keyIdOf(publicKey), publicKey };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidKey(`${file} is neither a JSON key entry { "keyId", "publicKey" } nor a public key PEM`);
  }
  return checkTrustedKey(value, file);
}

/** Validates one trusted-key entry, including that its id matches its public key. */
function checkTrustedKey(value: unknown, where: string): TrustedKey {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.keyId !== 'string' || typeof v.publicKey !== 'string') {
    throw invalidKey(`${where}: a trusted key needs string fields keyId and publicKey`);
  }
  publicKeyObject(v.publicKey);
  if (keyIdOf(v.publicKey) !== v.keyId) {
    throw invalidKey(
      `${where}: key id ${v.keyId} does not belong to its public key (that key's id is ${keyIdOf(v.publicKey)}); copy the entry again from the registry's .pub file`,
    );
  }
  if (v.notAfter !== undefined && (typeof v.notAfter !== 'string' || Number.isNaN(Date.parse(v.notAfter)))) {
    throw invalidKey(`${where}: notAfter of ${v.keyId} must be an ISO 8601 time`);
  }
  if (v.revoked !== undefined && typeof v.revoked !== 'boolean') {
    throw invalidKey(`${where}: revoked of ${v.keyId} must be true or false`);
  }
  return {
    keyId: v.keyId,
    publicKey: v.publicKey,
    ...(typeof v.notAfter === 'string' ? { notAfter: v.notAfter } : {}),
    ...(v.revoked === true ? { revoked: true } : {}),
  };
}

/**
 * The set of public keys a client trusts, by key id. Entries are checked on the way in:
 * a key id must belong to its public key.
 *
 * @example
 * ```ts
 * const trusted = new TrustedKeys([
 *   { keyId: 'ed25519:1111…', publicKey: 'q83v…', notAfter: '2026-06-01T00:00:00Z' }, // retired
 *   { keyId: 'ed25519:2222…', publicKey: 'Zm9v…' }, // current
 * ]);
 * trusted.get('ed25519:2222…')?.publicKey;
 * ```
 */
export class TrustedKeys {
  readonly #keys = new Map<string, TrustedKey>();

  constructor(keys: Iterable<unknown> = []) {
    for (const k of keys) this.add(k);
  }

  /**
   * Adds (or replaces) a key.
   * @throws RegistryError `KEY_INVALID`
   */
  add(key: unknown, where = 'trusted keys'): TrustedKey {
    const checked = checkTrustedKey(key, where);
    this.#keys.set(checked.keyId, checked);
    return checked;
  }

  get(keyId: string): TrustedKey | undefined {
    return this.#keys.get(keyId);
  }

  get size(): number {
    return this.#keys.size;
  }

  list(): TrustedKey[] {
    return [...this.#keys.values()];
  }
}
