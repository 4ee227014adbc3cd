import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateSigningKey,
  keyIdOf,
  readSigningKey,
  readTrustedKeyFile,
  TrustedKeys,
  trustedKeyOf,
  writeSigningKey,
} from '../src/keys.js';
import { tempDir } from './tar-fixtures.js';

describe('signing keys', () => {
  it('generates ed25519 keys with an id derived from the public key', () => {
    const a = generateSigningKey();
    const b = generateSigningKey();
    expect(a.keyId).toMatch(/^ed25519:[0-9a-f]{16}$/);
    expect(a.keyId).toBe(keyIdOf(a.publicKey));
    expect(Buffer.from(a.publicKey, 'base64')).toHaveLength(32);
    expect(a.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(a.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(a.keyId).not.toBe(b.keyId);
  });

  it('writes the private key with mode 0600 and a .pub entry, and reads them back', async () => {
    const file = join(tempDir(), 'registry.key');
    const key = generateSigningKey();
    await writeSigningKey(file, key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(`${file}.pub`, 'utf8'))).toEqual({ keyId: key.keyId, publicKey: key.publicKey });
    expect(await readSigningKey(file)).toEqual(key);
    expect(await readTrustedKeyFile(`${file}.pub`)).toEqual(trustedKeyOf(key));
  });

  it('never overwrites a key file', async () => {
    const file = join(tempDir(), 'registry.key');
    const first = generateSigningKey();
    await writeSigningKey(file, first);
    await expect(writeSigningKey(file, generateSigningKey())).rejects.toMatchObject({ code: 'KEY_FILE_EXISTS' });
    expect(await readSigningKey(file)).toEqual(first);
  });

  it('refuses a private key file other users can read, saying how to fix it', async () => {
    const file = join(tempDir(), 'registry.key');
    await writeSigningKey(file, generateSigningKey());
    chmodSync(file, 0o644);
    await expect(readSigningKey(file)).rejects.toMatchObject({ code: 'KEY_FILE_PERMISSIONS', message: expect.stringMatching(/chmod 600/) });
  });

  it('reads a public key PEM as a trusted key', async () => {
    const key = generateSigningKey();
    const file = join(tempDir(), 'registry.pem');
    writeFileSync(file, key.publicKeyPem);
    expect(await readTrustedKeyFile(file)).toEqual(trustedKeyOf(key));
  });

  it('refuses a non-ed25519 private key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const file = join(tempDir(), 'rsa.key');
    writeFileSync(file, rsa, { mode: 0o600 });
    await expect(readSigningKey(file)).rejects.toMatchObject({ code: 'KEY_INVALID', message: expect.stringMatching(/not ed25519/) });
  });
});

describe('TrustedKeys', () => {
  it('holds keys by id, with retirement and revocation', () => {
    const a = generateSigningKey();
    const b = generateSigningKey();
    const trusted = new TrustedKeys([
      { ...trustedKeyOf(a), notAfter: '2026-01-01T00:00:00Z' },
      { ...trustedKeyOf(b), revoked: true },
    ]);
    expect(trusted.size).toBe(2);
    expect(trusted.get(a.keyId)?.notAfter).toBe('2026-01-01T00:00:00Z');
    expect(trusted.get(b.keyId)?.revoked).toBe(true);
    expect(trusted.get('ed25519:0000000000000000')).toBeUndefined();
  });

  it('refuses an entry whose id does not belong to its public key', () => {
    const a = generateSigningKey();
    const b = generateSigningKey();
    expect(() => new TrustedKeys([{ keyId: a.keyId, publicKey: b.publicKey }])).toThrow(
      expect.objectContaining({ code: 'KEY_INVALID', message: expect.stringMatching(/does not belong to its public key/) }),
    );
    expect(() => new TrustedKeys([{ keyId: a.keyId, publicKey: 'bm90IGEga2V5' }])).toThrow(
      expect.objectContaining({ code: 'KEY_INVALID' }),
    );
    expect(() => new TrustedKeys([{ ...trustedKeyOf(a), notAfter: 'soon' }])).toThrow(expect.objectContaining({ code: 'KEY_INVALID' }));
  });
});
