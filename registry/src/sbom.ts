import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RegistryError, RegistryErrorCode } from './errors.js';

/**
 * What a build put into a plugin's files, as the bundler recorded it: for each bundle, the
 * input files and how many of their bytes ended up in the output (esbuild's metafile
 * `outputs[<file>].inputs[<input>].bytesInOutput`), and the files copied next to the bundles
 * (wasm grammars, `lib.d.ts`) with the file each was made from. Paths are relative to `root`
 * (the directory the build ran in) or absolute.
 */
export interface BuildRecord {
  /** The bundler and its version (`{ name: 'esbuild', version: '0.28.2' }`). */
  readonly bundler: { readonly name: string; readonly version: string };
  readonly bundles: readonly {
    /** The bundle, relative to the plugin (`dist/main.js`). */
    readonly output: string;
    /** Input path → bytes of it in the output; inputs tree-shaken to nothing have 0 and are left out. */
    readonly inputs: Readonly<Record<string, number>>;
  }[];
  readonly assets: readonly {
    /** The shipped file, relative to the plugin (`dist/tree-sitter-go.wasm`). */
    readonly file: string;
    /** The file it was copied or made from (`../../node_modules/tree-sitter-wasms/out/tree-sitter-go.wasm`). */
    readonly source: string;
  }[];
}

/**
 * A CycloneDX 1.6 bill of materials (the JSON fields this module writes; see
 * https://cyclonedx.org/docs/1.6/json/).
 */
export interface CycloneDxBom {
  readonly bomFormat: 'CycloneDX';
  readonly specVersion: '1.6';
  readonly serialNumber: string;
  readonly version: 1;
  readonly metadata: {
    readonly tools: { readonly components: readonly CycloneDxComponent[] };
    readonly component: CycloneDxComponent;
  };
  readonly components: readonly CycloneDxComponent[];
  readonly dependencies: readonly { readonly ref: string; readonly dependsOn: readonly string[] }[];
  readonly compositions: readonly { readonly aggregate: 'complete' | 'incomplete' | 'unknown'; readonly assemblies: readonly string[] }[];
}

/** One component of a {@link CycloneDxBom}. */
export interface CycloneDxComponent {
  readonly type: 'application' | 'library' | 'file';
  readonly 'bom-ref'?: string;
  readonly name: string;
  readonly version?: string;
  readonly purl?: string;
  readonly licenses?: readonly ({ readonly license: { readonly id: string } } | { readonly expression: string })[];
  readonly hashes?: readonly { readonly alg: 'SHA-256' | 'SHA-512'; readonly content: string }[];
  readonly properties?: readonly { readonly name: string; readonly value: string }[];
  readonly components?: readonly CycloneDxComponent[];
}

/** The CycloneDX specification version {@link buildSbom} writes. */
export const SBOM_SPEC_VERSION = '1.6';

/** The npm package a file belongs to. */
export interface PackageOfFile {
  /** The package's directory. */
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  /** The SPDX id or expression of package.json's `license` (older `licenses` arrays joined with OR); undefined when it declares none. */
  readonly licence: string | undefined;
  /** npm's `integrity` (`sha512-…`) from the lockfile that installed it; undefined for a workspace package or one no lockfile lists. */
  readonly integrity: string | undefined;
}

const SPDX_ID = /^[A-Za-z0-9.+-]+$/;

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function licenceOf(manifest: Record<string, unknown>): string | undefined {
  const l = manifest.license;
  if (typeof l === 'string' && l.trim() !== '') return l.trim();
  if (typeof l === 'object' && l !== null && typeof (l as { type?: unknown }).type === 'string') return (l as { type: string }).type;
  if (Array.isArray(manifest.licenses)) {
    const ids = manifest.licenses
      .map((x) => (typeof x === 'string' ? x : typeof x === 'object' && x !== null ? (x as { type?: unknown }).type : undefined))
      .filter((x): x is string => typeof x === 'string');
    if (ids.length > 0) return ids.length === 1 ? ids[0] : `(${ids.join(' OR ')})`;
  }
  return undefined;
}

