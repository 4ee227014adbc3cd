import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import {
  assertNoRollback,
  compareVersions,
  installArtifact,
  isVersion,
  maxSatisfying,
  packPlugin,
  platformOfArtifactFile,
  readPackedSbom,
  RegistryError,
  RegistryErrorCode,
  safeExtract,
  satisfies,
  sbomPackages,
  sbomPathFor,
  sha256File,
  treeHash,
  verifyTreeHash,
  type RegistryClient,
  type RegistryIndex,
} from '@travsr/registry';
import { MANIFEST_FILE, type PluginManifest } from '@travsr/protocol';
import { loadConfig, type IgnoredConfigValue } from '../config/index.js';
import { findRepoRoot } from '../git/index.js';
import { readLangToml, writeLangToml, type PluginEntry } from './lang-toml.js';
import { pluginCacheTree, pluginVersionCacheTree } from '../paths/plugin-cache-dir.js';
import { loadPluginDir } from '../plugins/plugin-dir.js';
import { registrationTier } from '../sandbox/index.js';
import { LangError, LangErrorCode } from './errors.js';
import { writeInstallRecord, removeInstallRecords, readInstalledSbom } from './install-records.js';
import { rememberLock, versionsLockedElsewhere } from './known-locks.js';
import { checkLicences, licencePolicyOf, type LicencePolicy } from './licence-check.js';
import { installedPluginDir, installedPluginsRoot } from './locked-version.js';
import { pluginsLockPath, readPluginsLock, sameLockEntry, writePluginsLock, type LockEntry, type PluginsLock } from './plugins-lock.js';
import { registryClient, registrySource, type RegistrySource } from './registry-source.js';

/** Where a `travsr lang` command works: the repository whose lock it honours, and whether it may change the lock. */
export interface LangContext {
  /** Repository root, when there is one (`--repo`, else the git work tree of the current directory). */
  readonly repoRoot: string | undefined;
  /** `<repo>/.travsr/plugins.lock`, or undefined outside a repository (no lock is kept). */
  readonly lockPath: string | undefined;
  /** `--frozen-lockfile`: fail with LOCK_WOULD_CHANGE instead of changing the lock. */
  readonly frozen: boolean;
  /** `<TRAVSR_HOME>/plugins`: installed plugins live in `<id>/<version>/` below it. */
  readonly pluginsRoot: string;
  /** Security keys of the repository's config file that do not count (it is not trusted); commands warn about them. */
  readonly ignoredKeys: readonly IgnoredConfigValue[];
}

/** What an install did. */
export interface InstallOutcome {
  readonly id: string;
  readonly version: string;
  readonly dir: string;
  readonly sha256: string;
  readonly treeHash: string;
  /** Registry name (`builtin`, a URL) or `local:<path>`. */
  readonly registry: string;
  /** Languages now served by this plugin. */
  readonly activeLanguages: string[];
  /** The sandbox tier this install granted, in words, when the plugin asks for more than it had. */
  readonly granted?: string;
  /** The SBOM installed with it: its hash, and how many packages it lists (undefined: it came without one). */
  readonly sbom?: { readonly sha256: string; readonly components: number };
  /** Things the user should know (a plugin without an SBOM whose licences were not checked). */
  readonly warnings: string[];
  /** Languages the plugin claims that stay with another plugin. */
  readonly otherLanguages: string[];
  /**
   * `user`: registered in lang.toml, for every repository. `repository`: it came from a registry
   * the repository's own (trusted) config names, so only this repository's lock runs it.
   */
  readonly scope: 'user' | 'repository';
  readonly alreadyInstalled: boolean;
  /** The lock entry before and after (undefined: none). */
  readonly lockBefore: LockEntry | undefined;
  readonly lockAfter: LockEntry | undefined;
}

/** The context of a command run in `cwd`, or in `--repo`. */
export async function langContext(repoFlag: string | undefined, frozen: boolean, cwd = process.cwd()): Promise<LangContext> {
  const repoRoot = repoFlag !== undefined ? resolve(cwd, repoFlag) : await findRepoRoot(cwd).catch(() => undefined);
  let ignoredKeys: readonly IgnoredConfigValue[] = [];
  try {
    if (repoRoot !== undefined) ignoredKeys = loadConfig({ repoRoot, cwd }).ignored;
  } catch {
    // A broken config file is reported by whatever reads the configuration; commands that do not need it still run.
  }
  return {
    repoRoot,
    lockPath: repoRoot === undefined ? undefined : pluginsLockPath(repoRoot),
    frozen,
    pluginsRoot: installedPluginsRoot(),
    ignoredKeys,
  };
}

