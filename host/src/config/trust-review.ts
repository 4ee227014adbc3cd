import { homedir } from 'node:os';
import { repoConfigPath, readConfigFile } from './load.js';
import { repoTrustState, trustKey, trustRepository, trustStorePath, type RepoTrustState } from './repo-trust.js';
import { resolveConfig, type ConfigWarning } from './resolve.js';
import type { ConfigKey } from './schema.js';

/** A security key a repository's config file sets, as `travsr trust` shows it before enabling it. */
export interface SecurityKeySetting {
  readonly key: ConfigKey;
  readonly value: unknown;
  /** `path:line` */
  readonly origin: string;
}

/** What trusting a repository would enable: its config file, the file's hash, and the security keys in it. */
export interface RepoConfigReview {
  /** Real path of the repository root (what the trust store records). */
  readonly root: string;
  readonly file: string;
  /** False when the repository has no `.travsr/config.toml` (nothing to trust). */
  readonly exists: boolean;
  /** sha256 of the file's bytes; undefined when it does not exist. */
  readonly sha256?: string;
  /** The security keys it sets, in file order (relative directories already resolved). */
  readonly securityKeys: readonly SecurityKeySetting[];
  /** Unknown keys in the file. */
  readonly warnings: readonly ConfigWarning[];
  /** The trust recorded for the file as it is now. */
  readonly state: RepoTrustState;
}

/**
 * Reads `<repoRoot>/.travsr/config.toml` and lists the security keys it sets, validated as
 * configuration is (a broken file is an error, not trusted).
 * @throws ConfigError `CONFIG_INVALID`, `CONFIG_UNREADABLE`, `CONFIG_TRUST_INVALID`
 */
export function reviewRepoConfig(repoRoot: string, env: NodeJS.ProcessEnv = process.env): RepoConfigReview {
  const root = trustKey(repoRoot);
  const file = repoConfigPath(root);
  const read = readConfigFile(file);
  if (read === undefined) return { root, file, exists: false, securityKeys: [], warnings: [], state: 'untrusted' };
  // Resolved as untrusted: exactly the security keys land in `ignored`, with their values and lines.
  const resolved = resolveConfig({ repoFile: read, repoTrust: 'untrusted', env: {}, home: homedir() });
  return {
    root,
    file,
    exists: true,
    sha256: read.sha256,
    securityKeys: resolved.ignored.map((i) => ({ key: i.key, value: i.value, origin: i.origin })),
    warnings: resolved.warnings,
    state: repoTrustState(root, read.sha256, trustStorePath(env)),
  };
}

/** What {@link keepTrustAfterOwnEdit} did. */
export type OwnEditTrust =
  /** The file was trusted, or held no security key, so the user's own edit is trusted as written. */
  | { readonly kind: 'trusted'; readonly securityKeys: readonly SecurityKeySetting[] }
  /** The file holds security keys the user never trusted: they stay ignored until `travsr trust`. */
  | { readonly kind: 'untrusted'; readonly securityKeys: readonly SecurityKeySetting[] }
  | { readonly kind: 'none' };

/**
 * After `travsr config set/unset` changed a repository's file: an edit revokes trust (the hash
 * changes), but this one is the user's own, so when nothing untrusted was in the file before
 * (it was trusted, or it set no security key) the new file is trusted as written. A file that
 * already held security keys the user never trusted stays untrusted: the edit must not launder them.
 * @param before the review of the file before the edit
 */
export function keepTrustAfterOwnEdit(before: RepoConfigReview | undefined, env: NodeJS.ProcessEnv = process.env): OwnEditTrust {
  const after = before && reviewIfValid(before.root, env);
  if (!before || !after?.exists || after.sha256 === undefined) return { kind: 'none' };
  if (before.state === 'trusted' || before.securityKeys.length === 0) {
    if (before.state === 'trusted' || after.securityKeys.length > 0) trustRepository(after.root, after.sha256, trustStorePath(env));
    return after.securityKeys.length > 0 ? { kind: 'trusted', securityKeys: after.securityKeys } : { kind: 'none' };
  }
  return { kind: 'untrusted', securityKeys: after.securityKeys };
}

/** The note `config set/unset` prints after editing a repository's file, or undefined when there is nothing to say. */
export function ownEditTrustNote(t: OwnEditTrust, path: string): string | undefined {
  if (t.kind !== 'untrusted') return undefined;
  return `note: ${path} holds security keys you have not trusted (${t.securityKeys.map((k) => k.key).join(', ')}); they are ignored until you review the file and run \`travsr trust\``;
}

/** reviewRepoConfig, or undefined when the file or the trust store is broken (`config set` may be what fixes it). */
export function reviewIfValid(repoRoot: string, env: NodeJS.ProcessEnv = process.env): RepoConfigReview | undefined {
  try {
    return reviewRepoConfig(repoRoot, env);
  } catch {
    return undefined;
  }
}