/** The nearest directory at or above `file`'s that holds a package.json naming a package. */
function packageDirOf(file: string): string | undefined {
  const parts = file.split(sep);
  const nm = parts.lastIndexOf('node_modules');
  if (nm >= 0 && nm + 1 < parts.length - 1) {
    const scoped = parts[nm + 1]?.startsWith('@');
    return parts.slice(0, nm + (scoped ? 3 : 2)).join(sep);
  }
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (typeof readJson(join(dir, 'package.json'))?.name === 'string') return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

type LockPackages = Record<string, { integrity?: unknown; link?: unknown }>;

/**
 * Parsed lockfiles' `packages`, by path, while the file's size and modification time stay the
 * same: a bill of materials looks up every bundled package in the same lockfile or two (a
 * repository's package-lock.json is some hundreds of kB; parsing it once per package took most of
 * a plugin pack's time).
 */
const lockfiles = new Map<string, { size: number; mtimeMs: number; packages: LockPackages | undefined }>();

function lockPackages(lockfile: string): LockPackages | undefined {
  const st = statSync(lockfile, { throwIfNoEntry: false });
  if (!st) return undefined;
  const seen = lockfiles.get(lockfile);
  if (seen && seen.size === st.size && seen.mtimeMs === st.mtimeMs) return seen.packages;
  const packages = readJson(lockfile)?.packages as LockPackages | undefined;
  lockfiles.set(lockfile, { size: st.size, mtimeMs: st.mtimeMs, packages });
  return packages;
}

/** npm's integrity for the package in `dir`, from the nearest lockfile above it that lists it. */
function integrityOf(dir: string): string | undefined {
  for (let base = dirname(dir); ; base = dirname(base)) {
    for (const lockfile of [join(base, 'node_modules', '.package-lock.json'), join(base, 'package-lock.json')]) {
      const packages = lockPackages(lockfile);
      const entry = packages?.[relative(base, dir).split(sep).join('/')];
      if (entry && typeof entry.integrity === 'string') return entry.integrity;
    }
    if (dirname(base) === base) return undefined;
  }
}

/**
 * The npm package `file` belongs to: the package after the last `node_modules` in its path, or
 * else the nearest package.json above it (a workspace package, or the plugin itself). Reads
 * that package's package.json and the lockfile entry that installed it — nothing else of
 * `node_modules`.
 *
 * @example
 * ```ts
 * packageOfFile('/repo/node_modules/typescript/lib/typescript.js')?.version; // '5.9.3'
 * ```
 */
export function packageOfFile(file: string): PackageOfFile | undefined {
  const dir = packageDirOf(resolve(file));
  if (dir === undefined) return undefined;
  const manifest = readJson(join(dir, 'package.json'));
  if (!manifest || typeof manifest.name !== 'string') return undefined;
  return {
    dir,
    name: manifest.name,
    version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
    licence: licenceOf(manifest),
    integrity: integrityOf(dir),
  };
}

/** `pkg:npm/%40scope/name@1.2.3` (the package URL of an npm package). */
export function npmPurl(name: string, version: string): string {
  const [scope, bare] = name.startsWith('@') ? name.split('/') : [undefined, name];
  return `pkg:npm/${scope ? `${encodeURIComponent(scope)}/` : ''}${encodeURIComponent(bare ?? name)}@${encodeURIComponent(version)}`;
}

function licences(expression: string | undefined): CycloneDxComponent['licenses'] {
  if (expression === undefined) return undefined;
  return SPDX_ID.test(expression) ? [{ license: { id: expression } }] : [{ expression }];
}

function sriToHash(integrity: string | undefined): CycloneDxComponent['hashes'] {
  const m = /^sha512-([A-Za-z0-9+/=]+)$/.exec(integrity?.split(/\s+/).find((s) => s.startsWith('sha512-')) ?? '');
  return m?.[1] ? [{ alg: 'SHA-512', content: Buffer.from(m[1], 'base64').toString('hex') }] : undefined;
}

function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** A UUID made from the document's content, so the same inputs give the same bytes. */
function contentUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What an SBOM is about: the plugin (or program) whose files the build record describes. */
export interface SbomSubject {
  readonly name: string;
  readonly version: string;
  /** SPDX id or expression. */
  readonly licence?: string;
  /** Its package URL; default `pkg:generic/<name>@<version>`. */
  readonly purl?: string;
}

/**
 * Packages that ship with the subject other than through a bundle: copied whole into it
 * (`packaged`: the workspace packages inside the CLI's tarball) or installed beside it by npm
 * (`npm-dependency`, at the version the build's lockfile resolved).
 */
export interface SbomPackageOptions {
  readonly packages?: readonly { readonly dir: string; readonly shippedAs: 'packaged' | 'npm-dependency' }[];
}

interface Gathered {
  pkg: PackageOfFile;
  bytes: number;
  shippedAs: Set<string>;
  outputs: Set<string>;
  /** Input files of the package in the bundles, sorted, for the bundled-content hash. */
  inputs: Set<string>;
  files: CycloneDxComponent[];
}

/**
 * A CycloneDX 1.6 SBOM of what a build put into `subject`'s files, from the bundler's record
 * ({@link BuildRecord}): one `library` component per npm package any bundle took bytes from
 * (name, version, package URL, licence, npm's SHA-512 integrity when a lockfile lists it, the
 * bundles it is in and the bytes it contributed), and under its package each copied file
 * (`file`, with the SHA-256 of the shipped bytes). Files of `subject`'s own package are its own
 * and not listed. `record` undefined: only the subject, with the composition `unknown`; files
 * the record names that are not on this disk (packed away from the build's `node_modules`) are
 * left out and the composition is `incomplete`.
 * Deterministic: no timestamp, and a serial number derived from the content. `options.packages`
 * adds packages that ship whole or that npm installs beside the subject (property
 * `travsr:shipped-as`: `packaged` or `npm-dependency`).
 *
 * @param root the directory the build ran in (the plugin): record paths are relative to it.
 * @example
 * ```ts
 * const bom = buildSbom({ name: 'lang-go', version: '0.1.0', licence: 'Apache-2.0' }, record, 'plugins/lang-go');
 * bom.components.map((c) => `${c.name}@${c.version}`); // ['@travsr/sdk@0.1.0', 'tree-sitter-wasms@0.1.13', …]
 * ```
 */
export function buildSbom(
  subject: SbomSubject,
  record: BuildRecord | undefined,
  root: string,
  options: SbomPackageOptions = {},
): CycloneDxBom {
  const base = resolve(root);
  const own = resolve(base);
  const at = (p: string): string => (isAbsolute(p) ? p : resolve(base, p));
  const byDir = new Map<string, Gathered>();
  /** Record paths that are not on this disk (the plugin packed away from the build's node_modules). */
  const missing = new Set<string>();
  const gather = (file: string): Gathered | undefined => {
    if (!existsSync(file)) {
      missing.add(file);
      return undefined;
    }
    const pkg = packageOfFile(file);
    if (!pkg || pkg.dir === own) return undefined;
    let g = byDir.get(pkg.dir);
    if (!g) byDir.set(pkg.dir, (g = { pkg, bytes: 0, shippedAs: new Set(), outputs: new Set(), inputs: new Set(), files: [] }));
    return g;
  };
  for (const bundle of record?.bundles ?? []) {
    for (const [input, bytes] of Object.entries(bundle.inputs)) {
      if (!(bytes > 0) || input.startsWith('<')) continue;
      const g = gather(at(input));
      if (!g) continue;
      g.bytes += bytes;
      g.outputs.add(bundle.output);
      g.inputs.add(at(input));
    }
  }
  for (const p of options.packages ?? []) gather(join(resolve(p.dir), 'package.json'))?.shippedAs.add(p.shippedAs);
  for (const asset of record?.assets ?? []) {
    const g = gather(at(asset.source));
    if (!g) continue;
    const shipped = at(asset.file);
    g.files.push({
      type: 'file',
      name: asset.file.split(/[\\/]/).pop() ?? asset.file,
      hashes: [{ alg: 'SHA-256', content: sha256Of(existsSync(shipped) ? shipped : at(asset.source)) }],
      properties: [
        { name: 'travsr:shipped-as', value: asset.file },
        { name: 'travsr:source', value: relative(g.pkg.dir, at(asset.source)).split(sep).join('/') },
      ],
    });
  }
  // One component per name and version: npm may have installed a package at one version in
  // several places (deduplication is not always possible), and a bom-ref must be unique.
  const groups = new Map<string, Gathered[]>();
  for (const g of byDir.values()) {
    const key = `${g.pkg.name}@${g.pkg.version}`;
    groups.set(key, [...(groups.get(key) ?? []), g]);
  }
  const components = [...groups.values()]
    .map((gs) => gs.sort((a, b) => a.pkg.dir.localeCompare(b.pkg.dir)))
    .sort(
      ([a], [b]) =>
        (a as Gathered).pkg.name.localeCompare((b as Gathered).pkg.name) ||
        (a as Gathered).pkg.version.localeCompare((b as Gathered).pkg.version),
    )
    .map((gs): CycloneDxComponent => {
      const pkg = (gs[0] as Gathered).pkg;
      const purl = npmPurl(pkg.name, pkg.version);
      const inputs = gs
        .flatMap((g) => [...g.inputs].map((f) => ({ rel: relative(g.pkg.dir, f).split(sep).join('/'), f })))
        .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : a.f < b.f ? -1 : a.f > b.f ? 1 : 0));
      const bundled = createHash('sha256');
      for (const { rel, f } of inputs) bundled.update(`${rel}\0`).update(readFileSync(f));
      const outputs = new Set(gs.flatMap((g) => [...g.outputs]));
      const shippedAs = new Set(gs.flatMap((g) => [...g.shippedAs]));
      const properties = [
        ...[...shippedAs].sort().map((value) => ({ name: 'travsr:shipped-as', value })),
        ...(outputs.size > 0
          ? [
              { name: 'travsr:bundled-into', value: [...outputs].sort().join(' ') },
              { name: 'travsr:bundled-bytes', value: String(gs.reduce((n, g) => n + g.bytes, 0)) },
              { name: 'travsr:bundled-sha256', value: bundled.digest('hex') },
            ]
          : []),
      ];
      const lic = licences(gs.find((g) => g.pkg.licence !== undefined)?.pkg.licence);
      const hashes = sriToHash(gs.find((g) => g.pkg.integrity !== undefined)?.pkg.integrity);
      const files = new Map(gs.flatMap((g) => g.files).map((f) => [`${f.name}\0${f.hashes?.[0]?.content ?? ''}`, f]));
      return {
        type: 'library',
        'bom-ref': purl,
        name: pkg.name,
        version: pkg.version,
        purl,
        ...(lic ? { licenses: lic } : {}),
        ...(hashes ? { hashes } : {}),
        ...(properties.length > 0 ? { properties } : {}),
        ...(files.size > 0 ? { components: [...files.values()].sort((a, b) => a.name.localeCompare(b.name)) } : {}),
      };
    });
  const subjectRef = subject.purl ?? `pkg:generic/${encodeURIComponent(subject.name)}@${encodeURIComponent(subject.version)}`;
  const subjectLicences = licences(subject.licence);
  const body = {
    metadata: {
      tools: {
        components: record
          ? [{ type: 'application' as const, name: record.bundler.name, version: record.bundler.version }]
          : ([] as CycloneDxComponent[]),
      },
      component: {
        type: 'application' as const,
        'bom-ref': subjectRef,
        name: subject.name,
        version: subject.version,
        purl: subjectRef,
        ...(subjectLicences ? { licenses: subjectLicences } : {}),
      },
    },
    components,
    dependencies: [{ ref: subjectRef, dependsOn: components.map((c) => c['bom-ref'] ?? c.name) }],
    compositions: [
      {
        aggregate: !record ? ('unknown' as const) : missing.size > 0 ? ('incomplete' as const) : ('complete' as const),
        assemblies: [subjectRef],
      },
    ],
  };
  return {
    bomFormat: 'CycloneDX',
    specVersion: SBOM_SPEC_VERSION,
    serialNumber: `urn:uuid:${contentUuid(JSON.stringify(body))}`,
    version: 1,
    ...body,
  };
}

