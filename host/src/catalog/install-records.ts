import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSbom, type CycloneDxBom, type VersionDocument } from '@travsr/registry';
import { LangError, LangErrorCode } from './errors.js';

/**
 * Where an installed plugin came from and what came with it: written by `travsr lang install`
 * beside the installed plugins (`<plugins root>/.records/<id>/<version>.json`, the SBOM in
 * `<version>.cdx.json`), read by `travsr lang info` and `lang verify`. The plugin's own
 * directory is left as the artifact made it, so its tree hash still holds.
 */
export interface InstallRecord {
  readonly formatVersion: 1;
  readonly id: string;
  readonly version: string;
  /** `builtin`, a registry URL or directory, or `local:<path>` for a directory or `.tgz`. */
  readonly registry: string;
  /** When it was installed (ISO 8601, UTC). */
  readonly installedAt: string;
  /** Registry installs: the key id that signed the registry's `SHA256SUMS`, and the signed signing time. */
  readonly signedBy?: string;
  readonly signed?: string;
  /** The platform of the installed artifact (`any`, `linux-x64`, …). */
  readonly platform: string;
  /** SHA-256 of the artifact archive, and the tree hash of its files. */
  readonly sha256: string;
  readonly treeHash: string;
  /** Registry installs: the signed version document it was installed from. */
  readonly versionDocument?: VersionDocument;
  /** The SBOM kept with it (undefined: it came without one). */
  readonly sbom?: {
    readonly sha256: string;
    readonly specVersion: string;
    readonly components: number;
  };
}

const RECORDS_DIR = '.records';

/**
 * The files of one installed version's record.
 *
 * @example
 * ```ts
 * installRecordPaths('/home/u/.travsr/plugins', 'lang-go', '0.1.0').sbom; // …/plugins/.records/lang-go/0.1.0.cdx.json
 * ```
 */
export function installRecordPaths(pluginsRoot: string, id: string, version: string): { record: string; sbom: string } {
  const base = join(pluginsRoot, RECORDS_DIR, ...id.split('/'), version);
  return { record: `${base}.json`, sbom: `${base}.cdx.json` };
}

function writeAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Writes (or replaces) an installed version's record and its SBOM; without `sbom`, an older SBOM file is removed. */
export function writeInstallRecord(pluginsRoot: string, record: InstallRecord, sbom: Uint8Array | undefined): void {
  const paths = installRecordPaths(pluginsRoot, record.id, record.version);
  if (sbom) writeAtomic(paths.sbom, sbom);
  else rmSync(paths.sbom, { force: true });
  writeAtomic(paths.record, `${JSON.stringify(record, null, 2)}\n`);
}

function invalid(what: string, why: string, fix: string): LangError {
  return new LangError(LangErrorCode.InstallRecordInvalid, `${what} ${why}; ${fix}`);
}

/**
 * The record of an installed version, or undefined when it has none (installed before records
 * were kept, or a first-party plugin registered where it is).
 *
 * @throws LangError `INSTALL_RECORD_INVALID` when the file is there but is not a record.
 */
export function readInstallRecord(pluginsRoot: string, id: string, version: string): InstallRecord | undefined {
  const { record: file } = installRecordPaths(pluginsRoot, id, version);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw invalid(`cannot read ${file}:`, (e as Error).message, 'check its permissions');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw invalid(file, `is not JSON (${(e as Error).message})`, `reinstall the plugin with \`travsr lang install ${id}@${version}\``);
  }
  const r = value as Partial<InstallRecord> | null;
  if (
    typeof r !== 'object' ||
    r === null ||
    r.formatVersion !== 1 ||
    r.id !== id ||
    r.version !== version ||
    typeof r.registry !== 'string'
  )
    throw invalid(
      file,
      `is not the install record of ${id}@${version}`,
      `reinstall the plugin with \`travsr lang install ${id}@${version}\``,
    );
  return r as InstallRecord;
}

/**
 * The SBOM kept for an installed version, checked against the SHA-256 recorded when it was
 * installed (lang.toml or the repository's lock).
 *
 * @throws LangError `INSTALL_RECORD_INVALID` when it is missing, altered or not a CycloneDX SBOM of that plugin.
 */
export function readInstalledSbom(pluginsRoot: string, id: string, version: string, sha256: string): { bytes: Buffer; bom: CycloneDxBom } {
  const { sbom: file } = installRecordPaths(pluginsRoot, id, version);
  const fix = `reinstall it with \`travsr lang install ${id}@${version}\` and find out what changed the file`;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw invalid(
      `the SBOM of ${id}@${version} (${file})`,
      `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      fix,
    );
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256)
    throw invalid(
      `the SBOM of ${id}@${version} (${file})`,
      `has SHA-256 ${actual}, but ${sha256} was recorded when it was installed: it was altered`,
      fix,
    );
  try {
    return { bytes, bom: parseSbom(bytes, file, { name: id, version }) };
  } catch (e) {
    throw invalid(`the SBOM of ${id}@${version}`, (e as Error).message, fix);
  }
}

/** Removes the records of `id` (of one version, when given). */
export function removeInstallRecords(pluginsRoot: string, id: string, version?: string): void {
  if (version === undefined) {
    rmSync(join(pluginsRoot, RECORDS_DIR, ...id.split('/')), { recursive: true, force: true });
    return;
  }
  const paths = installRecordPaths(pluginsRoot, id, version);
  rmSync(paths.record, { force: true });
  rmSync(paths.sbom, { force: true });
}
