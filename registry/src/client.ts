import { createHash } from 'node:crypto';
import { lstat, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode } from '@travsr/protocol';
import type { Dispatcher } from 'undici';
import { parseRegistryIndex, parseVersionDocument } from './documents.js';
import { RequestDeadline } from './deadline.js';
import { downloadArtifact, type DownloadOptions, type DownloadResult } from './download.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { installArtifact } from './install.js';
import type { TrustedKeys } from './keys.js';
import {
  assertPluginId,
  currentPlatform,
  INDEX_FILE,
  selectArtifact,
  SIGNATURE_FILE,
  SUMS_FILE,
  versionDocumentPath,
  type ArtifactRecord,
  type Platform,
  type RegistryIndex,
  type VersionDocument,
} from './layout.js';
import {
  DEFAULT_TIMEOUTS,
  assertRegistryPath,
  downloadDeadlineMs,
  transportFor,
  type RegistryTimeouts,
  type RegistryTransport,
} from './registry-transport.js';
import { withRetries, type RetryPolicy } from './retry.js';
import { parseSbom, type CycloneDxBom, type SbomExpectation } from './sbom.js';
import { maxSatisfying } from './semver.js';
import { SnapshotHistory } from './snapshot-history.js';
import { treeHash } from './tree-hash.js';
import { assertNoRollback, verifyListedBytes, verifyRegistryDocument, type VerifiedSums } from './verify.js';

/** Options of {@link RegistryClient}. */
export interface RegistryClientOptions {
  /** `https://…`, `http://…`, `file:///dir` or a directory path. */
  url: string;
  /** Keys allowed to sign the registry's `SHA256SUMS`. */
  trustedKeys: TrustedKeys;
  /**
   * Defaults: {@link DEFAULT_TIMEOUTS}. `connectMs` applies only when no `dispatcher` is given;
   * `deadlineMs` bounds each document and, with `minBytesPerSecond`, each download, retries included.
   */
  timeouts?: Partial<RegistryTimeouts>;
  /** Retries after a network error, timeout, truncated body or 5xx answer (default 3); never after a 4xx or a failed check. */
  retries?: number;
  /** First retry delay (default 200 ms), doubling per retry, with jitter. */
  retryDelayMs?: number;
  /** undici dispatcher; by default an `EnvHttpProxyAgent`, so `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` apply. */
  dispatcher?: Dispatcher;
  /** `User-Agent` header (default `travsr-registry-client`). */
  userAgent?: string;
  /**
   * A JSON file that remembers the newest signed snapshot seen per registry: an older one is
   * then refused (`SNAPSHOT_ROLLBACK`). Without it, only a lock file protects against a
   * replayed registry.
   */
  snapshotHistory?: string;
}

/** A verified view of the registry: its index, checked against the signed `SHA256SUMS`. */
export interface RegistrySnapshot {
  readonly index: RegistryIndex;
  readonly sums: VerifiedSums;
  /** Key id that signed `SHA256SUMS`. */
  readonly signedBy: string;
  /** Signed signing time (ISO 8601). */
  readonly created: string;
}

/** A version chosen by {@link RegistryClient.resolve} and the artifact to install on the platform. */
export interface ResolvedPlugin {
  readonly doc: VersionDocument;
  readonly artifact: ArtifactRecord;
}

/** An artifact's SBOM as {@link RegistryClient.sbom} fetched and checked it. */
export interface FetchedSbom {
  readonly bytes: Buffer;
  /** Lowercase hex SHA-256 of `bytes`, as the signed version document records it. */
  readonly sha256: string;
  readonly bom: CycloneDxBom;
}

/** Options of {@link RegistryClient.install}. */
export interface ClientInstallOptions {
  /** Platform to install for (default: this machine's, else `any`). */
  platform?: Platform;
  /** Version pinned by the lock file: an older one is refused (`VERSION_ROLLBACK`). */
  lockedVersion?: string;
  /** Hashes pinned by the lock file for `lockedVersion` (or for whatever resolves, without it). */
  lockedHashes?: { sha256?: string; treeHash?: string };
  /** Where downloads (and resumable `.part` files) go; default `<destRoot>/.downloads`. */
  downloadDir?: string;
  onProgress?: DownloadOptions['onProgress'];
}