function readLock(ctx: LangContext): PluginsLock {
  return ctx.lockPath === undefined ? {} : readPluginsLock(ctx.lockPath);
}

function describeEntry(e: LockEntry | undefined): string {
  return e ? `${e.version} (constraint ${e.constraint}, sha256 ${e.sha256.slice(0, 12)}…)` : 'nothing';
}

/** Throws LOCK_WOULD_CHANGE under `--frozen-lockfile` when `id`'s entry would change. Call before changing anything. */
function checkFrozen(ctx: LangContext, id: string, before: LockEntry | undefined, after: LockEntry | undefined): void {
  if (!ctx.frozen || sameLockEntry(before, after)) return;
  throw new LangError(
    LangErrorCode.LockWouldChange,
    `${ctx.lockPath ?? 'the lock file'} locks ${id} at ${describeEntry(before)}, but this would make it ${describeEntry(after)}; nothing was changed — run without --frozen-lockfile and commit the lock file`,
  );
}

function saveLockEntry(ctx: LangContext, id: string, entry: LockEntry | undefined): void {
  if (ctx.lockPath === undefined) return;
  rememberLock(ctx.lockPath);
  const lock = readPluginsLock(ctx.lockPath);
  const before = lock[id];
  if (entry === undefined) {
    if (!before) return;
    delete lock[id];
  } else {
    if (sameLockEntry(before, entry) && before?.registry === entry.registry && before?.sbomSha256 === entry.sbomSha256) return;
    lock[id] = entry;
  }
  writePluginsLock(ctx.lockPath, lock);
}

/** A plugin named by a user: an id in the registry, or a language one or more plugins serve. */
export function pluginForName(
  index: RegistryIndex,
  name: string,
  prefer: Readonly<Record<string, string>>,
  where: string,
): { id: string; language?: string } {
  if (index.plugins[name]) return { id: name };
  const claimants = Object.entries(index.plugins)
    .filter(([, e]) => e.languages.includes(name))
    .map(([id]) => id)
    .sort();
  const preferred = prefer[name];
  if (preferred !== undefined && claimants.includes(preferred)) return { id: preferred, language: name };
  if (claimants.length === 1) return { id: claimants[0] as string, language: name };
  if (claimants.length === 0)
    throw new LangError(
      LangErrorCode.NotFound,
      `${where} has no plugin with id "${name}" and none for language "${name}"; \`travsr lang list\` shows what it offers`,
    );
  throw new LangError(
    LangErrorCode.Ambiguous,
    `several plugins in ${where} serve ${name}: ${claimants.join(', ')}; install one by id, or choose with \`travsr config set plugins.prefer ${name}=<id>\``,
  );
}

/**
 * Splits `name@range` (a scoped id `acme/lua` has no leading `@`).
 * @throws LangError `LANG_ARGUMENT_INVALID` for `name@` with nothing after the `@`.
 */
export function splitRange(arg: string): { name: string; range?: string } {
  const at = arg.lastIndexOf('@');
  if (at <= 0) return { name: arg };
  const range = arg.slice(at + 1).trim();
  if (range === '')
    throw new LangError(
      LangErrorCode.ArgumentInvalid,
      `"${arg}" has no version range after "@"; write ${arg.slice(0, at)} (newest allowed by the lock), ${arg.slice(0, at)}@^1.2.0 or ${arg.slice(0, at)}@1.2.3`,
    );
  return { name: arg.slice(0, at), range };
}

/** True when `arg` names a local plugin directory or `.tgz` rather than a language or plugin id. */
export function isLocalTarget(arg: string, cwd = process.cwd()): boolean {
  const path = resolve(cwd, arg);
  if (!existsSync(path)) return false;
  const st = statSync(path);
  return st.isDirectory() ? existsSync(join(path, MANIFEST_FILE)) : arg.endsWith('.tgz');
}

