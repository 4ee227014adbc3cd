import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { PluginManifest } from '@travsr/protocol';
import {
  isVersion,
  pluginDirSbom,
  requiredTier,
  serializeSbom,
  summarizeSbom,
  type CycloneDxBom,
  type PluginTier,
  type SbomSummary,
  type VersionDocument,
} from '@travsr/registry';
import { loadConfig } from '../config/index.js';
import { loadPluginDir } from '../plugins/plugin-dir.js';
import { LangError, LangErrorCode } from './errors.js';
import { pluginForName, splitRange, withRegistry, type LangContext } from './install-plugin.js';
import { readInstallRecord, readInstalledSbom, type InstallRecord } from './install-records.js';
import { readLangToml, type PluginEntry } from './lang-toml.js';
import { checkLicences, licencePolicyOf } from './licence-check.js';
import { installedPluginDir } from './locked-version.js';
import { readPluginsLock, type LockEntry } from './plugins-lock.js';

/** Where the SBOM `lang info` shows came from, and whether its hash was checked. */
export interface PluginInfoSbom {
  /** `install record`: kept at install, checked against the recorded hash; `registry`: checked against the signed version document; `build record`: made now from the plugin directory's build record (a first-party plugin registered where it is). */
  readonly from: 'install record' | 'registry' | 'build record';
  readonly sha256: string;
  readonly summary: SbomSummary;
  readonly document: CycloneDxBom;
}

/** Everything `travsr lang info` knows about one plugin version. */
export interface PluginInfo {
  readonly id: string;
  readonly version: string;
  /** `installed`: on this machine (registered, or run by this repository's lock); `available`: only in the registry. */
  readonly state: 'installed' | 'available';
  readonly manifest: PluginManifest;
  /** The sandbox tier its constraints need. */
  readonly requiredTier: PluginTier;
  /** The tier lang.toml grants it, when it is registered at this version. */
  readonly grantedTier?: string;
  /** Installed: its directory. */
  readonly dir?: string;
  /** `builtin`, a registry URL or directory, `local:<path>`, or `checkout` for a first-party plugin registered where it is built. */
  readonly source: string;
  /** The key that signed the registry snapshot it came from, and when. */
  readonly signedBy?: string;
  readonly signed?: string;
  readonly installedAt?: string;
  readonly sha256?: string;
  readonly treeHash?: string;
  readonly registration?: PluginEntry;
  readonly lock?: LockEntry;
  readonly record?: InstallRecord;
  readonly versionDocument?: VersionDocument;
  readonly sbom?: PluginInfoSbom;
  /** Why there is no SBOM, or why the one kept could not be shown (altered, unreadable). */
  readonly sbomProblem?: string;
  /** The licence policy's verdict on it: undefined when allowed. */
  readonly licenceProblem?: string;
}

function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * What is known about a plugin (`lang-go`, `go`, `lang-go@0.1.0`, `lang-go@^0.1`): the
 * installed version this repository runs (its lock's, else lang.toml's) with its install
 * record and kept SBOM; or, for a version not on this machine, the registry's signed version
 * document and SBOM. Nothing is installed or changed.
 *
 * @throws LangError `LANG_NOT_FOUND` when neither this machine nor the registry has it, or a
 *   registry error when the registry cannot be read.
 */
export async function pluginInfo(ctx: LangContext, target: string): Promise<PluginInfo> {
  const { name, range } = splitRange(target);
  const reg = readLangToml();
  const id = reg.plugins[name] ? name : (reg.languages[name]?.plugin ?? name);
  const lock = ctx.lockPath === undefined ? undefined : readPluginsLock(ctx.lockPath)[id];
  const registered = reg.plugins[id];
  const wanted = range !== undefined ? (isVersion(range) ? range : undefined) : (lock?.version ?? registered?.version);
  if (wanted !== undefined) {
    const dir = registered?.version === wanted ? registered.dir : installedPluginDir(ctx.pluginsRoot, id, wanted);
    if (existsSync(dir)) return installedInfo(ctx, id, wanted, dir, registered?.version === wanted ? registered : undefined, lock);
  }
  return availableInfo(ctx, name, range);
}

