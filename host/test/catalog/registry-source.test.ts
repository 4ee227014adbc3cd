// registry.trustedKeys and registry.url: a relative key file or directory is resolved against the directory of the config
// file that set it (<repo>/.travsr/ or the user's TRAVSR_HOME), or the current directory when
// an environment variable set it. Real config files, real key files, the real resolver.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey, writeSigningKey, type SigningKey } from '@travsr/registry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { langErrorOfAsync } from './lang-error.js';
import { configSha256, trustRepository } from '../../src/config/index.js';
import { registrySource } from '../../src/catalog/registry-source.js';

const VARS = ['TRAVSR_HOME', 'TRAVSR_REGISTRY_URL', 'TRAVSR_REGISTRY_TRUSTED_KEYS'] as const;
const saved: Partial<Record<(typeof VARS)[number], string | undefined>> = {};

let root: string;
let home: string;
let repo: string;
/** A directory that is neither the repository nor the home: where the command runs. */
let cwd: string;

beforeEach(() => {
  for (const v of VARS) {
    saved[v] = process.env[v];
    delete process.env[v];
  }
  root = mkdtempSync(join(tmpdir(), 'travsr-trusted-keys-'));
  home = join(root, 'home');
  repo = join(root, 'repo');
  cwd = join(root, 'elsewhere');
  for (const d of [home, join(repo, '.travsr'), cwd]) mkdirSync(d, { recursive: true });
  process.env.TRAVSR_HOME = home;
});

