import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MANIFEST_FILE, parseManifest, type PluginManifest } from '@travsr/protocol';
import { TEMP_PREFIX } from './atomic-write.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { safeExtract, type ExtractOptions } from './safe-extract.js';
import { treeHash } from './tree-hash.js';
import { verifyFileHash } from './verify.js';

/** What the registry promised about an artifact (from its verified version document). */
export interface ArtifactExpectation {
  sha256: string;
  size: number;
  treeHash: string;
  /** When given, the packed manifest must name this plugin and version. */
  id?: string;
  version?: string;
}

/** What {@link installArtifact} did. */
export interface InstallResult {
  dir: string;
  manifest: PluginManifest;
  treeHash: string;
  /** True when `dir` already held exactly these files (nothing was changed). */
  alreadyInstalled: boolean;
  /** True when `dir` held different files, which were replaced. */
  replaced: boolean;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function treeHashOrUndefined(dir: string): Promise<string | undefined> {
  try {
    return await treeHash(dir);
  } catch {
    return undefined;
  }
}

/**
 * Installs a downloaded artifact into `destDir` (e.g. `~/.travsr/plugins/<id>/<version>`),
 * all or nothing: checks the archive's size and SHA-256, extracts it with
 * {@link safeExtract} into a temporary directory beside `destDir`, checks the tree hash
 * and the manifest, then renames it into place. A `destDir` with the same tree hash is
 * left alone; one with different files (damaged or edited) is swapped for the new copy.
 * On any failure nothing at `destDir` changes and the temporary directory is removed.
 *
 * @throws RegistryError `ARTIFACT_SIZE_MISMATCH`, `ARTIFACT_HASH_MISMATCH`,
 *   `ARTIFACT_TREE_MISMATCH`, `ARTIFACT_MANIFEST_MISMATCH`, or an `ARCHIVE_…` code.
 * @example
 * ```ts
 * const artifact = selectArtifact(doc, currentPlatform() ?? 'any')!;
 * await installArtifact(downloaded, join(home, 'plugins', doc.id, doc.version), { ...artifact, id: doc.id, version: doc.version });
 * ```
 */
export async function installArtifact(
  artifactFile: string,
  destDir: string,
  expected: ArtifactExpectation,
  options: ExtractOptions = {},
): Promise<InstallResult> {
  await verifyFileHash(artifactFile, expected.sha256, expected.size);
  const parent = dirname(destDir);
  await mkdir(parent, { recursive: true });
  const tmp = join(parent, `${TEMP_PREFIX}${basename(destDir)}-${randomBytes(6).toString('hex')}`);
  await safeExtract(artifactFile, tmp, options);
  try {
    const actual = await treeHash(tmp);
    if (actual !== expected.treeHash) {
      throw new RegistryError(
        RegistryErrorCode.ArtifactTreeMismatch,
        `${artifactFile} unpacks to files with tree hash ${actual}, but the registry records ${expected.treeHash}; nothing was installed — the artifact does not match its version document, tell the registry's maintainer`,
        { expected: expected.treeHash, actual },
      );
    }
    let manifest: PluginManifest;
    try {
      manifest = parseManifest(await readFile(join(tmp, MANIFEST_FILE), 'utf8'), `${MANIFEST_FILE} in ${artifactFile}`);
    } catch (e) {
      throw new RegistryError(RegistryErrorCode.ArtifactManifestMismatch, `${(e as Error).message}; nothing was installed`);
    }
    if (
      (expected.id !== undefined && manifest.id !== expected.id) ||
      (expected.version !== undefined && manifest.version !== expected.version)
    ) {
      throw new RegistryError(
        RegistryErrorCode.ArtifactManifestMismatch,
        `${artifactFile} holds ${manifest.id}@${manifest.version}, but the registry offered it as ${expected.id ?? manifest.id}@${expected.version ?? manifest.version}; nothing was installed — tell the registry's maintainer`,
      );
    }
    const result = { dir: destDir, manifest, treeHash: actual };
    if (await exists(destDir)) {
      if ((await treeHashOrUndefined(destDir)) === actual) {
        await rm(tmp, { recursive: true, force: true });
        return { ...result, alreadyInstalled: true, replaced: false };
      }
      const old = join(parent, `${TEMP_PREFIX}old-${basename(destDir)}-${randomBytes(6).toString('hex')}`);
      await rename(destDir, old);
      try {
        await rename(tmp, destDir);
      } catch (e) {
        await rename(old, destDir);
        throw e;
      }
      await rm(old, { recursive: true, force: true });
      return { ...result, alreadyInstalled: false, replaced: true };
    }
    await rename(tmp, destDir);
    return { ...result, alreadyInstalled: false, replaced: false };
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}