async function installedInfo(
  ctx: LangContext,
  id: string,
  version: string,
  dir: string,
  registration: PluginEntry | undefined,
  lock: LockEntry | undefined,
): Promise<PluginInfo> {
  const { manifest } = await loadPluginDir(dir);
  const record = readInstallRecord(ctx.pluginsRoot, id, version);
  const locked = lock?.version === version ? lock : undefined;
  const expected = registration?.sbomSha256 ?? locked?.sbomSha256 ?? record?.sbom?.sha256;
  let sbom: PluginInfoSbom | undefined;
  let sbomProblem: string | undefined;
  if (expected !== undefined) {
    try {
      const kept = readInstalledSbom(ctx.pluginsRoot, id, version, expected);
      sbom = { from: 'install record', sha256: expected, summary: summarizeSbom(kept.bom), document: kept.bom };
    } catch (e) {
      sbomProblem = (e as Error).message;
    }
  } else if (record) {
    sbomProblem = `it was installed from ${record.registry} without an SBOM`;
  } else {
    try {
      const bom = await pluginDirSbom(dir);
      sbom = { from: 'build record', sha256: sha256(serializeSbom(bom)), summary: summarizeSbom(bom), document: bom };
    } catch (e) {
      sbomProblem = (e as Error).message;
    }
  }
  const tree = registration?.treeHash ?? record?.treeHash ?? locked?.treeHash;
  return {
    id,
    version,
    state: 'installed',
    manifest,
    requiredTier: requiredTier(manifest),
    ...(registration ? { grantedTier: registration.tier, registration } : {}),
    dir,
    source: record?.registry ?? locked?.registry ?? 'checkout',
    ...(record?.signedBy ? { signedBy: record.signedBy } : {}),
    ...(record?.signed ? { signed: record.signed } : {}),
    ...(record ? { installedAt: record.installedAt, sha256: record.sha256 } : locked ? { sha256: locked.sha256 } : {}),
    ...(tree !== undefined ? { treeHash: tree } : {}),
    ...(locked ? { lock: locked } : {}),
    ...(record ? { record } : {}),
    ...(record?.versionDocument ? { versionDocument: record.versionDocument } : {}),
    ...(sbom ? { sbom } : {}),
    ...(sbomProblem ? { sbomProblem } : {}),
    ...licenceVerdict(ctx, `${id}@${version}`, sbom),
  };
}

async function availableInfo(ctx: LangContext, name: string, range: string | undefined): Promise<PluginInfo> {
  return withRegistry(ctx, async (source, client) => {
    const snap = await client.snapshot();
    const where = source.name === 'builtin' ? 'the built-in registry' : `the registry ${source.name}`;
    let id: string;
    try {
      id = pluginForName(snap.index, name, loadConfig({}).values['plugins.prefer'].value, where).id;
    } catch (e) {
      throw new LangError(
        LangErrorCode.NotFound,
        `${(e as Error).message.replace(/;.*$/, '')}, and no installed plugin is "${name}" or serves it; \`travsr lang list\` shows what is installed and available`,
      );
    }
    const { doc, artifact } = await client.resolve(id, range ?? snap.index.plugins[id]?.latest ?? '*');
    let sbom: PluginInfoSbom | undefined;
    let sbomProblem: string | undefined;
    try {
      const fetched = await client.sbom(artifact, { name: id, version: doc.version });
      if (fetched) sbom = { from: 'registry', sha256: fetched.sha256, summary: summarizeSbom(fetched.bom), document: fetched.bom };
      else sbomProblem = `${where} publishes it without an SBOM`;
    } catch (e) {
      sbomProblem = (e as Error).message;
    }
    return {
      id,
      version: doc.version,
      state: 'available',
      manifest: doc.manifest,
      requiredTier: doc.tier,
      source: source.name,
      signedBy: snap.signedBy,
      signed: snap.created,
      sha256: artifact.sha256,
      treeHash: artifact.treeHash,
      versionDocument: doc,
      ...(sbom ? { sbom } : {}),
      ...(sbomProblem ? { sbomProblem } : {}),
      ...licenceVerdict(ctx, `${id}@${doc.version}`, sbom),
    };
  });
}

function licenceVerdict(ctx: LangContext, plugin: string, sbom: PluginInfoSbom | undefined): { licenceProblem?: string } {
  const config = loadConfig(ctx.repoRoot === undefined ? {} : { repoRoot: ctx.repoRoot });
  try {
    const verdict = checkLicences(plugin, sbom?.document, licencePolicyOf(config.values['registry.allowedLicences']));
    return verdict.warning ? { licenceProblem: verdict.warning } : {};
  } catch (e) {
    return { licenceProblem: (e as Error).message.replace(/; nothing was installed.*$/, '') };
  }
}
