import { parseManifest, type PluginManifest } from '@travsr/protocol';
import { RegistryError, RegistryErrorCode } from './errors.js';
import {
  artifactPath,
  assertPluginId,
  PLATFORMS,
  REGISTRY_FORMAT_VERSION,
  requiredTier,
  sbomPath,
  type ArtifactRecord,
  type IndexEntry,
  type Platform,
  type RegistryIndex,
  type SbomRecord,
  type VersionDocument,
} from './layout.js';
import { compareVersions, isVersion } from './semver.js';

const SHA256_RE = /^[0-9a-f]{64}$/;
const TREE_HASH_RE = /^sha256:[0-9a-f]{64}$/;
const ISO_UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Reads one untrusted JSON value, failing with its JSON Pointer path. */
class DocumentReader {
  constructor(private readonly where: string) {}

  fail(path: string, problem: string): never {
    throw new RegistryError(
      RegistryErrorCode.DocumentInvalid,
      `${this.where} is not a valid registry document: ${path || '/'} ${problem}; the registry is damaged or was written by an incompatible version — republish it, or tell its maintainer`,
      { document: this.where, path },
    );
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'must be an object');
    return value as Record<string, unknown>;
  }

  string(value: unknown, path: string, re?: RegExp, what?: string): string {
    if (typeof value !== 'string') this.fail(path, 'must be a string');
    if (re && !re.test(value)) this.fail(path, `must be ${what ?? `a string matching ${String(re)}`}`);
    return value;
  }

  version(value: unknown, path: string): string {
    const s = this.string(value, path);
    if (!isVersion(s)) this.fail(path, 'must be a semantic version (1.2.3)');
    return s;
  }

  id(value: unknown, path: string): string {
    const s = this.string(value, path);
    try {
      return assertPluginId(s);
    } catch {
      return this.fail(path, 'must be a plugin id');
    }
  }

  strings(value: unknown, path: string, min = 0): string[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    if (value.length < min) this.fail(path, `must have at least ${min} item${min === 1 ? '' : 's'}`);
    return value.map((v, i) => this.string(v, `${path}/${i}`));
  }

  size(value: unknown, path: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) this.fail(path, 'must be a non-negative integer');
    return value;
  }

  timestamp(value: unknown, path: string): string {
    const s = this.string(value, path, ISO_UTC_RE, 'an ISO 8601 UTC time (2026-01-31T12:00:00Z)');
    if (Number.isNaN(Date.parse(s))) this.fail(path, 'is not a real date');
    return s;
  }

  formatVersion(value: unknown): typeof REGISTRY_FORMAT_VERSION {
    if (value !== REGISTRY_FORMAT_VERSION) {
      this.fail(
        '/formatVersion',
        `is ${JSON.stringify(value)}, but this Travsr reads format ${REGISTRY_FORMAT_VERSION} (update Travsr if the registry is newer)`,
      );
    }
    return REGISTRY_FORMAT_VERSION;
  }
}

function parseJson(source: unknown, where: string): unknown {
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) return source;
  const text = typeof source === 'string' ? source : Buffer.from(source).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return new DocumentReader(where).fail('/', `is not JSON (${(e as Error).message})`);
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Parses and validates `index.json`. Unknown fields are ignored (format 1 may grow
 * optional ones); the result holds only the documented fields.
 *
 * @throws RegistryError `REGISTRY_DOCUMENT_INVALID` naming the failing JSON path.
 * @example
 * ```ts
 * const index = parseRegistryIndex(await readFile('registry/index.json', 'utf8'));
 * index.plugins['example-lua']?.latest; // '0.1.0'
 * ```
 */
export function parseRegistryIndex(source: unknown, where = 'index.json'): RegistryIndex {
  const r: DocumentReader = new DocumentReader(where);
  const root = r.object(parseJson(source, where), '');
  const formatVersion = r.formatVersion(root.formatVersion);
  const plugins: Record<string, IndexEntry> = {};
  for (const [id, raw] of Object.entries(r.object(root.plugins, '/plugins'))) {
    const path = `/plugins/${id.replace('~', '~0').replace('/', '~1')}`;
    r.id(id, path);
    const e = r.object(raw, path);
    const versions = r.strings(e.versions, `${path}/versions`, 1).map((v, i) => r.version(v, `${path}/versions/${i}`));
    for (let i = 1; i < versions.length; i++) {
      if (compareVersions(versions[i - 1] ?? '', versions[i] ?? '') >= 0)
        r.fail(`${path}/versions`, 'must be ascending without duplicates');
    }
    const latest = r.version(e.latest, `${path}/latest`);
    if (!versions.includes(latest)) r.fail(`${path}/latest`, 'must be one of the versions');
    plugins[id] = {
      latest,
      versions,
      languages: r.strings(e.languages, `${path}/languages`),
      description: r.string(e.description, `${path}/description`),
    };
  }
  return { formatVersion, plugins };
}

