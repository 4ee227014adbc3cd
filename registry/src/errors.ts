import { TravsrError } from '@travsr/protocol';

/**
 * String codes of registry errors. Recognise errors by `code`, not `instanceof`.
 *
 * @example
 * ```ts
 * import { RegistryErrorCode } from '@travsr/registry';
 * RegistryErrorCode.SignatureInvalid === 'SIGNATURE_INVALID'; // true
 * ```
 */
export const RegistryErrorCode = {
  /** A plugin id that is not a valid manifest id, or would escape the registry layout. */
  IdInvalid: 'REGISTRY_ID_INVALID',
  /** Not a semantic version (`1.2.3`, `1.2.3-beta.1`). */
  VersionInvalid: 'VERSION_INVALID',
  /** Not a version range this package understands (`^1.2`, `~1.2.3`, `>=1.0 <2`, `1.2.3`, `*`). */
  RangeInvalid: 'RANGE_INVALID',
  /** A platform name outside {@link PLATFORMS}. */
  PlatformInvalid: 'REGISTRY_PLATFORM_INVALID',
  /** `index.json` or a version document does not have the documented shape. */
  DocumentInvalid: 'REGISTRY_DOCUMENT_INVALID',
  /** `SHA256SUMS` has a line that is not `<sha256>  <relative path>`. */
  SumsMalformed: 'SUMS_MALFORMED',
  /** `SHA256SUMS` does not list the file asked for. */
  ChecksumMissing: 'CHECKSUM_MISSING',
  /** The signature does not match `SHA256SUMS` under the named key, or is not a signature document. */
  SignatureInvalid: 'SIGNATURE_INVALID',
  /** The signature names a key that is not among the trusted keys. */
  KeyUnknown: 'KEY_UNKNOWN',
  /** The signing key was revoked: nothing it signed verifies any more. */
  KeyRevoked: 'KEY_REVOKED',
  /** The signing key was retired before the signature's `created` time. */
  KeyRetired: 'KEY_RETIRED',
  /** A key or trusted-key entry is malformed, or its id does not match its public key. */
  KeyInvalid: 'KEY_INVALID',
  /** Writing a key would overwrite an existing file. */
  KeyFileExists: 'KEY_FILE_EXISTS',
  /** A key file cannot be read or parsed. */
  KeyFileUnreadable: 'KEY_FILE_UNREADABLE',
  /** A private key file is readable or writable by other users. */
  KeyFilePermissions: 'KEY_FILE_PERMISSIONS',
  /** A downloaded file's SHA-256 differs from the signed one. */
  ArtifactHashMismatch: 'ARTIFACT_HASH_MISMATCH',
  /** A downloaded file's size differs from the recorded one. */
  ArtifactSizeMismatch: 'ARTIFACT_SIZE_MISMATCH',
  /** The extracted files' tree hash differs from the recorded one. */
  ArtifactTreeMismatch: 'ARTIFACT_TREE_MISMATCH',
  /** The extracted manifest is not the plugin and version the registry promised. */
  ArtifactManifestMismatch: 'ARTIFACT_MANIFEST_MISMATCH',
  /** An artifact's SBOM differs from the one whose SHA-256 the signed version document (or the lock) records. */
  ArtifactSbomMismatch: 'ARTIFACT_SBOM_MISMATCH',
  /** A file given as an SBOM is not a CycloneDX JSON document, or describes another plugin or version. */
  SbomInvalid: 'SBOM_INVALID',
  /** The registry offers an older version than the one in the lock file. */
  VersionRollback: 'VERSION_ROLLBACK',
  /** An archive entry has an absolute path, a `..` segment or a name that is not portable. */
  ArchivePathEscape: 'ARCHIVE_PATH_ESCAPE',
  /** An archive symlink or hard link points outside the target, or an entry goes through a symlink. */
  ArchiveLinkEscape: 'ARCHIVE_LINK_ESCAPE',
  /** An archive holds a device, FIFO or other entry that is not a file, directory or link. */
  ArchiveSpecialFile: 'ARCHIVE_SPECIAL_FILE',
  /** An archive is over the byte or entry limit (a decompression bomb, or just too big). */
  ArchiveTooLarge: 'ARCHIVE_TOO_LARGE',
  /** An archive is not a gzip-compressed tar, is truncated, or contradicts itself. */
  ArchiveCorrupt: 'ARCHIVE_CORRUPT',
  /** The extraction target already exists (extraction only goes into a fresh directory). */
  ArchiveTargetExists: 'ARCHIVE_TARGET_EXISTS',
  /** The directory to pack has no `travsr-plugin.json`. */
  PackNotAPlugin: 'PACK_NOT_A_PLUGIN',
  /** The plugin's `travsr-plugin.json` fails validation. */
  PackManifestInvalid: 'PACK_MANIFEST_INVALID',
  /** The manifest's entrypoint is not among the packed files (or is not executable for `exec`). */
  PackEntrypointMissing: 'PACK_ENTRYPOINT_MISSING',
  /** A symlink in the plugin directory points outside it, or is absolute. */
  PackLinkEscape: 'PACK_LINK_ESCAPE',
  /** A file name in the plugin directory would not extract the same everywhere (backslash, control character, or two names differing only in case). */
  PackPathUnportable: 'PACK_PATH_UNPORTABLE',
  /** The packed plugin would be over the size or entry limits that clients apply when extracting. */
  PackTooLarge: 'PACK_TOO_LARGE',
  /** The build record next to a plugin's entrypoint is not one `buildPlugin` writes. */
  PackBuildRecordInvalid: 'PACK_BUILD_RECORD_INVALID',
  /** The plugin directory holds a socket, FIFO or device. */
  PackSpecialFile: 'PACK_SPECIAL_FILE',
  /** Publishing would change the bytes of a version that is already published. */
  VersionExists: 'REGISTRY_VERSION_EXISTS',
  /** The registry directory does not match its own signed `SHA256SUMS`. */
  RegistryTampered: 'REGISTRY_TAMPERED',
  /** The directory is not a registry yet (nothing was ever published to it). */
  RegistryEmpty: 'REGISTRY_EMPTY',
  /** Another publish holds the registry's lock file. */
  RegistryBusy: 'REGISTRY_BUSY',
  /** A registry location that is neither `http(s)://…`, `file://…` nor a directory path. */
  RegistryUrlInvalid: 'REGISTRY_URL_INVALID',
  /** The registry could not be reached: connection refused or reset, DNS failure, a missing registry directory. */
  RegistryUnreachable: 'REGISTRY_UNREACHABLE',
  /** The registry did not connect, answer or keep sending within the client's time limits. */
  RegistryTimeout: 'REGISTRY_TIMEOUT',
  /** The registry answered with an HTTP error status (after retries, for 5xx). */
  RegistryHttpError: 'REGISTRY_HTTP_ERROR',
  /** A request or download took longer than its overall time limit (retries included), however steadily bytes trickled in. */
  RegistryDeadline: 'REGISTRY_DEADLINE_EXCEEDED',
  /** The registry's signed snapshot is older than one this machine has already seen from it (a replayed snapshot). */
  SnapshotRollback: 'SNAPSHOT_ROLLBACK',
  /** The file that remembers the newest snapshot seen per registry cannot be read or written. */
  SnapshotHistoryUnusable: 'SNAPSHOT_HISTORY_UNUSABLE',
  /** A download ended before all its bytes arrived (connection closed or reset mid-body). */
  RegistryTruncated: 'REGISTRY_TRUNCATED',
  /** The registry's index does not list the plugin asked for. */
  PluginNotFound: 'REGISTRY_PLUGIN_NOT_FOUND',
  /** No published version of the plugin satisfies the version or range asked for. */
  VersionNotFound: 'REGISTRY_VERSION_NOT_FOUND',
  /** The version has no artifact for this platform (and no `any` artifact). */
  ArtifactUnavailable: 'REGISTRY_NO_ARTIFACT',
  /** The registry's artifact hashes differ from those pinned in the lock file. */
  LockMismatch: 'LOCK_HASH_MISMATCH',
  /** The disk filled up while downloading or installing. */
  DiskFull: 'DISK_FULL',
} as const;
export type RegistryErrorCode = (typeof RegistryErrorCode)[keyof typeof RegistryErrorCode];

/**
 * An error of the registry library. The message says what happened, why, and what to do;
 * `details` carries machine-readable context (the archive entry, both hashes, …).
 *
 * @example
 * ```ts
 * try { await safeExtract(tgz, dir, limits); } catch (e) {
 *   if (errorCode(e) === 'ARCHIVE_LINK_ESCAPE') reportMalicious(e);
 * }
 * ```
 */
export class RegistryError extends TravsrError {
  override readonly name = 'RegistryError';
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}
