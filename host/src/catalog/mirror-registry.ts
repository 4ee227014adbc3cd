import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  SIGNATURE_FILE,
  SUMS_FILE,
  verifyListedBytes,
  verifyRegistryDirectory,
  verifyRegistryDocument,
  type RegistryClient,
} from '@travsr/registry';
import { LangError, LangErrorCode } from './errors.js';
import { registryClient, type RegistrySource } from './registry-source.js';

/** The public key written into a mirror, so that other machines can trust it. */
export const MIRROR_KEY_FILE = 'registry-key.pub';

/** What `lang mirror` copied. */
export interface MirrorResult {
  dir: string;
  files: number;
  bytes: number;
  signedBy: string;
  keyFile: string;
}

/** Largest file a mirror copies (artifacts bundle compilers and grammars, but not this much). */
const MIRROR_FILE_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Copies every file of a registry into `target` (absent or empty), checking the signature
 * first and every file against the signed `SHA256SUMS`, then verifies the copy as a whole
 * before moving it into place. The result is a plain directory usable as `registry.url`.
 */
export async function mirrorRegistry(source: RegistrySource, target: string): Promise<MirrorResult> {
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new LangError(LangErrorCode.MirrorTargetNotEmpty, `${dir} is not empty; mirror into a new directory (nothing was written)`);
  // The same client as installs: timeouts, `registry.deadline`, the snapshot history, retries, HTTP(S)_PROXY / NO_PROXY, or a directory.
  const client = registryClient(source);
  try {
    return await copyRegistry(client, source, dir);
  } finally {
    await client.close();
  }
}

async function copyRegistry(client: RegistryClient, source: RegistrySource, dir: string): Promise<MirrorResult> {
  const sumsBytes = await client.file(SUMS_FILE);
  const sigBytes = await client.file(SIGNATURE_FILE);
  const sums = verifyRegistryDocument(sumsBytes.toString('utf8'), sigBytes.toString('utf8'), source.trustedKeys);
  await mkdir(dirname(dir), { recursive: true });
  const tmp = `${dir}.partial-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    let bytes = 0;
    for (const path of [...sums.sums.keys()].sort()) {
      const data = await client.file(path, MIRROR_FILE_MAX_BYTES);
      verifyListedBytes(sums, path, data);
      const file = join(tmp, ...path.split('/'));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, data);
      bytes += data.length;
    }
    await writeFile(join(tmp, SUMS_FILE), sumsBytes);
    await writeFile(join(tmp, SIGNATURE_FILE), sigBytes);
    const key = source.trustedKeys.get(sums.keyId);
    if (key) await writeFile(join(tmp, MIRROR_KEY_FILE), `${JSON.stringify({ keyId: key.keyId, publicKey: key.publicKey }, null, 2)}\n`);
    await verifyRegistryDirectory(tmp, source.trustedKeys);
    if (existsSync(dir)) await rm(dir, { recursive: true });
    await rename(tmp, dir);
    return { dir, files: sums.sums.size + 2, bytes, signedBy: sums.keyId, keyFile: join(dir, MIRROR_KEY_FILE) };
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}
