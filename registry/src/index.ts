/**
 * @travsr/registry — the plugin registry as a library: the static layout and its documents,
 * ed25519 keys and signatures, deterministic packing, publishing, verification, safe
 * extraction and atomic installs, and the tree hash the host re-checks at every launch.
 * The CLI commands and the HTTP client build on these.
 *
 * Two parts load on their own, without the HTTP client: `@travsr/registry/tree-hash` and
 * `@travsr/registry/semver`, for the host's every index run.
 */
export { RegistryError, RegistryErrorCode } from './errors.js';
export { FileDigests, TreeHashError, treeEntries, treeHash, treeHashOf, verifyTreeHash, type TreeEntry } from './tree-hash.js';
export {
  parseVersion,
  isVersion,
  compareVersions,
  sortVersions,
  parseRange,
  satisfies,
  maxSatisfying,
  type SemVer,
  type VersionRange,
} from './semver.js';
export {
  REGISTRY_FORMAT_VERSION,
  INDEX_FILE,
  SUMS_FILE,
  SIGNATURE_FILE,
  PLUGINS_DIR,
  ARTIFACTS_DIR,
  PLATFORMS,
  assertPluginId,
  pluginFileId,
  assertPlatform,
  versionDocumentPath,
  artifactPath,
  sbomPath,
  currentPlatform,
  platformOfArtifactFile,
  selectArtifact,
  requiredTier,
  type Platform,
  type PluginTier,
  type IndexEntry,
  type RegistryIndex,
  type ArtifactRecord,
  type SbomRecord,
  type VersionDocument,
} from './layout.js';
export { parseRegistryIndex, parseVersionDocument, serializeDocument } from './documents.js';
export { parseSha256Sums, formatSha256Sums, isRegistryPath } from './sha256-sums.js';
export {
  generateSigningKey,
  signingKeyFromPem,
  writeSigningKey,
  readSigningKey,
  readTrustedKeyFile,
  trustedKeyOf,
  keyIdOf,
  publicKeyObject,
  TrustedKeys,
  type SigningKey,
  type TrustedKey,
} from './keys.js';
export { signSha256Sums, serializeSignature, parseSignature, signedPayload, type SumsSignature } from './signature.js';
export {
  verifyRegistryDocument,
  checksumFor,
  verifyListedBytes,
  verifyFileHash,
  sha256File,
  assertNoRollback,
  type VerifiedSums,
} from './verify.js';
export { safeExtract, DEFAULT_EXTRACT_LIMITS, type ExtractLimits, type ExtractOptions, type ExtractResult } from './safe-extract.js';
export {
  packPlugin,
  pluginDirSbom,
  readPackedSbom,
  PACK_EXCLUDED,
  ARTIFACT_ROOT,
  BUILD_RECORD_FILE,
  sbomPathFor,
  type PackOptions,
  type PackResult,
  type PackedSbom,
} from './pack.js';
export { PACK_MTIME } from './tar-writer.js';
export { verifyRegistryDirectory, type VerifiedRegistry } from './registry-directory.js';
export { publishArtifact, signRegistry, type PublishOptions, type PublishResult, type SignOptions } from './publish.js';
export { installArtifact, type ArtifactExpectation, type InstallResult } from './install.js';
export {
  serveRegistry,
  listenFailureReason,
  RegistryServerError,
  RegistryServerErrorCode,
  type ServeRegistryOptions,
  type RegistryServer,
  type RegistryRequestLog,
} from './serve.js';
export {
  RegistryClient,
  type RegistryClientOptions,
  type RegistrySnapshot,
  type ResolvedPlugin,
  type ClientInstallOptions,
  type ClientInstallResult,
  type FetchedSbom,
} from './client.js';
export type { DownloadOptions, DownloadProgress, DownloadResult } from './download.js';
export { DEFAULT_TIMEOUTS, downloadDeadlineMs, type RegistryTimeouts } from './registry-transport.js';
export { RequestDeadline } from './deadline.js';
export { SnapshotHistory, type SnapshotStamp } from './snapshot-history.js';
export {
  buildSbom,
  npmPurl,
  packageOfFile,
  componentLicence,
  parseSbom,
  serializeSbom,
  sbomPackages,
  summarizeSbom,
  SBOM_SPEC_VERSION,
  type BuildRecord,
  type CycloneDxBom,
  type CycloneDxComponent,
  type PackageOfFile,
  type SbomExpectation,
  type SbomPackageOptions,
  type SbomSubject,
  type SbomSummary,
} from './sbom.js';
export { DEFAULT_ALLOWED_LICENCES, licenceAllowed } from './licence-policy.js';
