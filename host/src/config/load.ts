import { readFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoTravsrDir, travsrHome } from '../paths/travsr-home.js';
import { ConfigError } from './errors.js';
import { configSha256, repoTrustState, trustStorePath, type RepoTrustState } from './repo-trust.js';
import { resolveConfig, type ConfigFileText, type ConfigSource, type ConfigValue, type ResolvedConfig } from './resolve.js';
import { isConfigKey, type ConfigKey } from './schema.js';

/** `<repo>/.travsr/config.toml` */
export function repoConfigPath(repoRoot: string): string {
  return join(repoTravsrDir(resolve(repoRoot)), 'config.toml');
}

/** `~/.travsr/config.toml` (under `$TRAVSR_HOME` when set). */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(travsrHome(env), 'config.toml');
}

/** A configuration file as read, with the sha256 of its bytes (what `travsr trust` records). */
export interface ConfigFileRead extends ConfigFileText {
  readonly sha256: string;
}

/** Reads a configuration file; a missing file is `undefined`, any other read failure a ConfigError `CONFIG_UNREADABLE`. */
export function readConfigFile(path: string): ConfigFileRead | undefined {
  try {
    const bytes = readFileSync(path);
    return { path, text: bytes.toString('utf8'), sha256: configSha256(bytes) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError('CONFIG_UNREADABLE', `cannot read ${path}: ${(e as Error).message}; check its permissions or remove it`);
  }
}

/** What loadConfig reads. */
export interface LoadConfigOptions {
  /** The repository whose `.travsr/config.toml` is read; without it only the user file counts. */
  readonly repoRoot?: string | undefined;
  /** Values of command-line flags, by key (see ConfigInputs.flags). */
  readonly flags?: Readonly<Partial<Record<ConfigKey, unknown>>> | undefined;
  /** Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Default: `process.cwd()`. */
  readonly cwd?: string | undefined;
}

/** A resolved configuration and the files it was read from (whether or not they exist). */
export interface LoadedConfig extends ResolvedConfig {
  readonly files: { readonly repo?: string; readonly user: string };
  /** Whether the repository file's security keys count; undefined when there is no repository file. */
  readonly repoTrust?: RepoTrustState;
}

/**
 * Reads the repository and user configuration files (a missing file counts as empty) and resolves
 * them with `resolveConfig`; the repository file's security keys count only when the user trusts
 * it as it is now (`travsr trust`, recorded in trustStorePath()).
 */
export function loadConfig(opts: LoadConfigOptions = {}): LoadedConfig {
  const env = opts.env ?? process.env;
  const userPath = userConfigPath(env);
  const repoPath = opts.repoRoot === undefined ? undefined : repoConfigPath(opts.repoRoot);
  // When the repository is the home directory both paths are one file: it counts once, as the user's.
  const repoFile = repoPath === undefined || repoPath === userPath ? undefined : readConfigFile(repoPath);
  const repoTrust =
    repoFile && opts.repoRoot !== undefined ? repoTrustState(opts.repoRoot, repoFile.sha256, trustStorePath(env)) : undefined;
  const resolved = resolveConfig({
    flags: opts.flags,
    env,
    repoFile,
    repoTrust,
    userFile: readConfigFile(userPath),
    machine: { availableParallelism: availableParallelism() },
    cwd: opts.cwd ?? process.cwd(),
    home: homedir(),
  });
  return {
    ...resolved,
    files: repoPath === undefined ? { user: userPath } : { repo: repoPath, user: userPath },
    ...(repoTrust === undefined ? {} : { repoTrust }),
  };
}

const RANK: Record<ConfigSource, number> = { flag: 4, env: 3, repo: 2, user: 1, default: 0 };

/**
 * The effective value of `key` (a schema key, or an entry `plugins.prefer.<language>` of one) when it
 * comes from a layer above `layer` — what hides a value just written to that layer's file — or undefined.
 * A configuration that cannot be loaded (another file is broken) also gives undefined: whoever reads it next reports that.
 */
export function shadowingValue(key: string, layer: 'repo' | 'user', opts: LoadConfigOptions = {}): ConfigValue<unknown> | undefined {
  const base = isConfigKey(key) ? key : key.slice(0, Math.max(0, key.lastIndexOf('.')));
  if (!isConfigKey(base)) return undefined;
  let v: ConfigValue<unknown>;
  try {
    v = loadConfig(opts).values[base];
  } catch {
    return undefined;
  }
  return RANK[v.source] > RANK[layer] ? v : undefined;
}