/** What {@link RegistryClient.install} did. */
export interface ClientInstallResult {
  readonly id: string;
  readonly version: string;
  /** `<destRoot>/<id>/<version>`. */
  readonly dir: string;
  /** SHA-256 of the artifact archive. */
  readonly sha256: string;
  /** Tree hash of the installed files (the host re-checks it at every launch). */
  readonly treeHash: string;
  /** True when `dir` already held exactly these files: nothing was downloaded or changed. */
  readonly alreadyInstalled: boolean;
}

const SIGNATURE_MAX_BYTES = 64 * 1024;
const DOCUMENT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Client of a plugin registry over HTTP(S) (undici) or a local directory. Every document is
 * trusted only through the signed `SHA256SUMS`: the signature is checked first, then
 * `index.json`, version documents and artifacts against their listed SHA-256.
 *
 * @example
 * ```ts
 * const client = new RegistryClient({ url: 'https://plugins.example.org/', trustedKeys });
 * try {
 *   const { dir, treeHash } = await client.install('example-lua', '^0.1', join(home, 'plugins'));
 * } finally {
 *   await client.close();
 * }
 * ```
 */
export class RegistryClient {
  private readonly transport: RegistryTransport;
  private readonly trustedKeys: TrustedKeys;
  private readonly policy: RetryPolicy;
  private readonly timeouts: RegistryTimeouts;
  private readonly history: SnapshotHistory | undefined;
  private current: Promise<RegistrySnapshot> | undefined;

  constructor(options: RegistryClientOptions) {
    const timeouts: RegistryTimeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    for (const field of ['deadlineMs', 'minBytesPerSecond'] as const) {
      if (!(timeouts[field] > 0)) throw new TypeError(`timeouts.${field} must be a positive number; got ${String(timeouts[field])}`);
    }
    this.timeouts = timeouts;
    this.transport = transportFor(options.url, timeouts, options.userAgent ?? 'travsr-registry-client', options.dispatcher);
    this.trustedKeys = options.trustedKeys;
    this.policy = { retries: Math.max(0, options.retries ?? 3), baseDelayMs: options.retryDelayMs ?? 200 };
    this.history = options.snapshotHistory === undefined ? undefined : new SnapshotHistory(options.snapshotHistory);
  }

  /** The registry location this client reads. */
  get location(): string {
    return this.transport.location;
  }

  /** The URL (or file path) of a registry path. */
  urlOf(path: string): string {
    return this.transport.where(path);
  }

  /**
   * The raw bytes of one registry file (`SHA256SUMS`, an artifact, …), with this client's
   * transport: timeouts, retries on network errors and 5xx, the proxy from the environment.
   * Nothing is verified: check the bytes against a verified `SHA256SUMS` (as `travsr lang
   * mirror` does). The time limit is `timeouts.deadlineMs`, plus what the announced size takes
   * at `timeouts.minBytesPerSecond`, unless `options.deadlineMs` is given.
   * @throws RegistryError when the file is unreachable, larger than `maxBytes`, truncated or
   *   past its deadline (`REGISTRY_DEADLINE_EXCEEDED`).
   *
   * @example
   * ```ts
   * const sums = await client.file('SHA256SUMS');
   * ```
   */
  file(path: string, maxBytes: number = DOCUMENT_MAX_BYTES, options: { deadlineMs?: number } = {}): Promise<Buffer> {
    // Any file (an artifact, when mirroring): once its size is announced, it gets the time that
    // size takes at the slowest acceptable rate, as a download does.
    return this.fetchBytes(path, maxBytes, true, options.deadlineMs, options.deadlineMs === undefined);
  }

  private async fetchBytes(
    path: string,
    maxBytes: number,
    fresh: boolean,
    deadlineMs = this.timeouts.deadlineMs,
    scaleToSize = false,
  ): Promise<Buffer> {
    const url = this.transport.where(path);
    const deadline = new RequestDeadline(deadlineMs, url);
    try {
      return await this.fetchWithin(path, url, maxBytes, fresh, deadline, scaleToSize);
    } finally {
      deadline.dispose();
    }
  }