/**
 * The user's own configuration: flags, environment and `~/.travsr/config.toml`, never a
 * repository's file. What lang.toml records (for every repository) is decided by it alone.
 */
function userConfig() {
  return loadConfig({});
}

/**
 * Records the plugin in lang.toml and maps its languages: unmapped ones, and the one asked for.
 * The default tier of a new registration is the user's `sandbox.tier`, never a repository's.
 */
function register(
  manifest: Pick<PluginManifest, 'id' | 'version' | 'languages' | 'constraints' | 'kind' | 'model'>,
  dir: string,
  tree: string,
  sbomSha256: string | undefined,
  requestedLanguage: string | undefined,
): { active: string[]; other: string[]; granted?: string } {
  const reg = readLangToml();
  const existing = reg.plugins[manifest.id];
  const defaultTier = userConfig().values['sandbox.tier'].value;
  const kept = existing?.tier ?? defaultTier;
  // A language plugin whose tool needs more than the kept tier (scip-clang's shared memory, scip-java's
  // build fetching dependencies) is granted the tier its manifest asks for: the user asked for it by
  // name, and the install says what was granted (the allowlist is the manifest's, shown by lang list).
  const tier = registrationTier(kept, manifest as PluginManifest);
  const entry: PluginEntry = {
    version: manifest.version,
    dir,
    treeHash: tree,
    ...(sbomSha256 ? { sbomSha256 } : {}),
    tier,
    networkAllow: existing?.networkAllow ?? [],
  };
  reg.plugins[manifest.id] = entry;
  // A model plugin serves its task (travsr model install, rerank install, or a lock's install).
  if (manifest.kind === 'model' && manifest.model) (reg.models ??= {})[manifest.model.task] = manifest.id;
  const active: string[] = [];
  const other: string[] = [];
  for (const lang of manifest.languages) {
    const l = reg.languages[lang] ?? { allowUnsandboxed: false };
    if (!l.plugin || l.plugin === manifest.id || lang === requestedLanguage || !reg.plugins[l.plugin]) {
      l.plugin = manifest.id;
      active.push(lang);
    } else other.push(lang);
    reg.languages[lang] = l;
  }
  writeLangToml(reg);
  if (tier === kept) return { active, other };
  const net = manifest.constraints.network;
  const what =
    tier === 'elevated' && net !== false
      ? `network only through the allowlist proxy, to ${net.allow.join(', ')}`
      : 'POSIX shared memory and message queues, still no network';
  return { active, other, granted: `granted the ${tier} sandbox tier, which ${manifest.id} asks for: ${what}` };
}

/** How the version to install is chosen. */
export type InstallMode =
  /** Honour the lock: the locked version when it is still allowed, else the newest within the constraint. */
  | 'install'
  /** Newest within the lock's constraint. */
  | 'update'
  /** Newest published; the constraint moves to `^<newest>`. */
  | 'upgrade'
  /** Exactly the given version; the constraint becomes that version. */
  | 'pin';

/**
 * Installs `name` (a plugin id or a language) from the registry into
 * `<TRAVSR_HOME>/plugins/<id>/<version>/`, checks and updates the lock, and registers it in
 * lang.toml — unless the registry is the repository's own (`source.scope`): then only the
 * repository's lock records it, and lang.toml, which every repository shares, is left alone.
 * Which plugin a language name means follows the user's `plugins.prefer`, not the repository's.
 * Nothing is changed when a check fails (rollback, hashes, frozen lock).
 * Other installed versions of the plugin stay on disk: another repository's lock may still
 * run one of them (see pluginCopyFor).
 */
