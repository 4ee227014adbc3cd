import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { keyIdOf, publicKeyObject, readTrustedKeyFile, RegistryClient, TrustedKeys } from '@travsr/registry';
import { loadConfig, type LoadedConfig } from '../config/index.js';
import { travsrHome } from '../paths/travsr-home.js';
import { LangError, LangErrorCode } from './errors.js';
import { hostPackagePath } from '../paths/host-package.js';

/** What the lock file records as the registry of a plugin installed from the built-in registry. */
export const BUILTIN_REGISTRY = 'builtin';
/** File of the built-in registry's public key, inside the registry directory (outside its signed layout). */
export const BUILTIN_KEY_FILE = 'builtin-key.pub';

/** The registry `travsr lang` reads, and the keys it trusts. */
export interface RegistrySource {
  /** `builtin`, or `registry.url` as configured. */
  readonly name: string;
  /** URL or directory the client opens. */
  readonly location: string;
  readonly trustedKeys: TrustedKeys;
  /**
   * `repository` when `registry.url` or `registry.trustedKeys` comes from the repository's own
   * (trusted) config file: what it installs is this repository's business, never lang.toml's.
   */
  readonly scope: 'user' | 'repository';
  /** `registry.deadline` in milliseconds: the overall limit of one document (downloads add time for their size). */
  readonly deadlineMs?: number;
}

/** `~/.travsr/registry-snapshots.json`: the newest signed snapshot seen per registry (rollback protection). */
export function snapshotHistoryFile(): string {
  return join(travsrHome(), 'registry-snapshots.json');
}

/** `host/builtin-registry/`, written by `scripts/build-builtin-registry.mjs` at build time. */
export function builtinRegistryDir(): string {
  return hostPackagePath('builtin-registry');
}

/** The built-in registry's key; always trusted, whatever `registry.url` is. */
async function addBuiltinKey(trusted: TrustedKeys): Promise<boolean> {
  const file = join(builtinRegistryDir(), BUILTIN_KEY_FILE);
  if (!existsSync(file)) return false;
  trusted.add(await readTrustedKeyFile(file), file);
  return true;
}

/**
 * The directory a relative path in a `registry.*` value (a `registry.trustedKeys` key file, a
 * `registry.url` directory) is resolved against: the directory of the configuration file that
 * set the value (`<repo>/.travsr/` for the repository's `.travsr/config.toml`, the user file's
 * directory for `~/.travsr/config.toml`), or `cwd` when no file set it (an environment
 * variable, a flag).
 */
function configFileBase(config: LoadedConfig, key: 'registry.trustedKeys' | 'registry.url', cwd: string): { dir: string; from: string } {
  const v = config.values[key];
  switch (v.source) {
    case 'repo':
      if (config.files.repo !== undefined) return { dir: dirname(config.files.repo), from: `the directory of ${config.files.repo}` };
      break;
    case 'user':
      return { dir: dirname(config.files.user), from: `the directory of ${config.files.user}` };
    case 'env':
    case 'flag':
    case 'default':
      break;
  }
  return { dir: cwd, from: `the current directory (set by ${v.origin ?? v.source}, not by a file)` };
}

/** A `registry.url` that is a directory path: absolute, resolved against the directory of the config file that set it. URLs are left as they are. */
function registryLocation(url: string, config: LoadedConfig, cwd: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || isAbsolute(url)) return url;
  return resolve(configFileBase(config, 'registry.url', cwd).dir, url);
}

/** A `registry.trustedKeys` entry: an inline `ed25519:<base64>` key, or a key file (a relative one under `base`, see configFileBase). */
async function trustedKeyEntry(entry: string, base: { dir: string; from: string }) {
  const inline = /^ed25519:([A-Za-z0-9+/]{43}=)$/.exec(entry);
  if (inline?.[1]) {
    try {
      publicKeyObject(inline[1]);
    } catch (e) {
      throw new LangError(LangErrorCode.TrustedKeyInvalid, `registry.trustedKeys: ${(e as Error).message}`);
    }
    return { keyId: keyIdOf(inline[1]), publicKey: inline[1] };
  }
  const file = isAbsolute(entry) ? entry : resolve(base.dir, entry);
  if (!existsSync(file))
    throw new LangError(
      LangErrorCode.TrustedKeyInvalid,
      `registry.trustedKeys: "${entry}" is neither an inline key (ed25519:<base64 of 32 bytes>) nor an existing key file (looked for ${file}${isAbsolute(entry) ? '' : `: a relative key file is resolved against the directory of the config file that sets it, here ${base.from}`}); fix it with \`travsr config set registry.trustedKeys …\` (an absolute path is safest)`,
    );
  return readTrustedKeyFile(file);
}

