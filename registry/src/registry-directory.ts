import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRegistryIndex } from './documents.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import type { TrustedKeys } from './keys.js';
import {
  ARTIFACTS_DIR,
  INDEX_FILE,
  PLUGINS_DIR,
  REGISTRY_FORMAT_VERSION,
  SIGNATURE_FILE,
  SUMS_FILE,
  type RegistryIndex,
} from './layout.js';
import { sha256File, verifyRegistryDocument } from './verify.js';

/** A registry directory whose every file matched its signed `SHA256SUMS`. */
export interface VerifiedRegistry {
  /** SHA-256 by registry path; empty for a registry not yet created. */
  sums: Map<string, string>;
  index: RegistryIndex;
  /** Key and time of the current signature; absent for a registry not yet created. */
  signedBy?: { keyId: string; created: string };
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Every file under `plugins/` and `artifacts/`, plus `index.json`, as registry paths. */
async function layoutFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(join(dir, rel), { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(path);
      else out.push(path);
    }
  }
  if ((await readOptional(join(dir, INDEX_FILE))) !== undefined) out.push(INDEX_FILE);
  await walk(PLUGINS_DIR);
  await walk(ARTIFACTS_DIR);
  return out.sort();
}

function tampered(dir: string, what: string): RegistryError {
  return new RegistryError(
    RegistryErrorCode.RegistryTampered,
    `the registry ${dir} does not match its signed SHA256SUMS: ${what}; nothing was changed — restore the file from a backup, or remove it if an earlier publish was interrupted, then publish again`,
    { registry: dir },
  );
}

/**
 * Checks a registry directory against itself: `SHA256SUMS.sig` verifies under
 * `trustedKeys`, every file listed in `SHA256SUMS` exists with that SHA-256, and no file in
 * the layout (`index.json`, `plugins/`, `artifacts/`) is unlisted. Files elsewhere in the
 * directory are not part of the registry and are ignored. A directory without any layout
 * file and without `SHA256SUMS` is an empty registry.
 *
 * Publishing runs this first, so a registry changed behind the publisher's back is never
 * signed again as if it were genuine.
 *
 * @throws RegistryError `REGISTRY_TAMPERED`, or the codes of {@link verifyRegistryDocument}.
 * @example
 * ```ts
 * const { index } = await verifyRegistryDirectory('/srv/travsr-registry', trusted);
 * Object.keys(index.plugins); // ['example-lua', …]
 * ```
 */
export async function verifyRegistryDirectory(dir: string, trustedKeys: TrustedKeys): Promise<VerifiedRegistry> {
  const sumsText = await readOptional(join(dir, SUMS_FILE));
  const sigText = await readOptional(join(dir, SIGNATURE_FILE));
  const files = await layoutFiles(dir);
  if (sumsText === undefined && sigText === undefined) {
    if (files.length > 0) throw tampered(dir, `it has ${files[0]} but no ${SUMS_FILE}`);
    return { sums: new Map(), index: { formatVersion: REGISTRY_FORMAT_VERSION, plugins: {} } };
  }
  if (sumsText === undefined || sigText === undefined) {
    throw tampered(dir, `${sumsText === undefined ? SUMS_FILE : SIGNATURE_FILE} is missing`);
  }
  const verified = verifyRegistryDocument(sumsText, sigText, trustedKeys);
  const sums = new Map(verified.sums);
  for (const path of files) if (!sums.has(path)) throw tampered(dir, `${path} is not listed`);
  for (const [path, expected] of sums) {
    let actual: string;
    try {
      actual = (await sha256File(join(dir, ...path.split('/')))).sha256;
    } catch {
      throw tampered(dir, `${path} is listed but missing`);
    }
    if (actual !== expected) throw tampered(dir, `${path} has SHA-256 ${actual}, not the signed ${expected}`);
  }
  const indexText = await readOptional(join(dir, INDEX_FILE));
  const index: RegistryIndex =
    indexText === undefined
      ? { formatVersion: REGISTRY_FORMAT_VERSION, plugins: {} }
      : parseRegistryIndex(indexText, join(dir, INDEX_FILE));
  return { sums, index, signedBy: { keyId: verified.keyId, created: verified.created } };
}