  private async fetchWithin(
    path: string,
    url: string,
    maxBytes: number,
    fresh: boolean,
    deadline: RequestDeadline,
    scaleToSize: boolean,
  ): Promise<Buffer> {
    let extended = false;
    return withRetries(this.policy, async () => {
      const body = await this.transport.open(path, 0, { fresh, signal: deadline.signal });
      const tooLarge = (): RegistryError =>
        new RegistryError(
          RegistryErrorCode.DocumentInvalid,
          `${url} is larger than ${maxBytes} bytes, more than any registry document may be; the registry is misconfigured or malicious — check the registry URL`,
          { url },
        );
      if (body.length !== undefined && body.length > maxBytes) {
        body.cancel();
        throw tooLarge();
      }
      if (scaleToSize && !extended && body.length !== undefined) {
        extended = true;
        deadline.extend(downloadDeadlineMs(this.timeouts, body.length) - this.timeouts.deadlineMs);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      try {
        for await (const chunk of body.chunks) {
          size += chunk.length;
          if (size > maxBytes) throw tooLarge();
          chunks.push(chunk);
        }
      } finally {
        body.cancel();
      }
      if (body.length !== undefined && size < body.length) {
        throw new RegistryError(RegistryErrorCode.RegistryTruncated, `${url} ended after ${size} of ${body.length} bytes; try again`, {
          url,
          retryable: true,
        });
      }
      return Buffer.concat(chunks);
    });
  }

  private async fetchSnapshot(): Promise<RegistrySnapshot> {
    const [sumsBytes, sigBytes] = await Promise.all([
      this.fetchBytes(SUMS_FILE, DOCUMENT_MAX_BYTES, true),
      this.fetchBytes(SIGNATURE_FILE, SIGNATURE_MAX_BYTES, true),
    ]);
    const sums = verifyRegistryDocument(sumsBytes.toString('utf8'), sigBytes.toString('utf8'), this.trustedKeys);
    // The signing time is signed, so it is the registry's own word on how new this snapshot is.
    await this.history?.admit(this.transport.where(''), { created: sums.created, keyId: sums.keyId });
    const indexBytes = await this.fetchBytes(INDEX_FILE, DOCUMENT_MAX_BYTES, true);
    verifyListedBytes(sums, INDEX_FILE, indexBytes);
    const index = parseRegistryIndex(indexBytes, this.transport.where(INDEX_FILE));
    return { index, sums, signedBy: sums.keyId, created: sums.created };
  }

  /**
   * Fetches and verifies `SHA256SUMS`, its signature and `index.json`. A publish replaces
   * these files one by one, so a signature or index that does not match is fetched once
   * more before the error is believed. Later calls of the other methods reuse the result.
   *
   * @throws RegistryError `KEY_UNKNOWN`, `KEY_REVOKED`, `KEY_RETIRED`, `SIGNATURE_INVALID`,
   *   `ARTIFACT_HASH_MISMATCH`, `REGISTRY_DOCUMENT_INVALID`, `SNAPSHOT_ROLLBACK` (older than one
   *   `snapshotHistory` remembers), `REGISTRY_DEADLINE_EXCEEDED` or a transport code.
   * @example
   * ```ts
   * const { index, signedBy } = await client.snapshot();
   * Object.keys(index.plugins); // ['example-lua', …]
   * ```
   */
  async snapshot(): Promise<RegistrySnapshot> {
    const next = this.fetchSnapshot().catch(async (e: unknown) => {
      const code = errorCode(e);
      if (code !== RegistryErrorCode.SignatureInvalid && code !== RegistryErrorCode.ArtifactHashMismatch) throw e;
      await sleep(this.policy.baseDelayMs);
      return this.fetchSnapshot();
    });
    this.current = next;
    void next.catch(() => {
      if (this.current === next) this.current = undefined;
    });
    return next;
  }

  private async verified(): Promise<RegistrySnapshot> {
    return this.current ?? this.snapshot();
  }

  private async indexEntry(id: string) {
    assertPluginId(id);
    const snap = await this.verified();
    const entry = snap.index.plugins[id];
    if (!entry) {
      throw new RegistryError(
        RegistryErrorCode.PluginNotFound,
        `the registry at ${this.location} has no plugin "${id}"; check the id (the registry has ${Object.keys(snap.index.plugins).length} plugins) or the registry URL`,
        { id },
      );
    }
    return { snap, entry };
  }

  /**
   * Fetches a version document and checks it against the signed `SHA256SUMS`.
   *
   * @throws RegistryError `REGISTRY_PLUGIN_NOT_FOUND`, `REGISTRY_VERSION_NOT_FOUND`,
   *   `ARTIFACT_HASH_MISMATCH`, `REGISTRY_DOCUMENT_INVALID` or a transport code.
   * @example
   * ```ts
   * const doc = await client.versionDocument('example-lua', '0.1.0');
   * doc.artifacts[0]?.treeHash; // 'sha256:…'
   * ```
   */
  async versionDocument(id: string, version: string): Promise<VersionDocument> {
    const { snap, entry } = await this.indexEntry(id);
    if (!entry.versions.includes(version)) {
      throw new RegistryError(
        RegistryErrorCode.VersionNotFound,
        `the registry at ${this.location} has no ${id}@${version}; published versions: ${entry.versions.join(', ')}`,
        { id, version },
      );
    }
    const path = versionDocumentPath(id, version);
    const bytes = await this.fetchBytes(path, DOCUMENT_MAX_BYTES, false);
    verifyListedBytes(snap.sums, path, bytes);
    return parseVersionDocument(bytes, this.transport.where(path), { id, version });
  }

  /**
   * The highest published version satisfying `rangeOrVersion` (`1.2.3`, `^1.2`, `*`, …), its
   * verified version document and the artifact for `platform`.
   *
   * @throws RegistryError `REGISTRY_PLUGIN_NOT_FOUND`, `REGISTRY_VERSION_NOT_FOUND`,
   *   `REGISTRY_NO_ARTIFACT`, `RANGE_INVALID` or what {@link versionDocument} throws.
   * @example
   * ```ts
   * const { doc, artifact } = await client.resolve('example-lua', '^0.1', { platform: 'linux-x64' });
   * ```
   */
  async resolve(id: string, rangeOrVersion: string, options: { platform?: Platform } = {}): Promise<ResolvedPlugin> {
    const { entry } = await this.indexEntry(id);
    const version = maxSatisfying(entry.versions, rangeOrVersion);
    if (version === undefined) {
      throw new RegistryError(
        RegistryErrorCode.VersionNotFound,
        `no published version of ${id} satisfies "${rangeOrVersion}" (published: ${entry.versions.join(', ')}); choose one of those or widen the range`,
        { id, range: rangeOrVersion },
      );
    }
    const doc = await this.versionDocument(id, version);
    const platform = options.platform ?? currentPlatform() ?? 'any';
    const artifact = selectArtifact(doc, platform);
    if (!artifact) {
      throw new RegistryError(
        RegistryErrorCode.ArtifactUnavailable,
        `${id}@${version} has no build for ${platform} (it has ${doc.artifacts.map((a) => a.platform).join(', ')}); pick another version or ask the plugin's maintainer for a ${platform} build`,
        { id, version, platform },
      );
    }
    assertRegistryPath(artifact.file);
    return { doc, artifact };
  }

  /**
   * Downloads an artifact to `destFile`, resuming a `<destFile>.part` left by an interrupted
   * download, and checks its size and SHA-256 (see {@link downloadArtifact}).
   *
   * @throws RegistryError `ARTIFACT_SIZE_MISMATCH`, `ARTIFACT_HASH_MISMATCH`, `DISK_FULL` or a transport code.
   * @example
   * ```ts
   * const { artifact } = await client.resolve('example-lua', '^0.1');
   * await client.download(artifact, '/tmp/example-lua.tgz', { onProgress: ({ received, total }) => bar.update(received / total) });
   * ```
   */
  async download(
    artifact: Pick<ArtifactRecord, 'file' | 'sha256' | 'size'>,
    destFile: string,
    options: DownloadOptions = {},
  ): Promise<DownloadResult> {
    return downloadArtifact(this.transport, { ...artifact, file: assertRegistryPath(artifact.file) }, destFile, this.policy, {
      deadlineMs: downloadDeadlineMs(this.timeouts, artifact.size),
      ...options,
    });
  }

  /**
   * Fetches the SBOM published with an artifact (undefined when it was published without
   * one) and checks it against the SHA-256 and size the signed version document records for
   * it, and against the signed `SHA256SUMS`; then that it is a CycloneDX document about
   * `expect` (the plugin and version).
   *
   * @throws RegistryError `ARTIFACT_SBOM_MISMATCH` (changed after signing, or damaged in
   *   transit), `ARTIFACT_HASH_MISMATCH`, `SBOM_INVALID` or a transport code.
   * @example
   * ```ts
   * const { doc, artifact } = await client.resolve('lang-go', '^0.1');
   * const sbom = await client.sbom(artifact, { name: doc.id, version: doc.version });
   * sbomPackages(sbom!.bom); // [{ name: 'tree-sitter-wasms', version: '0.1.13', licence: 'Unlicense' }, …]
   * ```
   */
  async sbom(artifact: Pick<ArtifactRecord, 'sbom'>, expect: SbomExpectation): Promise<FetchedSbom | undefined> {
    const record = artifact.sbom;
    if (!record) return undefined;
    const path = assertRegistryPath(record.file);
    const snap = await this.verified();
    const bytes = await this.fetchBytes(path, DOCUMENT_MAX_BYTES, false);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== record.sha256 || bytes.length !== record.size) {
      throw new RegistryError(
        RegistryErrorCode.ArtifactSbomMismatch,
        `the SBOM of ${expect.name}@${expect.version} (${this.transport.where(path)}) has SHA-256 ${sha256} and ${bytes.length} bytes, but the signed version document records ${record.sha256} and ${record.size}: it was changed after signing or damaged in transit; nothing was installed — fetch again, and tell the registry's maintainer if it persists`,
        { path, expected: record.sha256, actual: sha256 },
      );
    }
    verifyListedBytes(snap.sums, path, bytes);
    return { bytes, sha256, bom: parseSbom(bytes, this.transport.where(path), expect) };
  }

