import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorCode, MANIFEST_FILE, parseManifest, type PluginManifest } from '@travsr/protocol';
import { copyFileAtomic, writeFileAtomic } from './atomic-write.js';
import { parseVersionDocument, serializeDocument } from './documents.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { trustedKeyOf, TrustedKeys, type SigningKey } from './keys.js';
import {
  artifactPath,
  assertPlatform,
  INDEX_FILE,
  PLATFORMS,
  platformOfArtifactFile,
  requiredTier,
  sbomPath,
  SIGNATURE_FILE,
  SUMS_FILE,
  versionDocumentPath,
  type ArtifactRecord,
  type IndexEntry,
  type Platform,
  type RegistryIndex,
  type SbomRecord,
  type VersionDocument,
} from './layout.js';
import { verifyRegistryDirectory, type VerifiedRegistry } from './registry-directory.js';
import { safeExtract, type ExtractLimits } from './safe-extract.js';
import { readPackedSbom, sbomPathFor } from './pack.js';
import { sbomPackages } from './sbom.js';
import { compareVersions, parseVersion, sortVersions } from './semver.js';
import { formatSha256Sums } from './sha256-sums.js';
import { serializeSignature, signSha256Sums, type SumsSignature } from './signature.js';
import { treeHash } from './tree-hash.js';
import { sha256File } from './verify.js';

/** Options shared by {@link publishArtifact} and {@link signRegistry}. */
export interface SignOptions {
  /**
   * Keys accepted for the registry's current signature, checked before anything is
   * changed. Default: the signing key alone. When rotating keys, include the old one.
   */
  trustedKeys?: TrustedKeys;
  /** Signing time (default: now). */
  now?: Date;
}

/** Options of {@link publishArtifact}. */
export interface PublishOptions extends SignOptions {
  /** Platform of the artifact. Default: the `-<platform>.tgz` suffix `packPlugin` gives the file name, else `any`. */
  platform?: Platform;
  /** Limits for the test extraction of the artifact. */
  limits?: Partial<ExtractLimits>;
  /**
   * The artifact's CycloneDX SBOM, published beside it with its hash in the signed version
   * document. Default: the `.cdx.json` `travsr plugin pack` wrote beside the artifact
   * ({@link sbomPathFor}), when it is there; `false` publishes without one.
   */
  sbom?: string | false;
}

/** What {@link publishArtifact} did. */
export interface PublishResult {
  id: string;
  version: string;
  artifact: ArtifactRecord;
  /** Registry path of the version document. */
  versionDocument: string;
  /** False when exactly this artifact was already published (nothing was written). */
  changed: boolean;
}

const LOCK_FILE = '.publish.lock';