/**
 * A component's licence as one SPDX expression: its `expression`, or its licence ids joined with
 * AND (CycloneDX lists each licence that applies); undefined when it declares none.
 *
 * @example
 * ```ts
 * componentLicence(bom.metadata.component); // 'Apache-2.0'
 * ```
 */
export function componentLicence(c: CycloneDxComponent): string | undefined {
  const ids: string[] = [];
  for (const l of Array.isArray(c.licenses) ? (c.licenses as unknown[]) : []) {
    if (typeof l !== 'object' || l === null) continue;
    const entry = l as { expression?: unknown; license?: { id?: unknown; name?: unknown } };
    if (typeof entry.expression === 'string') return entry.expression;
    const id = entry.license?.id ?? entry.license?.name;
    if (typeof id === 'string') ids.push(id);
  }
  if (ids.length === 0) return undefined;
  return ids.length === 1 ? ids[0] : ids.map((id) => `(${id})`).join(' AND ');
}

/**
 * Every package an SBOM names with its licence (`undefined`: none declared), nested files left
 * out: what a licence policy is checked against.
 *
 * @example
 * ```ts
 * sbomPackages(bom); // [{ name: 'typescript', version: '5.9.3', licence: 'Apache-2.0' }, …]
 * ```
 */
export function sbomPackages(bom: Pick<CycloneDxBom, 'components'>): { name: string; version: string; licence: string | undefined }[] {
  return bom.components
    .filter((c) => c.type === 'library')
    .map((c) => {
      return { name: c.name, version: typeof c.version === 'string' ? c.version : '', licence: componentLicence(c) };
    });
}