  /**
   * Resolves, downloads and installs a plugin into `<destRoot>/<id>/<version>`, all or
   * nothing: refuses a version older than `lockedVersion`, and artifact hashes other than
   * `lockedHashes`, before downloading anything; leaves an installation whose tree hash
   * already matches untouched.
   *
   * @throws RegistryError `VERSION_ROLLBACK`, `LOCK_HASH_MISMATCH`, what {@link resolve} and
   *   {@link download} throw, and the `ARTIFACT_…`/`ARCHIVE_…` codes of {@link installArtifact}.
   * @example
   * ```ts
   * const lock = { version: '0.1.0', sha256: 'e3b0…', treeHash: 'sha256:…' };
   * await client.install('example-lua', lock.version, join(home, 'plugins'), { lockedVersion: lock.version, lockedHashes: lock });
   * ```
   */
  async install(id: string, range: string, destRoot: string, options: ClientInstallOptions = {}): Promise<ClientInstallResult> {
    const resolveOptions = options.platform === undefined ? {} : { platform: options.platform };
    const { doc, artifact } = await this.resolve(id, range, resolveOptions);
    if (options.lockedVersion !== undefined) assertNoRollback(id, options.lockedVersion, doc.version);
    const locked = options.lockedHashes;
    if (locked && (options.lockedVersion === undefined || options.lockedVersion === doc.version)) {
      for (const field of ['sha256', 'treeHash'] as const) {
        const pinned = locked[field];
        if (pinned !== undefined && pinned !== artifact[field]) {
          throw new RegistryError(
            RegistryErrorCode.LockMismatch,
            `the registry's ${id}@${doc.version} (${artifact.platform}) has ${field} ${artifact[field]}, but your lock file pins ${pinned}: the published artifact changed since it was locked (republished or tampered with); nothing was installed — if you trust the change, update the lock file`,
            { id, version: doc.version, field, locked: pinned, offered: artifact[field] },
          );
        }
      }
    }
    const dir = join(destRoot, ...id.split('/'), doc.version);
    const result = { id, version: doc.version, dir, sha256: artifact.sha256, treeHash: artifact.treeHash };
    if (await isDirectory(dir)) {
      const present = await treeHash(dir).catch(() => undefined);
      if (present === artifact.treeHash) return { ...result, alreadyInstalled: true };
    }
    const downloadDir = options.downloadDir ?? join(destRoot, '.downloads');
    const tgz = join(downloadDir, `${basename(artifact.file, '.tgz')}-${artifact.sha256.slice(0, 16)}.tgz`);
    await this.download(artifact, tgz, options.onProgress ? { onProgress: options.onProgress } : {});
    try {
      const installed = await installArtifact(tgz, dir, { ...artifact, id, version: doc.version });
      return { ...result, treeHash: installed.treeHash, alreadyInstalled: installed.alreadyInstalled };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        throw new RegistryError(
          RegistryErrorCode.DiskFull,
          `no space left under ${destRoot} while installing ${id}@${doc.version} (${code}); nothing was installed — free some space and try again`,
          { id, version: doc.version, dir },
        );
      }
      throw e;
    } finally {
      await rm(tgz, { force: true });
    }
  }

  /** Closes the connections of the client's own dispatcher (a dispatcher passed in is left open). */
  async close(): Promise<void> {
    await this.transport.close();
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
