import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { travsrHome } from '../paths/travsr-home.js';
import { ConfigError } from './errors.js';

/**
 * Whether a repository's `.travsr/config.toml` may set security keys (see ConfigTrust):
 * `trusted` (the user ran `travsr trust` and the file is byte for byte what was trusted),
 * `changed` (trusted once, edited since: trust is revoked) or `untrusted` (never trusted).
 */
export type RepoTrustState = 'trusted' | 'changed' | 'untrusted';

/** One repository the user trusts: its real path and the sha256 of the config file they reviewed. */
export interface TrustedRepository {
  /** Real path of the repository root (symbolic links resolved). */
  readonly root: string;
  /** sha256 (hex) of `.travsr/config.toml` when it was trusted. */
  readonly configSha256: string;
  /** ISO date of `travsr trust`. */
  readonly trustedAt: string;
}

interface TrustFile {
  version: 1;
  repositories: Record<string, { configSha256: string; trustedAt: string }>;
}

/** `~/.travsr/trusted-repositories.json` (under `$TRAVSR_HOME` when set). Only `travsr trust` (and the user's own `config set`) writes it. */
export function trustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(travsrHome(env), 'trusted-repositories.json');
}

/** sha256 (hex) of a configuration file's bytes. */
export function configSha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The path a repository is recorded under: its real path, so a symbolic link or `..` names the same repository. */
export function trustKey(repoRoot: string): string {
  const abs = resolve(repoRoot);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * Every repository the user trusts, sorted by path.
 * @throws ConfigError `CONFIG_TRUST_INVALID` when the file is not what Travsr writes (nothing is trusted then).
 */
export function listTrustedRepositories(path = trustStorePath()): TrustedRepository[] {
  const file = readTrustFile(path);
  return Object.entries(file.repositories)
    .map(([root, r]) => ({ root, ...r }))
    .sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
}

/**
 * The trust state of `repoRoot` whose config file has the sha256 `sha256`.
 * @throws ConfigError `CONFIG_TRUST_INVALID`
 */
export function repoTrustState(repoRoot: string, sha256: string, path = trustStorePath()): RepoTrustState {
  const entry = readTrustFile(path).repositories[trustKey(repoRoot)];
  if (entry === undefined) return 'untrusted';
  return entry.configSha256 === sha256 ? 'trusted' : 'changed';
}

/**
 * Records that the user trusts `repoRoot` with a config file of sha256 `sha256` (replacing an earlier record).
 * @throws ConfigError `CONFIG_TRUST_INVALID`, `CONFIG_UNWRITABLE`
 */
export function trustRepository(repoRoot: string, sha256: string, path = trustStorePath(), now = new Date()): TrustedRepository {
  const file = readTrustFile(path);
  const root = trustKey(repoRoot);
  file.repositories[root] = { configSha256: sha256, trustedAt: now.toISOString() };
  writeTrustFile(path, file);
  return { root, configSha256: sha256, trustedAt: now.toISOString() };
}

/**
 * Forgets `repoRoot`; true when it was recorded.
 * @throws ConfigError `CONFIG_TRUST_INVALID`, `CONFIG_UNWRITABLE`
 */
export function revokeRepositoryTrust(repoRoot: string, path = trustStorePath()): boolean {
  const file = readTrustFile(path);
  const root = trustKey(repoRoot);
  if (file.repositories[root] === undefined) return false;
  delete file.repositories[root];
  writeTrustFile(path, file);
  return true;
}

function readTrustFile(path: string): TrustFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, repositories: {} };
    throw new ConfigError('CONFIG_UNREADABLE', `cannot read ${path}: ${(e as Error).message}; check its permissions`);
  }
  const bad = (why: string) =>
    new ConfigError(
      'CONFIG_TRUST_INVALID',
      `${path} is not a Travsr trust file (${why}), so no repository's security settings can be honoured; delete it and run \`travsr trust\` again in the repositories you trust`,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad((e as Error).message);
  }
  if (typeof doc !== 'object' || doc === null || (doc as { version?: unknown }).version !== 1) throw bad('no "version": 1');
  const repos = (doc as { repositories?: unknown }).repositories;
  if (typeof repos !== 'object' || repos === null || Array.isArray(repos)) throw bad('"repositories" is not an object');
  const out: TrustFile = { version: 1, repositories: {} };
  for (const [root, r] of Object.entries(repos)) {
    const entry = r as { configSha256?: unknown; trustedAt?: unknown };
    if (typeof entry.configSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.configSha256) || typeof entry.trustedAt !== 'string')
      throw bad(`the entry of ${root} needs "configSha256" (64 hex digits) and "trustedAt"`);
    out.repositories[root] = { configSha256: entry.configSha256, trustedAt: entry.trustedAt };
  }
  return out;
}

/** Atomic (temporary file + rename) and private (0600): the file says which repositories may run code. */
function writeTrustFile(path: string, file: TrustFile): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new ConfigError('CONFIG_UNWRITABLE', `cannot write ${path}: ${(e as Error).message}; check the permissions of ${dirname(path)}`);
  }
}
