// The trust store (~/.travsr/trusted-repositories.json) and what trusting a repository shows:
// real files in a temporary TRAVSR_HOME, real repository directories.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configSha256,
  keepTrustAfterOwnEdit,
  listTrustedRepositories,
  loadConfig,
  repoTrustState,
  reviewRepoConfig,
  revokeRepositoryTrust,
  trustRepository,
  trustStorePath,
  type ConfigError,
} from '../../src/config/index.js';

let root: string;
let repo: string;
let file: string;
let savedHome: string | undefined;

beforeEach(() => {
  savedHome = process.env.TRAVSR_HOME;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-trust-')));
  process.env.TRAVSR_HOME = join(root, 'home');
  repo = join(root, 'repo');
  file = join(repo, '.travsr', 'config.toml');
  mkdirSync(join(repo, '.travsr'), { recursive: true });
});

afterEach(() => {
  if (savedHome === undefined) delete process.env.TRAVSR_HOME;
  else process.env.TRAVSR_HOME = savedHome;
});

describe('trust store', () => {
  it('records the real path and the hash, privately; the same bytes are trusted, other bytes are "changed"', () => {
    const text = '[sandbox]\ntier = "elevated"\n';
    expect(repoTrustState(repo, configSha256(text))).toBe('untrusted');
    symlinkSync(repo, join(root, 'link'));
    trustRepository(join(root, 'link'), configSha256(text));
    expect(listTrustedRepositories().map((r) => r.root)).toEqual([repo]);
    expect(statSync(trustStorePath()).mode & 0o777).toBe(0o600);
    expect(repoTrustState(repo, configSha256(text))).toBe('trusted');
    expect(repoTrustState(repo, configSha256(`${text}# edited\n`))).toBe('changed');
    expect(revokeRepositoryTrust(repo)).toBe(true);
    expect(revokeRepositoryTrust(repo)).toBe(false);
    expect(repoTrustState(repo, configSha256(text))).toBe('untrusted');
  });

  it('a store that is not what Travsr writes is CONFIG_TRUST_INVALID, naming the file and what to do', () => {
    mkdirSync(join(root, 'home'), { recursive: true });
    writeFileSync(trustStorePath(), '{"version": 1, "repositories": {"/r": {"configSha256": "abc"}}}');
    let error: ConfigError | undefined;
    try {
      repoTrustState(repo, configSha256(''));
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error?.code).toBe('CONFIG_TRUST_INVALID');
    expect(error?.message).toContain(`${trustStorePath()} is not a Travsr trust file`);
    expect(error?.message).toContain('delete it and run `travsr trust` again');
  });
});

describe('loadConfig and the trust', () => {
  it('counts the security keys of the repository file only while it is byte for byte what was trusted', () => {
    writeFileSync(file, '[index]\nworkers = 2\n[sandbox]\ntier = "elevated"\n');
    let cfg = loadConfig({ repoRoot: repo });
    expect([cfg.repoTrust, cfg.values['sandbox.tier'].source, cfg.values['index.workers'].source]).toEqual([
      'untrusted',
      'default',
      'repo',
    ]);
    expect(cfg.ignored.map((i) => i.origin)).toEqual([`${file}:4`]);
    trustRepository(repo, configSha256(readFileSync(file)));
    cfg = loadConfig({ repoRoot: repo });
    expect([cfg.repoTrust, cfg.values['sandbox.tier'].value]).toEqual(['trusted', 'elevated']);
    writeFileSync(file, '[index]\nworkers = 2\n[sandbox]\ntier = "elevated" \n');
    cfg = loadConfig({ repoRoot: repo });
    expect([cfg.repoTrust, cfg.values['sandbox.tier'].value, cfg.ignored[0]?.reason]).toEqual(['changed', 'standard', 'changed']);
  });
});

describe('reviewRepoConfig and keepTrustAfterOwnEdit', () => {
  it('lists the security keys with their values and lines', () => {
    writeFileSync(file, 'corpus = "x"\n[plugins]\ndirs = ["p"]\n[registry]\ntrustedKeys = ["k.pub"]\n');
    const review = reviewRepoConfig(repo);
    expect(review).toMatchObject({ root: repo, file, exists: true, state: 'untrusted', sha256: configSha256(readFileSync(file)) });
    expect(review.securityKeys).toEqual([
      { key: 'plugins.dirs', value: [join(repo, 'p')], origin: `${file}:3` },
      { key: 'registry.trustedKeys', value: ['k.pub'], origin: `${file}:5` },
    ]);
    expect(reviewRepoConfig(join(root, 'none'))).toMatchObject({ exists: false, securityKeys: [] });
  });

  it("the user's own edit of a file without untrusted keys is trusted as written; one that holds untrusted keys is not laundered", () => {
    writeFileSync(file, '[index]\nworkers = 2\n');
    let before = reviewRepoConfig(repo);
    writeFileSync(file, '[index]\nworkers = 2\n[sandbox]\ntier = "elevated"\n');
    expect(keepTrustAfterOwnEdit(before).kind).toBe('trusted');
    expect(loadConfig({ repoRoot: repo }).values['sandbox.tier'].value).toBe('elevated');

    revokeRepositoryTrust(repo);
    before = reviewRepoConfig(repo);
    writeFileSync(file, '[index]\nworkers = 3\n[sandbox]\ntier = "elevated"\n');
    expect(keepTrustAfterOwnEdit(before)).toMatchObject({ kind: 'untrusted', securityKeys: [{ key: 'sandbox.tier' }] });
    expect(loadConfig({ repoRoot: repo }).values['sandbox.tier'].value).toBe('standard');
  });
});
