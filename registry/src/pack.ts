import { lstat, mkdir, readdir, readFile, readlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { MANIFEST_FILE, parseManifest, type PluginManifest } from '@travsr/protocol';
import { checkArchivePath, pathKey, resolveLink } from './archive-paths.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import { artifactPath, assertPlatform, pluginFileId, type Platform } from './layout.js';
import { DEFAULT_EXTRACT_LIMITS } from './safe-extract.js';
import { parseVersion } from './semver.js';
import { writeFileAtomic } from './atomic-write.js';
import {
  buildSbom,
  parseSbom,
  SBOM_SPEC_VERSION,
  serializeSbom,
  type BuildRecord,
  type CycloneDxBom,
  type SbomExpectation,
} from './sbom.js';
import { writeTarGz, type TarInput } from './tar-writer.js';
import { byPath, treeHashOf, type TreeEntry } from './tree-hash.js';
import { sha256File } from './verify.js';

/**
 * What {@link packPlugin} leaves out: `node_modules` and `.git` at any depth (an artifact
 * runs without `npm install`, so it must not depend on them), and the top-level `test/`
 * and `snapshots/` folders (development only). The output directory is left out too when
 * it lies inside the plugin directory.
 *
 * @example
 * ```ts
 * PACK_EXCLUDED.topLevel.includes('test'); // true
 * ```
 */
export const PACK_EXCLUDED = {
  anywhere: ['node_modules', '.git'],
  topLevel: ['test', 'snapshots'],
} as const;

/**
 * Every entry of an artifact lies under this folder, as in an npm tarball.
 *
 * @example
 * ```ts
 * await safeExtract(tgz, tmp, { root: ARTIFACT_ROOT }); // the default
 * ```
 */
export const ARTIFACT_ROOT = 'package';

/** Options of {@link packPlugin}. */
export interface PackOptions {
  /** Platform the artifact is built for; `any` (the default) for JavaScript + wasm. */
  platform?: Platform;
}

/** A packed plugin. */
export interface PackResult {
  /** Absolute path of the `.tgz`: `<outDir>/<id>-<version>-<platform>.tgz`. */
  file: string;
  sha256: string;
  size: number;
  /** Tree hash of the packed files: what {@link treeHash} gives after extraction. */
  treeHash: string;
  manifest: PluginManifest;
  platform: Platform;
  /** Packed paths, relative to the plugin directory, in archive order. */
  files: string[];
  /** The CycloneDX SBOM written beside the `.tgz` ({@link sbomPathFor}). */
  sbom: PackedSbom;
}

/** The SBOM {@link packPlugin} writes beside an artifact. */
export interface PackedSbom {
  /** Absolute path: `<outDir>/<id>-<version>-<platform>.cdx.json`. */
  file: string;
  /** Lowercase hex SHA-256 of its bytes. */
  sha256: string;
  specVersion: typeof SBOM_SPEC_VERSION;
  /** Packages it names. */
  components: number;
  /** `complete` from a build record whose files are all here, `incomplete` when some are not (packed away from the build), `unknown` without one. */
  aggregate: 'complete' | 'incomplete' | 'unknown';
}

/**
 * File name, next to the bundle (the entrypoint's folder), of the record a plugin build leaves
 * of what went into it (`buildPlugin` of `@travsr/sdk/build` writes it).
 *
 * @example
 * ```ts
 * join(root, 'dist', BUILD_RECORD_FILE); // …/dist/build-record.json
 * ```
 */
export const BUILD_RECORD_FILE = 'build-record.json';

/**
 * Where the SBOM of an artifact goes: the artifact's path with `.cdx.json` for `.tgz`.
 *
 * @example
 * ```ts
 * sbomPathFor('out/lang-go-0.1.0-any.tgz'); // 'out/lang-go-0.1.0-any.cdx.json'
 * ```
 */
export function sbomPathFor(artifactFile: string): string {
  return artifactFile.replace(/\.tgz$/, '') + '.cdx.json';
}

/**
 * Reads the SBOM `travsr plugin pack` wrote (see {@link sbomPathFor}) and checks it describes
 * `expect`; undefined when there is no such file.
 *
 * @throws RegistryError `SBOM_INVALID` when it cannot be read or is not a CycloneDX SBOM of that plugin and version.
 * @example
 * ```ts
 * const sbom = await readPackedSbom(sbomPathFor(tgz), { name: 'lang-go', version: '0.1.0' });
 * ```
 */
export async function readPackedSbom(
  file: string,
  expect: SbomExpectation,
): Promise<{ bytes: Buffer; sha256: string; bom: CycloneDxBom } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return fail(
      RegistryErrorCode.SbomInvalid,
      `cannot read the SBOM ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give the .cdx.json travsr plugin pack wrote, or go without one`,
      { file },
    );
  }
  const bom = parseSbom(bytes, file, expect);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), bom };
}

