import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigningKey, TrustedKeys, trustedKeyOf } from '../src/keys.js';
import { formatSha256Sums, parseSha256Sums } from '../src/sha256-sums.js';
import { parseSignature, serializeSignature, signSha256Sums } from '../src/signature.js';
import { assertNoRollback, checksumFor, verifyFileHash, verifyListedBytes, verifyRegistryDocument } from '../src/verify.js';
import { tempDir } from './tar-fixtures.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const SUMS = formatSha256Sums([
  ['plugins/x/1.0.0.json', sha('doc')],
  ['index.json', sha('index')],
  ['artifacts/x-1.0.0-any.tgz', sha('tgz')],
]);

describe('SHA256SUMS', () => {
  it('is sorted, two-space separated, and round-trips', () => {
    expect(SUMS.split('\n')[0]).toBe(`${sha('tgz')}  artifacts/x-1.0.0-any.tgz`);
    expect(parseSha256Sums(SUMS).get('index.json')).toBe(sha('index'));
    expect(checksumFor(SUMS, 'index.json')).toBe(sha('index'));
  });

  it('refuses malformed lines, unsafe paths and duplicates', () => {
    expect(() => parseSha256Sums('nope\n')).toThrow(
      expect.objectContaining({ code: 'SUMS_MALFORMED', message: expect.stringMatching(/line 1/) }),
    );
    expect(() => parseSha256Sums(`${sha('a')}  ../etc/passwd\n`)).toThrow(expect.objectContaining({ code: 'SUMS_MALFORMED' }));
    expect(() => parseSha256Sums(`${sha('a')}  /abs\n`)).toThrow(expect.objectContaining({ code: 'SUMS_MALFORMED' }));
    expect(() => parseSha256Sums(`${sha('a')}  x\n${sha('b')}  x\n`)).toThrow(expect.objectContaining({ code: 'SUMS_MALFORMED' }));
  });

  it('says when a path is not listed', () => {
    expect(() => checksumFor(SUMS, 'plugins/y/1.0.0.json')).toThrow(expect.objectContaining({ code: 'CHECKSUM_MISSING' }));
  });
});

describe('verifyRegistryDocument', () => {
  const key = generateSigningKey();
  const trusted = new TrustedKeys([trustedKeyOf(key)]);
  const sig = serializeSignature(signSha256Sums(SUMS, key, new Date('2026-03-01T00:00:00Z')));

  it('accepts SHA256SUMS signed by a trusted key', () => {
    const v = verifyRegistryDocument(SUMS, sig, trusted);
    expect(v).toMatchObject({ keyId: key.keyId, created: '2026-03-01T00:00:00.000Z' });
    expect(v.sums.get('index.json')).toBe(sha('index'));
  });

  it('refuses an edited SHA256SUMS: SIGNATURE_INVALID', () => {
    const edited = SUMS.replace(sha('tgz'), sha('evil'));
    expect(() => verifyRegistryDocument(edited, sig, trusted)).toThrow(
      expect.objectContaining({
        code: 'SIGNATURE_INVALID',
        message: expect.stringMatching(/does not match its signature.*do not install/),
      }),
    );
  });

  it('refuses a re-dated signature (the created time is signed)', () => {
    const redated = JSON.stringify({ ...parseSignature(sig), created: '2025-01-01T00:00:00.000Z' });
    expect(() => verifyRegistryDocument(SUMS, redated, trusted)).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
  });

  it('refuses a signature by a key that is not trusted: KEY_UNKNOWN', () => {
    const other = generateSigningKey();
    const forged = serializeSignature(signSha256Sums(SUMS, other));
    expect(() => verifyRegistryDocument(SUMS, forged, trusted)).toThrow(
      expect.objectContaining({
        code: 'KEY_UNKNOWN',
        message: expect.stringMatching(new RegExp(`signed by key ${other.keyId}, which is not among your 1 trusted key`)),
      }),
    );
  });

  it('refuses a signature claiming a trusted key id but made with another key', () => {
    const other = generateSigningKey();
    const s = signSha256Sums(SUMS, { ...other, keyId: key.keyId });
    expect(() => verifyRegistryDocument(SUMS, serializeSignature(s), trusted)).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
  });

  it('refuses everything signed by a revoked key', () => {
    const revoked = new TrustedKeys([{ ...trustedKeyOf(key), revoked: true }]);
    expect(() => verifyRegistryDocument(SUMS, sig, revoked)).toThrow(expect.objectContaining({ code: 'KEY_REVOKED' }));
  });

  it('accepts a retired key only for signatures made before its retirement', () => {
    const retiredLater = new TrustedKeys([{ ...trustedKeyOf(key), notAfter: '2026-06-01T00:00:00Z' }]);
    expect(verifyRegistryDocument(SUMS, sig, retiredLater).keyId).toBe(key.keyId);
    const retiredBefore = new TrustedKeys([{ ...trustedKeyOf(key), notAfter: '2026-02-01T00:00:00Z' }]);
    expect(() => verifyRegistryDocument(SUMS, sig, retiredBefore)).toThrow(
      expect.objectContaining({
        code: 'KEY_RETIRED',
        message: expect.stringMatching(/signed at 2026-03-01T00:00:00.000Z .* retired at 2026-02-01T00:00:00Z/),
      }),
    );
  });

  it('refuses a signature file that is not a signature document', () => {
    for (const bad of ['', 'not json', '{}', JSON.stringify({ keyId: key.keyId, created: 'x', signature: 'AAAA' })]) {
      expect(() => verifyRegistryDocument(SUMS, bad, trusted)).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
    }
  });
});

describe('file and byte checks', () => {
  it('verifyFileHash checks the size, then the SHA-256', async () => {
    const file = join(tempDir(), 'a.tgz');
    writeFileSync(file, 'hello');
    await expect(verifyFileHash(file, sha('hello'), 5)).resolves.toBeUndefined();
    await expect(verifyFileHash(file, sha('hello'), 6)).rejects.toMatchObject({ code: 'ARTIFACT_SIZE_MISMATCH' });
    writeFileSync(file, 'hellO');
    await expect(verifyFileHash(file, sha('hello'), 5)).rejects.toMatchObject({
      code: 'ARTIFACT_HASH_MISMATCH',
      message: expect.stringMatching(/nothing was installed/),
    });
  });

  it('verifyListedBytes checks a fetched document against SHA256SUMS', () => {
    expect(() => verifyListedBytes(SUMS, 'index.json', Buffer.from('index'))).not.toThrow();
    expect(() => verifyListedBytes(SUMS, 'index.json', Buffer.from('index2'))).toThrow(
      expect.objectContaining({ code: 'ARTIFACT_HASH_MISMATCH' }),
    );
  });

  it('assertNoRollback refuses versions older than the lock', () => {
    expect(() => assertNoRollback('lang-go', '1.2.0', '1.2.0')).not.toThrow();
    expect(() => assertNoRollback('lang-go', '1.2.0', '1.3.0')).not.toThrow();
    expect(() => assertNoRollback('lang-go', '1.2.0', '1.1.9')).toThrow(
      expect.objectContaining({
        code: 'VERSION_ROLLBACK',
        message: expect.stringMatching(/lang-go@1\.1\.9, older than 1\.2\.0 pinned in your lock file/),
      }),
    );
  });
});