async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true });
  const lock = join(dir, LOCK_FILE);
  let handle;
  try {
    handle = await open(lock, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RegistryError(
        RegistryErrorCode.RegistryBusy,
        `another publish is writing to ${dir} (${lock} exists); wait for it to finish, or remove the lock file if no publish is running`,
        { lock },
      );
    }
    throw e;
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

async function loadForPublish(dir: string, key: SigningKey, options: SignOptions): Promise<VerifiedRegistry> {
  const trusted = options.trustedKeys ?? new TrustedKeys([trustedKeyOf(key)]);
  try {
    return await verifyRegistryDirectory(dir, trusted);
  } catch (e) {
    if (errorCode(e) === RegistryErrorCode.KeyUnknown) {
      throw new RegistryError(
        RegistryErrorCode.KeyUnknown,
        `${dir} is signed by a key other than ${key.keyId}; to rotate the registry key, pass the previous public key as trusted (signRegistry with trustedKeys) so the registry is checked before it is re-signed`,
      );
    }
    throw e;
  }
}

interface Inspected {
  manifest: PluginManifest;
  sha256: string;
  size: number;
  treeHash: string;
}

/** Extracts the artifact the way a client will, and reads what the registry records about it. */
async function inspectArtifact(file: string, limits: Partial<ExtractLimits>): Promise<Inspected> {
  const scratch = await mkdtemp(join(tmpdir(), 'travsr-publish-'));
  try {
    const dir = join(scratch, 'package');
    await safeExtract(file, dir, limits);
    let manifest: PluginManifest;
    try {
      manifest = parseManifest(await readFile(join(dir, MANIFEST_FILE), 'utf8'), `${MANIFEST_FILE} in ${file}`);
      parseVersion(manifest.version);
    } catch (e) {
      throw new RegistryError(
        RegistryErrorCode.PackManifestInvalid,
        `cannot publish ${file}: ${(e as Error).message}; pack the plugin with travsr plugin pack`,
      );
    }
    const entry = await stat(join(dir, ...manifest.entrypoint.path.split('/'))).catch(() => undefined);
    if (!entry?.isFile()) {
      throw new RegistryError(
        RegistryErrorCode.PackEntrypointMissing,
        `cannot publish ${file}: its entrypoint ${manifest.entrypoint.path} is not in the archive; build the plugin and pack it again`,
      );
    }
    return { manifest, ...(await sha256File(file)), treeHash: await treeHash(dir) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The SBOM to publish with an artifact, checked to describe it: its bytes and its record. */
async function readSbomFor(
  artifactFile: string,
  given: string | false | undefined,
  manifest: PluginManifest,
  platform: Platform,
): Promise<{ bytes: Buffer; record: SbomRecord } | undefined> {
  if (given === false) return undefined;
  const file = given ?? sbomPathFor(artifactFile);
  const found = await readPackedSbom(file, { name: manifest.id, version: manifest.version });
  if (!found) {
    if (given === undefined) return undefined;
    throw new RegistryError(
      RegistryErrorCode.SbomInvalid,
      `cannot read the SBOM ${file} (ENOENT); give the .cdx.json travsr plugin pack wrote, or publish without one`,
      { file },
    );
  }
  const { bytes, sha256, bom } = found;
  return {
    bytes,
    record: {
      file: sbomPath(manifest.id, manifest.version, platform),
      sha256,
      size: bytes.length,
      specVersion: bom.specVersion,
      components: sbomPackages(bom).length,
    },
  };
}

function platformOf(file: string, given: Platform | undefined): Platform {
  return given !== undefined ? assertPlatform(given) : platformOfArtifactFile(file);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function versionExists(id: string, version: string, why: string): RegistryError {
  return new RegistryError(
    RegistryErrorCode.VersionExists,
    `${id}@${version} is already published ${why}; published versions never change — bump the version in ${MANIFEST_FILE}, pack and publish again`,
    { id, version },
  );
}

function indexEntry(existing: IndexEntry | undefined, doc: VersionDocument): IndexEntry {
  const versions = sortVersions([...(existing?.versions ?? []), doc.version].filter((v, i, all) => all.indexOf(v) === i));
  const releases = versions.filter((v) => parseVersion(v).prerelease.length === 0);
  const latest = releases[releases.length - 1] ?? versions[versions.length - 1] ?? doc.version;
  const fromNew = latest === doc.version || !existing;
  return {
    latest,
    versions,
    languages: fromNew ? [...doc.manifest.languages] : existing.languages,
    description: fromNew ? (doc.manifest.description ?? '') : existing.description,
  };
}

function sortedIndex(index: RegistryIndex): RegistryIndex {
  const plugins: Record<string, IndexEntry> = {};
  for (const id of Object.keys(index.plugins).sort()) {
    const e = index.plugins[id];
    if (e) plugins[id] = e;
  }
  return { formatVersion: index.formatVersion, plugins };
}

/** Records what a publish overwrote, so a failure can put it back. */
class Journal {
  readonly #undo: { file: string; before: Buffer | undefined }[] = [];

  async record(file: string): Promise<void> {
    const before = await readFile(file).catch(() => undefined);
    this.#undo.push({ file, before });
  }

  async rollback(): Promise<void> {
    for (const { file, before } of this.#undo.reverse()) {
      if (before === undefined) await rm(file, { force: true });
      else await writeFileAtomic(file, before);
    }
  }
}

async function writeSums(
  dir: string,
  sums: Map<string, string>,
  key: SigningKey,
  now: Date | undefined,
  journal: Journal,
): Promise<SumsSignature> {
  const text = formatSha256Sums(sums);
  const sig = signSha256Sums(text, key, now);
  for (const [name, data] of [
    [SUMS_FILE, text],
    [SIGNATURE_FILE, serializeSignature(sig)],
  ] as const) {
    await journal.record(join(dir, name));
    await writeFileAtomic(join(dir, name), data);
  }
  return sig;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Adds an artifact to a registry directory (creating the layout on first use): copies the
 * `.tgz` to `artifacts/` with its SBOM (the `.cdx.json` beside it, checked to describe this
 * plugin and version; its SHA-256 goes into the version document), writes or extends `plugins/<id>/<version>.json`, updates
 * `index.json`, rewrites `SHA256SUMS` and signs it.
 *
 * Before changing anything it checks the registry against its signature
 * ({@link verifyRegistryDirectory}) and extracts the artifact the way a client will
 * ({@link safeExtract}) to read its manifest and tree hash. Publishing the same bytes again
 * is a no-op; a version is extended with another platform only when the manifest is the
 * same. Every file is written atomically (temporary file + rename), and a failure part-way
 * puts back what was overwritten. A lock file keeps two publishes apart. Readers that
 * fetch between the `SHA256SUMS` and `SHA256SUMS.sig` renames see a signature mismatch and
 * should fetch once more.
 *
 * @throws RegistryError `REGISTRY_VERSION_EXISTS`, `REGISTRY_TAMPERED`, `REGISTRY_BUSY`, `SBOM_INVALID`,
 *   an `ARCHIVE_…` code for an unsafe artifact, or a signature code for a registry signed by an untrusted key.
 * @example
 * ```ts
 * const key = await readSigningKey('/secrets/registry.key');
 * const packed = await packPlugin('plugins/example-lua', 'out');
 * await publishArtifact('/srv/registry', packed.file, key); // { id: 'example-lua', version: '0.1.0', changed: true, … }
 * ```
 */
export async function publishArtifact(
  registryDir: string,
  artifactFile: string,
  signingKey: SigningKey,
  options: PublishOptions = {},
): Promise<PublishResult> {
  const platform = platformOf(artifactFile, options.platform);
  return withLock(registryDir, async () => {
    const state = await loadForPublish(registryDir, signingKey, options);
    const art = await inspectArtifact(artifactFile, options.limits ?? {});
    const { id, version } = art.manifest;
    const docPath = versionDocumentPath(id, version);
    const sbom = await readSbomFor(artifactFile, options.sbom, art.manifest, platform);
    const record: ArtifactRecord = {
      platform,
      file: artifactPath(id, version, platform),
      sha256: art.sha256,
      size: art.size,
      treeHash: art.treeHash,
      ...(sbom ? { sbom: sbom.record } : {}),
    };

    const entry = state.index.plugins[id];
    const twin = entry?.versions.find((v) => v !== version && compareVersions(v, version) === 0);
    if (twin !== undefined) throw versionExists(id, version, `as ${twin} (the same version apart from build metadata)`);

    let doc: VersionDocument;
    const existingText = state.sums.has(docPath) ? await readFile(join(registryDir, docPath), 'utf8') : undefined;
    if (existingText !== undefined) {
      const existing = parseVersionDocument(existingText, docPath, { id, version });
      if (canonical(existing.manifest) !== canonical(art.manifest)) throw versionExists(id, version, 'with a different travsr-plugin.json');
      const same = existing.artifacts.find((a) => a.platform === platform);
      if (same) {
        if (same.sha256 === record.sha256) return { id, version, artifact: same, versionDocument: docPath, changed: false };
        throw versionExists(id, version, `for ${platform} with different bytes (SHA-256 ${same.sha256}, this artifact ${record.sha256})`);
      }
      const artifacts = [...existing.artifacts, record].sort((a, b) => PLATFORMS.indexOf(a.platform) - PLATFORMS.indexOf(b.platform));
      doc = { ...existing, artifacts };
    } else {
      for (const file of [record.file, sbom?.record.file]) {
        if (file !== undefined && state.sums.has(file)) throw versionExists(id, version, `(${file} exists without its version document)`);
      }
      doc = {
        formatVersion: 1,
        id,
        version,
        protocolVersions: [...art.manifest.protocolVersions],
        languages: [...art.manifest.languages],
        tier: requiredTier(art.manifest),
        manifest: art.manifest,
        artifacts: [record],
        created: (options.now ?? new Date()).toISOString(),
      };
    }

    const index = sortedIndex({ ...state.index, plugins: { ...state.index.plugins, [id]: indexEntry(entry, doc) } });
    const docText = serializeDocument(doc);
    const indexText = serializeDocument(index);
    const sums = new Map(state.sums);
    sums.set(record.file, record.sha256);
    if (sbom) sums.set(sbom.record.file, sbom.record.sha256);
    sums.set(docPath, sha256(docText));
    sums.set(INDEX_FILE, sha256(indexText));

    const journal = new Journal();
    try {
      const at = (p: string): string => join(registryDir, ...p.split('/'));
      await journal.record(at(record.file));
      await copyFileAtomic(artifactFile, at(record.file));
      const copied = await sha256File(at(record.file));
      if (copied.sha256 !== record.sha256) {
        throw new RegistryError(
          RegistryErrorCode.ArtifactHashMismatch,
          `${artifactFile} changed while it was being published; publish it again`,
        );
      }
      if (sbom) {
        await journal.record(at(sbom.record.file));
        await writeFileAtomic(at(sbom.record.file), sbom.bytes);
      }
      await journal.record(at(docPath));
      await writeFileAtomic(at(docPath), docText);
      await journal.record(at(INDEX_FILE));
      await writeFileAtomic(at(INDEX_FILE), indexText);
      await writeSums(registryDir, sums, signingKey, options.now, journal);
    } catch (e) {
      await journal.rollback();
      throw e;
    }
    return { id, version, artifact: record, versionDocument: docPath, changed: true };
  });
}

/**
 * Re-signs a registry with `signingKey` after checking it against its current signature
 * (under `options.trustedKeys`): the step of a key rotation that moves the registry to the
 * new key. The file list is unchanged.
 *
 * Rotation: generate the new key; publish its public half so clients trust both keys;
 * `signRegistry(dir, newKey, { trustedKeys: [old, new] })`; then clients retire the old key
 * (`notAfter` = the rotation time) or, if it leaked, revoke it.
 *
 * @throws RegistryError as {@link verifyRegistryDirectory}, or `REGISTRY_BUSY`.
 * @example
 * ```ts
 * await signRegistry('/srv/registry', newKey, { trustedKeys: new TrustedKeys([trustedKeyOf(oldKey), trustedKeyOf(newKey)]) });
 * ```
 */
export async function signRegistry(
  registryDir: string,
  signingKey: SigningKey,
  options: SignOptions = {},
): Promise<{ keyId: string; created: string }> {
  return withLock(registryDir, async () => {
    const state = await loadForPublish(registryDir, signingKey, options);
    if (state.sums.size === 0) {
      throw new RegistryError(
        RegistryErrorCode.RegistryEmpty,
        `${registryDir} is not a registry yet (no ${SUMS_FILE}); publish a plugin to create it`,
      );
    }
    const journal = new Journal();
    try {
      const sig = await writeSums(registryDir, state.sums, signingKey, options.now, journal);
      return { keyId: sig.keyId, created: sig.created };
    } catch (e) {
      await journal.rollback();
      throw e;
    }
  });
}