function isBuildRecord(value: unknown): value is BuildRecord {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value) || !isObject(value.bundler)) return false;
  if (typeof value.bundler.name !== 'string' || typeof value.bundler.version !== 'string') return false;
  const { bundles, assets } = value;
  return (
    Array.isArray(bundles) &&
    bundles.every((b: unknown) => isObject(b) && typeof b.output === 'string' && isObject(b.inputs)) &&
    Array.isArray(assets) &&
    assets.every((x: unknown) => isObject(x) && typeof x.file === 'string' && typeof x.source === 'string')
  );
}

/** The build record next to the entrypoint, or undefined when the build left none. */
async function readBuildRecord(root: string, manifest: PluginManifest): Promise<BuildRecord | undefined> {
  const file = join(root, dirname(manifest.entrypoint.path), BUILD_RECORD_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isBuildRecord(value)) {
    fail(
      RegistryErrorCode.PackBuildRecordInvalid,
      `cannot pack ${manifest.id}: ${file} is not a build record (bundler, bundles with output and inputs, assets with file and source); build the plugin again with buildPlugin of @travsr/sdk/build, or delete the file`,
    );
  }
  return value;
}

async function licenceOfPackage(root: string): Promise<string | undefined> {
  try {
    const l = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { license?: unknown }).license;
    return typeof l === 'string' ? l : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The CycloneDX SBOM of a built plugin directory, as {@link packPlugin} writes it beside the
 * artifact: from the build record next to the entrypoint (`unknown` without one), the
 * plugin's licence from its package.json (a model plugin's, else from its manifest's `model.licence`).
 *
 * @throws RegistryError `PACK_NOT_A_PLUGIN`, `PACK_MANIFEST_INVALID` or `PACK_BUILD_RECORD_INVALID`.
 * @example
 * ```ts
 * const bom = await pluginDirSbom('plugins/lang-typescript');
 * sbomPackages(bom).find((p) => p.name === 'typescript')?.version; // '5.9.3'
 * ```
 */
export async function pluginDirSbom(pluginDir: string): Promise<CycloneDxBom> {
  const root = resolve(pluginDir);
  return sbomOfPluginDir(root, await readPluginManifest(root));
}

async function sbomOfPluginDir(root: string, manifest: PluginManifest): Promise<CycloneDxBom> {
  const record = await readBuildRecord(root, manifest);
  // A model plugin without a package.json: the licence of the model's weights, as its manifest gives it.
  const licence = (await licenceOfPackage(root)) ?? manifest.model?.licence;
  return buildSbom({ name: manifest.id, version: manifest.version, ...(licence ? { licence } : {}) }, record, root);
}

function fail(code: RegistryErrorCode, message: string, details?: Record<string, unknown>): never {
  throw new RegistryError(code, message, details);
}

async function readPluginManifest(dir: string): Promise<PluginManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    return fail(
      RegistryErrorCode.PackNotAPlugin,
      `${dir} has no ${MANIFEST_FILE}, so it is not a Travsr plugin; pack the plugin's own directory, or create one with travsr plugin new`,
    );
  }
  try {
    const manifest = parseManifest(text, join(dir, MANIFEST_FILE));
    pluginFileId(manifest.id);
    parseVersion(manifest.version);
    return manifest;
  } catch (e) {
    return fail(RegistryErrorCode.PackManifestInvalid, `cannot pack ${dir}: ${(e as Error).message}; fix ${MANIFEST_FILE} and pack again`);
  }
}

interface Walked {
  files: Map<string, { path: string; absolute: string; size: number; executable: boolean }>;
  links: Map<string, { path: string; target: string }>;
}