function parseArtifact(r: DocumentReader, raw: unknown, path: string, id: string, version: string): ArtifactRecord {
  const a = r.object(raw, path);
  const platform = r.string(a.platform, `${path}/platform`);
  if (!(PLATFORMS as readonly string[]).includes(platform)) r.fail(`${path}/platform`, `must be one of ${PLATFORMS.join(', ')}`);
  const file = r.string(a.file, `${path}/file`);
  const expected = artifactPath(id, version, platform);
  if (file !== expected) r.fail(`${path}/file`, `must be "${expected}"`);
  return {
    platform: platform as Platform,
    file,
    sha256: r.string(a.sha256, `${path}/sha256`, SHA256_RE, '64 lowercase hex digits'),
    size: r.size(a.size, `${path}/size`),
    treeHash: r.string(a.treeHash, `${path}/treeHash`, TREE_HASH_RE, '"sha256:" and 64 lowercase hex digits'),
    ...(a.sbom === undefined ? {} : { sbom: parseSbomRecord(r, a.sbom, `${path}/sbom`, sbomPath(id, version, platform)) }),
  };
}

function parseSbomRecord(r: DocumentReader, raw: unknown, path: string, expected: string): SbomRecord {
  const s = r.object(raw, path);
  const file = r.string(s.file, `${path}/file`);
  if (file !== expected) r.fail(`${path}/file`, `must be "${expected}"`);
  return {
    file,
    sha256: r.string(s.sha256, `${path}/sha256`, SHA256_RE, '64 lowercase hex digits'),
    size: r.size(s.size, `${path}/size`),
    specVersion: r.string(s.specVersion, `${path}/specVersion`, /^\d+\.\d+$/, 'a CycloneDX specification version (1.6)'),
    components: r.size(s.components, `${path}/components`),
  };
}

/**
 * Parses and validates a version document (`plugins/<id>/<version>.json`): field types,
 * the embedded manifest, and their agreement (id, version, protocol versions, languages,
 * tier); every artifact's `file` must be exactly where the layout puts it, so a document
 * can never point a client outside the registry. Pass `expect` to check that the document
 * is the one its path promised.
 *
 * @throws RegistryError `REGISTRY_DOCUMENT_INVALID` naming the failing JSON path.
 * @example
 * ```ts
 * const doc = parseVersionDocument(text, 'plugins/example-lua/0.1.0.json', { id: 'example-lua', version: '0.1.0' });
 * doc.artifacts[0]?.sha256; // 'e3b0…'
 * ```
 */
export function parseVersionDocument(
  source: unknown,
  where = 'version document',
  expect?: { id: string; version: string },
): VersionDocument {
  const r: DocumentReader = new DocumentReader(where);
  const root = r.object(parseJson(source, where), '');
  const formatVersion = r.formatVersion(root.formatVersion);
  const id = r.id(root.id, '/id');
  const version = r.version(root.version, '/version');
  if (expect && (expect.id !== id || expect.version !== version)) {
    r.fail('/id', `names ${id}@${version}, but the document was fetched as ${expect.id}@${expect.version}`);
  }
  let manifest: PluginManifest;
  try {
    manifest = parseManifest(root.manifest, `${where} /manifest`);
  } catch (e) {
    return r.fail('/manifest', `is not a valid travsr-plugin.json (${(e as Error).message})`);
  }
  const protocolVersions = r.strings(root.protocolVersions, '/protocolVersions', 1);
  // A model plugin analyzes no language.
  const languages = r.strings(root.languages, '/languages', manifest.kind === 'model' ? 0 : 1);
  const tier = r.string(root.tier, '/tier');
  if (manifest.id !== id || manifest.version !== version)
    r.fail('/manifest', `is for ${manifest.id}@${manifest.version}, not ${id}@${version}`);
  if (!sameList(protocolVersions, manifest.protocolVersions)) r.fail('/protocolVersions', 'must equal the manifest’s protocolVersions');
  if (!sameList(languages, manifest.languages)) r.fail('/languages', 'must equal the manifest’s languages');
  if (tier !== requiredTier(manifest)) r.fail('/tier', `must be "${requiredTier(manifest)}", the tier the manifest’s constraints need`);
  if (!Array.isArray(root.artifacts) || root.artifacts.length === 0) r.fail('/artifacts', 'must be a non-empty array');
  const artifacts = root.artifacts.map((a, i) => parseArtifact(r, a, `/artifacts/${i}`, id, version));
  const platforms = artifacts.map((a) => a.platform);
  if (new Set(platforms).size !== platforms.length) r.fail('/artifacts', 'must have at most one artifact per platform');
  return {
    formatVersion,
    id,
    version,
    protocolVersions,
    languages,
    tier,
    manifest,
    artifacts,
    created: r.timestamp(root.created, '/created'),
  };
}

/**
 * The bytes a registry stores for a document: two-space JSON and a final newline.
 *
 * @example
 * ```ts
 * await writeFile('index.json', serializeDocument(index));
 * ```
 */
export function serializeDocument(doc: RegistryIndex | VersionDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