/**
 * The registry of a repository's configuration (`registry.url`, `registry.trustedKeys`),
 * or the built-in one when `registry.url` is empty. The repository's own file names a registry
 * only when the user trusts it (`travsr trust`; see loadConfig), and then `scope` is `repository`.
 *
 * A relative key file in `registry.trustedKeys`, and a relative directory in `registry.url`, is
 * resolved against the directory of the configuration file that set it: `<repo>/.travsr/` for
 * the repository's `.travsr/config.toml`, the user file's directory (`~/.travsr/`, or
 * `$TRAVSR_HOME`) for the user's; against `cwd` when it was set by an environment variable or
 * a flag.
 *
 * @throws LangError `BUILTIN_REGISTRY_MISSING`, `TRUSTED_KEY_INVALID`
 */
export async function registrySource(repoRoot: string | undefined, cwd = process.cwd()): Promise<RegistrySource> {
  const config = loadConfig({ repoRoot, cwd });
  const url = config.values['registry.url'].value.trim();
  if (url === '') return builtinRegistrySource(config);
  const trusted = new TrustedKeys();
  await addBuiltinKey(trusted);
  const base = configFileBase(config, 'registry.trustedKeys', cwd);
  for (const entry of config.values['registry.trustedKeys'].value) trusted.add(await trustedKeyEntry(entry, base), 'registry.trustedKeys');
  const fromRepo = config.values['registry.url'].source === 'repo' || config.values['registry.trustedKeys'].source === 'repo';
  return {
    name: url,
    location: registryLocation(url, config, cwd),
    trustedKeys: trusted,
    scope: fromRepo ? 'repository' : 'user',
    deadlineMs: deadlineMsOf(config),
  };
}

/**
 * The registry that ships with this installation (`host/builtin-registry/`, signed by the key
 * beside it), whatever `registry.url` says: where `travsr init` takes the first-party plugins
 * from in an installed package, and what `travsr lang` reads when no registry is configured.
 *
 * @throws LangError `BUILTIN_REGISTRY_MISSING`
 */
export async function builtinRegistrySource(config: LoadedConfig = loadConfig({})): Promise<RegistrySource> {
  const trusted = new TrustedKeys();
  const dir = builtinRegistryDir();
  if (!(await addBuiltinKey(trusted)) || !existsSync(join(dir, 'SHA256SUMS')))
    throw new LangError(
      LangErrorCode.BuiltinRegistryMissing,
      `this Travsr has no built-in plugin registry (${dir} is missing): build it with \`npm run build\` in a checkout, reinstall the travsr package, or set a registry with \`travsr config set registry.url <url>\``,
    );
  return { name: BUILTIN_REGISTRY, location: dir, trustedKeys: trusted, scope: 'user', deadlineMs: deadlineMsOf(config) };
}

function deadlineMsOf(config: LoadedConfig): number {
  return config.values['registry.deadline'].value * 1000;
}

/** A client of `source`; close it when done. */
export function registryClient(source: RegistrySource): RegistryClient {
  return new RegistryClient({
    url: source.location,
    trustedKeys: source.trustedKeys,
    retries: 1,
    ...(source.deadlineMs === undefined ? {} : { timeouts: { deadlineMs: source.deadlineMs } }),
    // The built-in registry goes back with Travsr itself when the user downgrades; that is no attack.
    ...(source.name === BUILTIN_REGISTRY ? {} : { snapshotHistory: snapshotHistoryFile() }),
  });
}