export async function installFromRegistry(
  ctx: LangContext,
  source: RegistrySource,
  client: RegistryClient,
  name: string,
  range: string | undefined,
  mode: InstallMode,
): Promise<InstallOutcome> {
  const snap = await client.snapshot();
  const { index } = snap;
  const where = source.name === 'builtin' ? 'the built-in registry' : `the registry ${source.name}`;
  const prefer = userConfig().values['plugins.prefer'].value;
  const { id, language } = pluginForName(index, name, prefer, where);
  const published = index.plugins[id];
  if (!published) throw new LangError(LangErrorCode.NotFound, `${where} has no plugin ${id}`);
  const locked = readLock(ctx)[id];
  // A registry whose newest version is older than the lock has been rolled back (or is stale): refuse before resolving.
  if (locked && mode !== 'pin') assertNoRollback(id, locked.version, published.latest);
  let constraint: string;
  let wanted: string;
  switch (mode) {
    case 'install': {
      constraint = range ?? locked?.constraint ?? `^${published.latest}`;
      wanted = constraint;
      if (locked && (range === undefined || satisfies(locked.version, range))) {
        const best = maxSatisfying(published.versions, constraint);
        // Keep the locked version while the registry still has it; a registry offering only older ones is a rollback.
        if (best !== undefined && compareVersions(best, locked.version) >= 0) wanted = locked.version;
      }
      break;
    }
    case 'update':
      constraint = range ?? locked?.constraint ?? `^${published.latest}`;
      wanted = constraint;
      break;
    case 'upgrade':
      constraint = `^${published.latest}`;
      wanted = published.latest;
      break;
    case 'pin':
      if (range === undefined || !isVersion(range))
        throw new LangError(LangErrorCode.ArgumentInvalid, `pin needs an exact version: \`travsr lang pin ${id}@<version>\``);
      constraint = range;
      wanted = range;
      break;
  }
  const { doc, artifact } = await client.resolve(id, wanted);
  const rollbackGuard = mode !== 'pin' && locked !== undefined;
  if (rollbackGuard) assertNoRollback(id, locked.version, doc.version);
  const sameVersion = locked !== undefined && locked.version === doc.version;
  if (sameVersion) {
    const offered = { sha256: artifact.sha256, treeHash: artifact.treeHash, sbomSha256: artifact.sbom?.sha256 };
    for (const field of ['sha256', 'treeHash', 'sbomSha256'] as const) {
      if (field === 'sbomSha256' && (locked.sbomSha256 === undefined || offered.sbomSha256 === undefined)) continue;
      if (locked[field] !== offered[field])
        throw new RegistryError(
          RegistryErrorCode.LockMismatch,
          `${where} offers ${id}@${doc.version} with ${field} ${offered[field]}, but ${ctx.lockPath ?? 'the lock'} pins ${locked[field]}: the published artifact changed since it was locked (republished or tampered with); nothing was installed — if you trust the change, remove the lock entry and install again`,
        );
    }
  }
  const after: LockEntry = {
    version: doc.version,
    constraint,
    registry: source.name,
    sha256: artifact.sha256,
    treeHash: artifact.treeHash,
    ...(artifact.sbom ? { sbomSha256: artifact.sbom.sha256 } : {}),
  };
  checkFrozen(ctx, id, locked, after);
  // The SBOM is checked against the signed version document, and the licences in it against the policy, before downloading.
  const sbom = await client.sbom(artifact, { name: id, version: doc.version });
  const verdict = checkLicences(`${id}@${doc.version}`, sbom?.bom, licencePolicy(ctx));
  if (source.scope === 'repository') await refuseReplacingInstalled(id, doc.version, artifact.treeHash, source, ctx);
  const r = await client.install(id, doc.version, ctx.pluginsRoot, {
    ...(rollbackGuard ? { lockedVersion: locked.version } : {}),
    lockedHashes: { sha256: artifact.sha256, treeHash: artifact.treeHash },
  });
  if (source.scope === 'repository' && ctx.lockPath === undefined)
    throw new LangError(
      LangErrorCode.ArgumentInvalid,
      `the registry ${source.name} is named by a repository's own config, and only that repository's lock can record what it installs; run the command inside the repository or with --repo`,
    );
  writeInstallRecord(
    ctx.pluginsRoot,
    {
      formatVersion: 1,
      id,
      version: doc.version,
      registry: source.name,
      installedAt: new Date().toISOString(),
      signedBy: snap.signedBy,
      signed: snap.created,
      platform: artifact.platform,
      sha256: artifact.sha256,
      treeHash: r.treeHash,
      versionDocument: doc,
      ...(sbom && artifact.sbom
        ? { sbom: { sha256: sbom.sha256, specVersion: artifact.sbom.specVersion, components: artifact.sbom.components } }
        : {}),
    },
    sbom?.bytes,
  );
  saveLockEntry(ctx, id, after);
  const { active, other, granted } =
    source.scope === 'repository'
      ? { active: [...doc.manifest.languages], other: [], granted: undefined }
      : register(doc.manifest, r.dir, r.treeHash, sbom?.sha256, language);
  return {
    id,
    version: r.version,
    dir: r.dir,
    sha256: r.sha256,
    treeHash: r.treeHash,
    registry: source.name,
    activeLanguages: active,
    otherLanguages: other,
    ...(granted ? { granted } : {}),
    ...(sbom && artifact.sbom ? { sbom: { sha256: sbom.sha256, components: artifact.sbom.components } } : {}),
    warnings: verdict.warning ? [verdict.warning] : [],
    scope: source.scope,
    alreadyInstalled: r.alreadyInstalled,
    lockBefore: locked,
    lockAfter: after,
  };
}

