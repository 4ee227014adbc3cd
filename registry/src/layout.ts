import type { PluginManifest } from '@travsr/protocol';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { parseVersion } from './semver.js';

/**
 * Format number written into `index.json` and every version document, for this layout.
 * A registry is a directory (or any HTTP server or `file://`
 * URL serving one) holding:
 *
 * ```
 * index.json                                every plugin: latest, versions, languages, description
 * plugins/<id>/<version>.json               one version document per published version
 * artifacts/<id>-<version>-<platform>.tgz   the packed plugins
 * SHA256SUMS                                `<sha256>  <path>` for every file above
 * SHA256SUMS.sig                            ed25519 signature of SHA256SUMS (JSON)
 * ```
 *
 * A scoped id `acme/lua` is written `acme~lua` in file names (`~` is not allowed in ids).
 *
 * @example
 * ```ts
 * versionDocumentPath('example-lua', '0.1.0'); // 'plugins/example-lua/0.1.0.json'
 * artifactPath('acme/lua', '1.0.0', 'any'); // 'artifacts/acme~lua-1.0.0-any.tgz'
 * ```
 */
export const REGISTRY_FORMAT_VERSION = 1;
/**
 * Path of the plugin index, relative to the registry root.
 * @example
 * ```ts
 * new URL(INDEX_FILE, 'https://plugins.example.org/'); // …/index.json
 * ```
 */
export const INDEX_FILE = 'index.json';
/**
 * Path of the checksum list, relative to the registry root.
 * @example
 * ```ts
 * await readFile(join(registryDir, SUMS_FILE), 'utf8');
 * ```
 */
export const SUMS_FILE = 'SHA256SUMS';
/**
 * Path of the checksum list's signature, relative to the registry root.
 * @example
 * ```ts
 * await readFile(join(registryDir, SIGNATURE_FILE), 'utf8');
 * ```
 */
export const SIGNATURE_FILE = 'SHA256SUMS.sig';
/**
 * Folder of version documents.
 * @example
 * ```ts
 * versionDocumentPath('x', '1.0.0').startsWith(`${PLUGINS_DIR}/`); // true
 * ```
 */
export const PLUGINS_DIR = 'plugins';
/**
 * Folder of artifacts.
 * @example
 * ```ts
 * artifactPath('x', '1.0.0', 'any').startsWith(`${ARTIFACTS_DIR}/`); // true
 * ```
 */
export const ARTIFACTS_DIR = 'artifacts';

/**
 * Platforms an artifact can be built for; `any` runs everywhere (JavaScript + wasm).
 * Names are Node's `process.platform`-`process.arch`.
 *
 * @example
 * ```ts
 * PLATFORMS.includes('linux-x64'); // true
 * ```
 */
export const PLATFORMS = ['any', 'linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'] as const;
/** One of {@link PLATFORMS}. */
export type Platform = (typeof PLATFORMS)[number];

/** The sandbox tier a plugin needs, derived from its manifest's constraints. */
export type PluginTier = 'standard' | 'native-ipc' | 'elevated';

/** One plugin in `index.json`. */
export interface IndexEntry {
  /** Highest published release (or highest prerelease when there is no release). */
  latest: string;
  /** Every published version, ascending. */
  versions: string[];
  /** Languages of the latest version. */
  languages: string[];
  /** Description of the latest version (empty when the manifest has none). */
  description: string;
}

/** `index.json`. */
export interface RegistryIndex {
  formatVersion: typeof REGISTRY_FORMAT_VERSION;
  /** By plugin id, in id order. */
  plugins: Record<string, IndexEntry>;
}

/** One downloadable artifact of a version. */
export interface ArtifactRecord {
  platform: Platform;
  /** Path relative to the registry root: always {@link artifactPath}`(id, version, platform)`. */
  file: string;
  /** Lowercase hex SHA-256 of the `.tgz`. */
  sha256: string;
  /** Size of the `.tgz` in bytes. */
  size: number;
  /** {@link treeHash} of the extracted files (`sha256:…`). */
  treeHash: string;
  /** The artifact's bill of materials, when it was published with one. */
  sbom?: SbomRecord;
}

/** The CycloneDX SBOM published with an artifact: its hash is in the signed version document. */
export interface SbomRecord {
  /** Path relative to the registry root: always {@link sbomPath}`(id, version, platform)`. */
  file: string;
  /** Lowercase hex SHA-256 of the SBOM's bytes. */
  sha256: string;
  /** Its size in bytes. */
  size: number;
  /** The CycloneDX specification version it follows (`1.6`). */
  specVersion: string;
  /** How many packages it names. */
  components: number;
}

/** `plugins/<id>/<version>.json`. */
export interface VersionDocument {
  formatVersion: typeof REGISTRY_FORMAT_VERSION;
  id: string;
  version: string;
  protocolVersions: string[];
  languages: string[];
  tier: PluginTier;
  /** The packed `travsr-plugin.json`, so constraints can be checked before downloading. */
  manifest: PluginManifest;
  /** One per platform, in {@link PLATFORMS} order. */
  artifacts: ArtifactRecord[];
  /** When this version was first published (ISO 8601, UTC). */
  created: string;
}

// The manifest's id grammar: one optional scope, every segment starting with [a-z0-9],
// so no segment can be `.` or `..`.
const ID_RE = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)?$/;

/**
 * Checks a plugin id against the manifest's id grammar (which rules out `..`, empty
 * segments, `\` and absolute paths) and returns it.
 *
 * @throws RegistryError `REGISTRY_ID_INVALID`
 * @example
 * ```ts
 * assertPluginId('acme/lua'); // 'acme/lua'
 * assertPluginId('../evil'); // throws
 * ```
 */