/**
 * An SBOM's bytes as `travsr plugin pack` writes them (two-space JSON and a newline): what its
 * SHA-256 is taken of.
 */
export function serializeSbom(bom: CycloneDxBom): string {
  return `${JSON.stringify(bom, null, 2)}\n`;
}

/** What {@link parseSbom} checks a document against: the plugin and version it must describe. */
export interface SbomExpectation {
  readonly name: string;
  readonly version: string;
}

function sbomInvalid(where: string, problem: string): RegistryError {
  return new RegistryError(
    RegistryErrorCode.SbomInvalid,
    `${where} is not a usable CycloneDX SBOM: ${problem}; pack the plugin again with travsr plugin pack, which writes the SBOM beside the artifact`,
    { where },
  );
}

/**
 * Reads a CycloneDX JSON SBOM that came from elsewhere (beside an artifact to publish, from a
 * registry, from an install record) and checks the fields Travsr relies on: `bomFormat`, a
 * `specVersion`, `components` with names, and — with `expect` — that its subject
 * (`metadata.component`) is that plugin at that version. Other fields are kept as they are.
 *
 * @throws RegistryError `SBOM_INVALID` saying which field is wrong.
 * @example
 * ```ts
 * const bom = parseSbom(readFileSync('out/lang-go-0.1.0-any.cdx.json'), 'lang-go SBOM', { name: 'lang-go', version: '0.1.0' });
 * sbomPackages(bom).length; // 3
 * ```
 */