/**
 * The installed copies under `<TRAVSR_HOME>/plugins` are shared by every repository: a registry
 * that only one repository's config names may add a version, never replace the files of one
 * already there (others would run them, or be refused at launch by their recorded tree hash).
 */
async function refuseReplacingInstalled(
  id: string,
  version: string,
  tree: string,
  source: RegistrySource,
  ctx: LangContext,
): Promise<void> {
  const dir = installedPluginDir(ctx.pluginsRoot, id, version);
  if (!existsSync(dir)) return;
  const installed = await treeHash(dir).catch(() => undefined);
  if (installed === tree) return;
  throw new LangError(
    LangErrorCode.RepositoryRegistryConflict,
    `the registry ${source.name}, named by ${ctx.repoRoot ?? 'the repository'}'s own .travsr/config.toml, offers ${id}@${version} with tree hash ${tree}, but ${dir} already holds other files${installed ? ` (tree hash ${installed})` : ''} that other repositories may run; nothing was installed — a repository's registry may add versions, not replace installed ones: ask its maintainers to publish another version, or remove the installed one with \`travsr lang remove ${id}\` if you no longer need it`,
  );
}

/**
 * Installs a plugin from a local directory (packed as `travsr plugin pack` would, so only
 * packable files are copied) or a `.tgz` artifact, extracted safely.
 */