export function assertPluginId(id: string): string {
  if (id.length > 128 || !ID_RE.test(id)) {
    throw new RegistryError(
      RegistryErrorCode.IdInvalid,
      `"${id.slice(0, 80)}" is not a plugin id; ids are lowercase letters, digits, ".", "_" and "-", optionally with one "scope/" in front`,
    );
  }
  return id;
}

/**
 * The id as written in file names: `acme/lua` → `acme~lua`.
 *
 * @example
 * ```ts
 * pluginFileId('acme/lua'); // 'acme~lua'
 * ```
 */
export function pluginFileId(id: string): string {
  return assertPluginId(id).replace('/', '~');
}

function assertVersionForPath(version: string): string {
  parseVersion(version);
  return version;
}

/**
 * Checks that `value` is one of {@link PLATFORMS}.
 *
 * @throws RegistryError `REGISTRY_PLATFORM_INVALID`
 * @example
 * ```ts
 * assertPlatform('linux-x64'); // 'linux-x64'
 * ```
 */
export function assertPlatform(value: string): Platform {
  if (!(PLATFORMS as readonly string[]).includes(value)) {
    throw new RegistryError(
      RegistryErrorCode.PlatformInvalid,
      `"${value.slice(0, 40)}" is not a registry platform; use one of ${PLATFORMS.join(', ')}`,
    );
  }
  return value as Platform;
}

/**
 * Path of a version document, relative to the registry root.
 *
 * @throws RegistryError `REGISTRY_ID_INVALID` or `VERSION_INVALID` for anything that could escape.
 * @example
 * ```ts
 * versionDocumentPath('example-lua', '0.1.0'); // 'plugins/example-lua/0.1.0.json'
 * ```
 */
export function versionDocumentPath(id: string, version: string): string {
  return `${PLUGINS_DIR}/${pluginFileId(id)}/${assertVersionForPath(version)}.json`;
}

/**
 * Path of an artifact, relative to the registry root.
 *
 * @throws RegistryError `REGISTRY_ID_INVALID`, `VERSION_INVALID` or `REGISTRY_PLATFORM_INVALID`.
 * @example
 * ```ts
 * artifactPath('example-lua', '0.1.0', 'any'); // 'artifacts/example-lua-0.1.0-any.tgz'
 * ```
 */
export function artifactPath(id: string, version: string, platform: string): string {
  return `${ARTIFACTS_DIR}/${pluginFileId(id)}-${assertVersionForPath(version)}-${assertPlatform(platform)}.tgz`;
}

/**
 * Path of an artifact's SBOM, relative to the registry root: beside the artifact, as
 * `travsr plugin pack` writes it.
 *
 * @throws RegistryError `REGISTRY_ID_INVALID`, `VERSION_INVALID` or `REGISTRY_PLATFORM_INVALID`.
 * @example
 * ```ts
 * sbomPath('example-lua', '0.1.0', 'any'); // 'artifacts/example-lua-0.1.0-any.cdx.json'
 * ```
 */
export function sbomPath(id: string, version: string, platform: string): string {
  return artifactPath(id, version, platform).replace(/\.tgz$/, '.cdx.json');
}

/**
 * The platform an artifact's file name says it was packed for (`…-linux-x64.tgz`, as
 * `travsr plugin pack` names it), else `any`.
 *
 * @example
 * ```ts
 * platformOfArtifactFile('out/lang-go-0.1.0-linux-x64.tgz'); // 'linux-x64'
 * ```
 */
export function platformOfArtifactFile(file: string): Platform {
  const name = file.split(/[\\/]/).pop() ?? file;
  return [...PLATFORMS].sort((a, b) => b.length - a.length).find((p) => name.endsWith(`-${p}.tgz`)) ?? 'any';
}

/**
 * This machine's platform name, or `undefined` when the registry has no name for it.
 *
 * @example
 * ```ts
 * currentPlatform(); // 'linux-x64' on a 64-bit Intel Linux
 * ```
 */
export function currentPlatform(): Exclude<Platform, 'any'> | undefined {
  const name = `${process.platform}-${process.arch}`;
  return name !== 'any' && (PLATFORMS as readonly string[]).includes(name) ? (name as Exclude<Platform, 'any'>) : undefined;
}

/**
 * The artifact to install on `platform`: the one built for it, else the `any` one.
 *
 * @example
 * ```ts
 * const artifact = selectArtifact(doc, currentPlatform() ?? 'any');
 * if (!artifact) throw new Error(`${doc.id}@${doc.version} has no build for this machine`);
 * ```
 */
export function selectArtifact(doc: Pick<VersionDocument, 'artifacts'>, platform: Platform): ArtifactRecord | undefined {
  return doc.artifacts.find((a) => a.platform === platform) ?? doc.artifacts.find((a) => a.platform === 'any');
}

/**
 * The least-privileged tier that satisfies a manifest: a network allowlist needs
 * `elevated`, `ipc: posix-shm` needs `native-ipc`, anything else runs in `standard`
 * (the host's sandbox layer applies the same rule).
 *
 * @example
 * ```ts
 * requiredTier(manifest); // 'standard' for a plugin with network: false, ipc: 'none'
 * ```
 */
export function requiredTier(manifest: PluginManifest): PluginTier {
  const c = manifest.constraints;
  if (c.network !== false) return 'elevated';
  if (c.ipc === 'posix-shm') return 'native-ipc';
  return 'standard';
}