async function walk(root: string, skip: string | undefined): Promise<Walked> {
  const out: Walked = { files: new Map(), links: new Map() };
  const seen = new Map<string, string>();
  async function visit(dir: string): Promise<void> {
    for (const name of await readdir(dir)) {
      const absolute = join(dir, name);
      const rel = relative(root, absolute).split(sep).join('/');
      const top = !rel.includes('/');
      if ((PACK_EXCLUDED.anywhere as readonly string[]).includes(name)) continue;
      if (top && (PACK_EXCLUDED.topLevel as readonly string[]).includes(name)) continue;
      if (skip !== undefined && absolute === skip) continue;
      const check = checkArchivePath(rel);
      if (!check.ok) fail(RegistryErrorCode.PackPathUnportable, `cannot pack ${rel}: the name ${check.reason}; rename it`);
      const key = pathKey(check.segments);
      const twin = seen.get(key);
      if (twin !== undefined) {
        fail(
          RegistryErrorCode.PackPathUnportable,
          `cannot pack both ${twin} and ${rel}: the names differ only in case or Unicode form, so they collide on macOS and Windows; rename one`,
        );
      }
      seen.set(key, rel);
      const st = await lstat(absolute);
      if (st.isDirectory()) await visit(absolute);
      else if (st.isSymbolicLink()) out.links.set(key, { path: rel, target: await readlink(absolute) });
      else if (st.isFile()) out.files.set(key, { path: rel, absolute, size: st.size, executable: (st.mode & 0o111) !== 0 });
      else {
        fail(
          RegistryErrorCode.PackSpecialFile,
          `cannot pack ${rel}: it is not a regular file, directory or symlink (a socket, FIFO or device); remove it from the plugin directory`,
        );
      }
    }
  }
  await visit(root);
  return out;
}

/** Where a packed path leads after following the packed symlinks, or why it leads nowhere packed. */
function follow(w: Walked, linkTargets: Map<string, string>, segments: string[]): 'file' | 'dir' | undefined {
  let resolved: string[] | undefined = segments;
  const key = pathKey(segments);
  const link = w.links.get(key);
  if (link) resolved = resolveLink(linkTargets, segments, link.target);
  if (!resolved) return undefined;
  const resolvedKey = pathKey(resolved);
  if (resolved.length === 0) return 'dir';
  if (w.files.has(resolvedKey)) return 'file';
  const prefix = `${resolvedKey}/`;
  for (const k of [...w.files.keys(), ...w.links.keys()]) if (k.startsWith(prefix)) return 'dir';
  return undefined;
}

function checkLinks(w: Walked, linkTargets: Map<string, string>): void {
  for (const { path, target } of w.links.values()) {
    const segments = path.split('/');
    if (target.startsWith('/') || /^[A-Za-z]:/.test(target)) {
      fail(
        RegistryErrorCode.PackLinkEscape,
        `cannot pack ${path}: it is a symlink to the absolute path ${target}, which will not exist on other machines; make it relative to the plugin directory, or copy the file in`,
      );
    }
    if (!resolveLink(linkTargets, segments, target)) {
      fail(
        RegistryErrorCode.PackLinkEscape,
        `cannot pack ${path}: it is a symlink to ${target}, outside the plugin directory; an artifact must be self-contained — copy the file in instead`,
      );
    }
    if (!follow(w, linkTargets, segments)) {
      fail(
        RegistryErrorCode.PackLinkEscape,
        `cannot pack ${path}: it is a symlink to ${target}, which is not packed (missing, or excluded like node_modules); an artifact must be self-contained — copy the file in instead`,
      );
    }
  }
}

function checkEntrypoint(w: Walked, linkTargets: Map<string, string>, manifest: PluginManifest): void {
  const { path, runtime } = manifest.entrypoint;
  const check = checkArchivePath(path);
  const missing = (why: string): never =>
    fail(
      RegistryErrorCode.PackEntrypointMissing,
      `cannot pack ${manifest.id}@${manifest.version}: its entrypoint ${path} ${why}; build the plugin first (it must run without npm install) and check entrypoint.path in ${MANIFEST_FILE}`,
    );
  if (!check.ok || follow(w, linkTargets, check.segments) !== 'file') return missing('is not among the packed files');
  let key = pathKey(check.segments);
  const link = w.links.get(key);
  if (link) key = pathKey(resolveLink(linkTargets, check.segments, link.target) ?? []);
  if (runtime === 'exec' && !w.files.get(key)?.executable) missing('is not executable (runtime "exec" needs chmod +x)');
}