export function parseSbom(source: string | Uint8Array, where: string, expect?: SbomExpectation): CycloneDxBom {
  let value: unknown;
  try {
    value = JSON.parse(typeof source === 'string' ? source : Buffer.from(source).toString('utf8'));
  } catch (e) {
    throw sbomInvalid(where, `it is not JSON (${(e as Error).message})`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) throw sbomInvalid(where, 'it is not a JSON object');
  if (value.bomFormat !== 'CycloneDX') throw sbomInvalid(where, `bomFormat is ${JSON.stringify(value.bomFormat)}, not "CycloneDX"`);
  if (typeof value.specVersion !== 'string' || !/^\d+\.\d+$/.test(value.specVersion))
    throw sbomInvalid(where, `specVersion is ${JSON.stringify(value.specVersion)}, not a version such as "1.6"`);
  const components = value.components ?? [];
  if (!Array.isArray(components) || !components.every((c) => isObject(c) && typeof c.name === 'string'))
    throw sbomInvalid(where, 'components must be a list of objects with a name');
  const subject = isObject(value.metadata) && isObject(value.metadata.component) ? value.metadata.component : undefined;
  if (expect && (subject?.name !== expect.name || subject.version !== expect.version)) {
    const named = subject ? `${String(subject.name)}@${String(subject.version)}` : 'nothing';
    throw sbomInvalid(where, `it describes ${named}, not ${expect.name}@${expect.version}`);
  }
  return { ...value, components } as unknown as CycloneDxBom;
}

/** The gist of an SBOM: what `travsr lang info` and `plugin pack` print. */
export interface SbomSummary {
  readonly specVersion: string;
  /** `complete`, `incomplete` or `unknown` (the subject's composition), `unknown` when it states none. */
  readonly aggregate: string;
  /** The tool that made the record it was built from (`esbuild 0.28.2`), when it names one. */
  readonly tool: string | undefined;
  readonly packages: { name: string; version: string; licence: string | undefined }[];
  /** Files shipped as they are (grammars, `lib.d.ts`), counted over every package. */
  readonly files: number;
}

/**
 * Summarises an SBOM: its packages with licences, its shipped files, its composition.
 *
 * @example
 * ```ts
 * summarizeSbom(bom).packages.find((p) => p.name === 'typescript')?.version; // '5.9.3'
 * ```
 */
export function summarizeSbom(bom: CycloneDxBom): SbomSummary {
  const tool = bom.metadata?.tools?.components?.[0];
  const files = (cs: readonly CycloneDxComponent[] | undefined): number =>
    (cs ?? []).reduce((n, c) => n + (c.type === 'file' ? 1 : 0) + files(c.components), 0);
  return {
    specVersion: bom.specVersion,
    aggregate: bom.compositions?.[0]?.aggregate ?? 'unknown',
    tool: tool ? `${tool.name}${tool.version ? ` ${tool.version}` : ''}` : undefined,
    packages: sbomPackages(bom),
    files: files(bom.components),
  };
}