export async function installLocal(ctx: LangContext, target: string, cwd = process.cwd()): Promise<InstallOutcome> {
  const path = resolve(cwd, target);
  const tmp = await mkdtemp(join(tmpdir(), 'travsr-lang-'));
  try {
    let tgz: string;
    let tree: string;
    if (statSync(path).isDirectory()) {
      const packed = await packPlugin(path, tmp);
      tgz = packed.file;
      tree = packed.treeHash;
    } else {
      tgz = path;
      const probe = join(tmp, 'probe');
      await safeExtract(tgz, probe);
      tree = await treeHash(probe);
    }
    const { sha256, size } = await sha256File(tgz);
    const probe = join(tmp, 'manifest');
    await safeExtract(tgz, probe);
    const manifest = (await loadPluginDir(probe)).manifest;
    const sbom = await readPackedSbom(sbomPathFor(tgz), { name: manifest.id, version: manifest.version });
    const registry = `local:${path}`;
    const locked = readLock(ctx)[manifest.id];
    const after: LockEntry = {
      version: manifest.version,
      constraint: manifest.version,
      registry,
      sha256,
      treeHash: tree,
      ...(sbom ? { sbomSha256: sbom.sha256 } : {}),
    };
    checkFrozen(ctx, manifest.id, locked, after);
    const verdict = checkLicences(`${manifest.id}@${manifest.version}`, sbom?.bom, licencePolicy(ctx));
    const dir = installedPluginDir(ctx.pluginsRoot, manifest.id, manifest.version);
    const r = await installArtifact(tgz, dir, { sha256, size, treeHash: tree, id: manifest.id, version: manifest.version });
    writeInstallRecord(
      ctx.pluginsRoot,
      {
        formatVersion: 1,
        id: manifest.id,
        version: manifest.version,
        registry,
        installedAt: new Date().toISOString(),
        platform: platformOfArtifactFile(tgz),
        sha256,
        treeHash: r.treeHash,
        ...(sbom ? { sbom: { sha256: sbom.sha256, specVersion: sbom.bom.specVersion, components: sbomPackages(sbom.bom).length } } : {}),
      },
      sbom?.bytes,
    );
    saveLockEntry(ctx, manifest.id, after);
    const { active, other, granted } = register(manifest, dir, r.treeHash, sbom?.sha256, undefined);
    return {
      id: manifest.id,
      version: manifest.version,
      dir,
      sha256,
      treeHash: r.treeHash,
      registry,
      activeLanguages: active,
      otherLanguages: other,
      ...(granted ? { granted } : {}),
      ...(sbom ? { sbom: { sha256: sbom.sha256, components: sbomPackages(sbom.bom).length } } : {}),
      warnings: verdict.warning ? [verdict.warning] : [],
      scope: 'user',
      alreadyInstalled: r.alreadyInstalled,
      lockBefore: locked,
      lockAfter: after,
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** `registry.allowedLicences` as the repository (trusted) or the user sets it. */
function licencePolicy(ctx: LangContext): LicencePolicy {
  return licencePolicyOf(loadConfig(ctx.repoRoot === undefined ? {} : { repoRoot: ctx.repoRoot }).values['registry.allowedLicences']);
}

/** Opens the configured registry (or `source`, e.g. the built-in one) for `fn`, closing it afterwards. */
export async function withRegistry<T>(
  ctx: LangContext,
  fn: (source: RegistrySource, client: RegistryClient) => Promise<T>,
  source?: RegistrySource,
): Promise<T> {
  source ??= await registrySource(ctx.repoRoot);
  const client = registryClient(source);
  try {
    return await fn(source, client);
  } finally {
    await client.close();
  }
}

/** The installed plugin a user names: a plugin id in lang.toml, or a language mapped to one. */
export function installedPluginId(name: string): string {
  const reg = readLangToml();
  if (reg.plugins[name]) return name;
  const mapped = reg.languages[name]?.plugin;
  if (mapped && reg.plugins[mapped]) return mapped;
  throw new LangError(
    LangErrorCode.NotFound,
    `no installed plugin is "${name}" or serves language "${name}"; \`travsr lang list\` shows what is installed`,
  );
}

/** What `lang remove` did. */
export interface RemoveOutcome {
  id: string;
  version: string;
  languages: string[];
  /** The files deleted, when they were under `<TRAVSR_HOME>/plugins` (a first-party plugin's own directory is never deleted). */
  deleted: string | undefined;
  /** Installed versions left on disk because the lock of another repository on this machine names them. */
  kept: { version: string; dir: string; locks: string[] }[];
  lockRemoved: boolean;
  /** Cache directories deleted (`constraints.cache`): the plugin's whole tree, or the removed versions' when some are kept. */
  cachesDeleted: string[];
}

/**
 * Unregisters a plugin, deletes its installed files and its lock entry. Versions another
 * known repository's lock names stay installed (see {@link versionsLockedElsewhere}).
 */
export async function removePlugin(ctx: LangContext, name: string): Promise<RemoveOutcome> {
  const id = installedPluginId(name);
  const locked = readLock(ctx)[id];
  checkFrozen(ctx, id, locked, undefined);
  const reg = readLangToml();
  const entry = reg.plugins[id] as PluginEntry;
  const languages: string[] = [];
  for (const [lang, l] of Object.entries(reg.languages)) {
    if (l.plugin !== id) continue;
    languages.push(lang);
    if (l.allowUnsandboxed) delete l.plugin;
    else delete reg.languages[lang];
  }
  delete reg.plugins[id];
  // A model plugin removed serves its task no more.
  for (const task of ['embed', 'rerank'] as const) if (reg.models?.[task] === id) delete reg.models[task];
  writeLangToml(reg);
  const ownDir = join(ctx.pluginsRoot, ...id.split('/'));
  const inside = !relative(ownDir, entry.dir).startsWith('..') && entry.dir.startsWith(ownDir + sep);
  const kept: RemoveOutcome['kept'] = [];
  if (inside) {
    const { locked: elsewhere } = versionsLockedElsewhere(ctx.lockPath);
    const versions = existsSync(ownDir) ? readdirSync(ownDir) : [];
    for (const version of versions) {
      const locks = elsewhere.get(`${id}@${version}`);
      if (locks) kept.push({ version, dir: join(ownDir, version), locks });
      else {
        await rm(join(ownDir, version), { recursive: true, force: true });
        removeInstallRecords(ctx.pluginsRoot, id, version);
      }
    }
    if (kept.length === 0) {
      await rm(ownDir, { recursive: true, force: true });
      removeInstallRecords(ctx.pluginsRoot, id);
    }
  }
  // Caches go with the plugin, except those of versions another repository still runs.
  const cachesDeleted: string[] = [];
  const cacheTree = pluginCacheTree(id);
  if (kept.length === 0) {
    if (existsSync(cacheTree)) cachesDeleted.push(cacheTree);
    await rm(cacheTree, { recursive: true, force: true });
  } else {
    const keptVersions = new Set(kept.map((k) => k.version));
    for (const version of existsSync(cacheTree) ? readdirSync(cacheTree) : []) {
      if (keptVersions.has(version)) continue;
      cachesDeleted.push(pluginVersionCacheTree(id, version));
      await rm(pluginVersionCacheTree(id, version), { recursive: true, force: true });
    }
  }
  saveLockEntry(ctx, id, undefined);
  return {
    id,
    version: entry.version,
    languages: languages.sort(),
    deleted: inside && kept.length === 0 ? ownDir : undefined,
    kept,
    lockRemoved: locked !== undefined,
    cachesDeleted,
  };
}

/** One registered plugin checked against the tree hash recorded when it was installed. */
export interface VerifyResult {
  id: string;
  version: string;
  dir: string;
  ok: boolean;
  /** What failed: the installed files (Travsr refuses to launch it), or the SBOM kept with it. */
  failed?: 'files' | 'sbom';
  problem?: string;
}

/**
 * Re-hashes every plugin registered in lang.toml (those with a recorded tree hash), and the
 * installed versions `lock` (a repository's) names instead, against the lock's tree hash; and
 * the SBOM kept with each (see install-records.ts) against the hash recorded at install, which
 * must also be the one the repository's lock pins.
 */
export async function verifyInstalled(lock: PluginsLock = {}): Promise<VerifyResult[]> {
  const reg = readLangToml();
  const root = installedPluginsRoot();
  const checks: { id: string; version: string; dir: string; treeHash: string; sbomSha256: string | undefined }[] = [];
  for (const id of Object.keys(reg.plugins).sort()) {
    const p = reg.plugins[id] as PluginEntry;
    if (p.treeHash) checks.push({ id, version: p.version, dir: p.dir, treeHash: p.treeHash, sbomSha256: p.sbomSha256 });
  }
  // The versions this repository's lock runs instead of lang.toml's (see registeredPlugins).
  for (const [id, l] of Object.entries(lock).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (reg.plugins[id]?.version === l.version) continue;
    const dir = installedPluginDir(root, id, l.version);
    if (existsSync(dir)) checks.push({ id, version: l.version, dir, treeHash: l.treeHash, sbomSha256: l.sbomSha256 });
  }
  const out: VerifyResult[] = [];
  for (const c of checks) {
    try {
      await verifyTreeHash(c.dir, c.treeHash);
    } catch (e) {
      out.push({ id: c.id, version: c.version, dir: c.dir, ok: false, failed: 'files', problem: (e as Error).message });
      continue;
    }
    try {
      const pinned = lock[c.id]?.version === c.version ? lock[c.id]?.sbomSha256 : undefined;
      if (pinned !== undefined && c.sbomSha256 !== undefined && pinned !== c.sbomSha256)
        throw new LangError(
          LangErrorCode.InstallRecordInvalid,
          `${c.id}@${c.version} was installed with the SBOM ${c.sbomSha256}, but the repository's lock pins ${pinned}; reinstall it with \`travsr lang install ${c.id}@${c.version}\``,
        );
      const sbom = c.sbomSha256 ?? pinned;
      if (sbom !== undefined) readInstalledSbom(root, c.id, c.version, sbom);
      out.push({ id: c.id, version: c.version, dir: c.dir, ok: true });
    } catch (e) {
      out.push({ id: c.id, version: c.version, dir: c.dir, ok: false, failed: 'sbom', problem: (e as Error).message });
    }
  }
  return out;
}