/**
 * Packs a plugin directory into a self-contained, deterministic artifact:
 * `<outDir>/<id>-<version>-<platform>.tgz` holding the directory's files as
 * `package/<relative path>` (see {@link PACK_EXCLUDED} for what is left out), sorted, with
 * fixed times, owner 0:0 and modes 0644/0755. Symlinks are kept when they stay inside the
 * packed files.
 *
 * Refuses (`PACK_…`) a directory without `travsr-plugin.json` or with an invalid one, a
 * symlink that is absolute, leaves the directory or points at something not packed, a
 * special file, a name that is not portable, an entrypoint that is not packed, and a
 * plugin over the limits clients extract ({@link DEFAULT_EXTRACT_LIMITS}).
 *
 * @example
 * ```ts
 * const packed = await packPlugin('plugins/example-lua', 'dist/registry-in');
 * packed.file; // '…/dist/registry-in/example-lua-0.1.0-any.tgz'
 * packed.treeHash; // 'sha256:…', equal to treeHash() of the installed copy
 * ```
 */
export async function packPlugin(pluginDir: string, outDir: string, options: PackOptions = {}): Promise<PackResult> {
  const root = resolve(pluginDir);
  const out = resolve(outDir);
  const platform = assertPlatform(options.platform ?? 'any');
  const manifest = await readPluginManifest(root);
  const w = await walk(root, out.startsWith(`${root}${sep}`) ? out : undefined);
  const linkTargets = new Map([...w.links].map(([k, l]) => [k, l.target]));
  checkLinks(w, linkTargets);
  checkEntrypoint(w, linkTargets, manifest);

  const files = [...w.files.values()];
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const count = files.length + w.links.size;
  if (bytes > DEFAULT_EXTRACT_LIMITS.maxBytes || count > DEFAULT_EXTRACT_LIMITS.maxEntries) {
    fail(
      RegistryErrorCode.PackTooLarge,
      `cannot pack ${manifest.id}: ${count} files of ${bytes} bytes exceed what clients extract (${DEFAULT_EXTRACT_LIMITS.maxEntries} entries, ${DEFAULT_EXTRACT_LIMITS.maxBytes} bytes); bundle the plugin, and leave build inputs out`,
    );
  }

  const inputs: TarInput[] = [
    ...files.map((f) => ({ type: 'file' as const, path: f.path, executable: f.executable, size: f.size, source: f.absolute })),
    ...[...w.links.values()].map((l) => ({ type: 'symlink' as const, path: l.path, target: l.target })),
  ].sort(byPath);
  await mkdir(out, { recursive: true });
  const file = join(out, artifactPath(manifest.id, manifest.version, platform).split('/').pop() ?? '');
  const hashes = await writeTarGz(
    file,
    inputs.map((i) => ({ ...i, path: `${ARTIFACT_ROOT}/${i.path}` })),
  );
  const tree: TreeEntry[] = inputs.map((i) =>
    i.type === 'file'
      ? { path: i.path, type: i.executable ? 'exec' : 'file', sha256: hashes.get(`${ARTIFACT_ROOT}/${i.path}`) ?? '' }
      : { path: i.path, type: 'symlink', sha256: createHash('sha256').update(i.target).digest('hex') },
  );
  const { sha256, size } = await sha256File(file);
  const bom = await sbomOfPluginDir(root, manifest);
  const sbomText = serializeSbom(bom);
  const sbomFile = sbomPathFor(file);
  await writeFileAtomic(sbomFile, sbomText);
  const sbom: PackedSbom = {
    file: sbomFile,
    sha256: createHash('sha256').update(sbomText).digest('hex'),
    specVersion: SBOM_SPEC_VERSION,
    components: bom.components.length,
    aggregate: bom.compositions[0]?.aggregate ?? 'unknown',
  };
  return { file, sha256, size, treeHash: treeHashOf(tree), manifest, platform, files: inputs.map((i) => i.path), sbom };
}