afterEach(() => {
  for (const v of VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
});

/** A new signing key whose public half is `<dir>/<name>.pub`. */
async function keyIn(dir: string, name = 'registry.key'): Promise<SigningKey> {
  mkdirSync(dir, { recursive: true });
  const key = generateSigningKey();
  await writeSigningKey(join(dir, name), key);
  return key;
}

/** Writes a config file; the repository's is trusted as written (these tests are about paths; trust has its own). */
function configFile(path: string, keys: string[], url = 'https://plugins.example.org'): void {
  const text = `[registry]\nurl = "${url}"\ntrustedKeys = [${keys.map((k) => JSON.stringify(k)).join(', ')}]\n`;
  writeFileSync(path, text);
  if (path === join(repo, '.travsr', 'config.toml')) trustRepository(repo, configSha256(text));
}

describe('registry.trustedKeys key files', () => {
  it('set in the repository config: relative to <repo>/.travsr/, not to the current directory', async () => {
    const key = await keyIn(join(repo, '.travsr', 'keys'));
    // The same relative path from the current directory holds another key: it must not be the one trusted.
    const decoy = await keyIn(join(cwd, 'keys'));
    configFile(join(repo, '.travsr', 'config.toml'), ['keys/registry.key.pub']);
    const source = await registrySource(repo, cwd);
    expect(source.name).toBe('https://plugins.example.org');
    expect(source.trustedKeys.get(key.keyId)?.publicKey).toBe(key.publicKey);
    expect(source.trustedKeys.get(decoy.keyId)).toBeUndefined();
  });

  it('set in the repository config: a key beside the repository root (not in .travsr/) is not found, and the error says where it looked and why', async () => {
    await keyIn(join(repo, 'keys'));
    configFile(join(repo, '.travsr', 'config.toml'), ['keys/registry.key.pub']);
    const e = await langErrorOfAsync(registrySource(repo, cwd));
    expect(e.code).toBe('TRUSTED_KEY_INVALID');
    expect(e.message).toContain(`(looked for ${join(repo, '.travsr', 'keys', 'registry.key.pub')}: `);
    expect(e.message).toContain(
      `a relative key file is resolved against the directory of the config file that sets it, here the directory of ${join(repo, '.travsr', 'config.toml')}`,
    );
  });

  it('set in the user config: relative to its directory (TRAVSR_HOME), from any repository and directory', async () => {
    const key = await keyIn(home, 'mirror.key');
    configFile(join(home, 'config.toml'), ['mirror.key.pub']);
    const inRepo = await registrySource(repo, cwd);
    expect(inRepo.trustedKeys.get(key.keyId)?.publicKey).toBe(key.publicKey);
    const outside = await registrySource(undefined, cwd);
    expect(outside.trustedKeys.get(key.keyId)?.publicKey).toBe(key.publicKey);
  });

  it('a repository value replaces the user one and is resolved against the repository, not the user directory', async () => {
    await keyIn(home, 'user.key');
    const repoKey = await keyIn(join(repo, '.travsr'), 'user.key');
    configFile(join(home, 'config.toml'), ['user.key.pub']);
    configFile(join(repo, '.travsr', 'config.toml'), ['user.key.pub']);
    const source = await registrySource(repo, cwd);
    expect(source.trustedKeys.get(repoKey.keyId)?.publicKey).toBe(repoKey.publicKey);
  });

  it('set by TRAVSR_REGISTRY_TRUSTED_KEYS (no file): relative to the current directory', async () => {
    const key = await keyIn(join(cwd, 'keys'));
    await keyIn(join(repo, '.travsr', 'keys')); // same name where a repository value would look
    process.env.TRAVSR_REGISTRY_URL = 'https://plugins.example.org';
    process.env.TRAVSR_REGISTRY_TRUSTED_KEYS = 'keys/registry.key.pub';
    const source = await registrySource(repo, cwd);
    expect(source.trustedKeys.get(key.keyId)?.publicKey).toBe(key.publicKey);

    const e = await langErrorOfAsync(registrySource(repo, repo));
    expect(e.code).toBe('TRUSTED_KEY_INVALID');
    expect(e.message).toContain(`looked for ${join(repo, 'keys', 'registry.key.pub')}`);
    expect(e.message).toContain('here the current directory (set by TRAVSR_REGISTRY_TRUSTED_KEYS, not by a file)');
  });

  it('absolute key files and inline keys do not depend on where they were set', async () => {
    const file = await keyIn(join(root, 'abs'));
    const inline = generateSigningKey();
    configFile(join(repo, '.travsr', 'config.toml'), [join(root, 'abs', 'registry.key.pub'), `ed25519:${inline.publicKey}`]);
    const source = await registrySource(repo, cwd);
    expect(source.trustedKeys.get(file.keyId)?.publicKey).toBe(file.publicKey);
    expect(source.trustedKeys.get(inline.keyId)?.publicKey).toBe(inline.publicKey);
  });
});

describe('registry.url', () => {
  it('a relative directory is resolved like a key file: against the directory of the config file that sets it', async () => {
    configFile(join(repo, '.travsr', 'config.toml'), [], '../mirror');
    expect((await registrySource(repo, cwd)).location).toBe(join(repo, 'mirror'));
    configFile(join(home, 'config.toml'), [], 'mirror');
    expect((await registrySource(undefined, cwd)).location).toBe(join(home, 'mirror'));
    process.env.TRAVSR_REGISTRY_URL = 'mirror';
    expect((await registrySource(undefined, cwd)).location).toBe(join(cwd, 'mirror'));
  });

  it('URLs and absolute directories are used as they are, and the name is what was configured', async () => {
    for (const url of ['https://plugins.example.org/travsr', 'file:///srv/registry', join(root, 'abs-mirror')]) {
      configFile(join(repo, '.travsr', 'config.toml'), [], url);
      const source = await registrySource(repo, cwd);
      expect([source.name, source.location]).toEqual([url, url]);
    }
    configFile(join(repo, '.travsr', 'config.toml'), [], 'mirror');
    expect((await registrySource(repo, cwd)).name).toBe('mirror');
  });
});

describe('the repository trust', () => {
  it("an untrusted repository file names no registry: the user's (here the built-in one) is used; trusted, it is the repository's", async () => {
    await keyIn(join(repo, '.travsr', 'keys'));
    const file = join(repo, '.travsr', 'config.toml');
    writeFileSync(file, '[registry]\nurl = "https://evil.example"\ntrustedKeys = ["keys/registry.key.pub"]\n');
    const untrusted = await registrySource(repo, cwd);
    expect([untrusted.name, untrusted.scope]).toEqual(['builtin', 'user']);
    configFile(file, ['keys/registry.key.pub'], 'https://evil.example');
    const trusted = await registrySource(repo, cwd);
    expect([trusted.name, trusted.scope]).toEqual(['https://evil.example', 'repository']);
    // The user's own registry stays the user's, even inside a trusted repository.
    writeFileSync(file, '[index]\nworkers = 1\n');
    configFile(join(home, 'config.toml'), [], 'https://mine.example');
    expect((await registrySource(repo, cwd)).scope).toBe('user');
  });
});
