// A registry named by a trusted repository's own config: what it installs is recorded in the
// repository's lock only (never in the lang.toml every repository shares), and it may add
// versions under <TRAVSR_HOME>/plugins but never replace files already installed there.
// Real packed plugins, real signed directory registries, the real installer.
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generateSigningKey,
  installArtifact,
  packPlugin,
  publishArtifact,
  treeHash,
  writeSigningKey,
  type PackResult,
} from '@travsr/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSha256, trustRepository } from '../../src/config/index.js';
import { installFromRegistry, langContext, withRegistry } from '../../src/catalog/install-plugin.js';
import { installedPluginDir } from '../../src/catalog/locked-version.js';
import { pluginsLockPath, readPluginsLock } from '../../src/catalog/plugins-lock.js';
import { langTomlPath } from '../../src/catalog/lang-toml.js';
import { langErrorOfAsync } from './lang-error.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../../plugins/example-lua');

let work: string;
let savedHome: string | undefined;
let original: PackResult;

/** example-lua at `version`, its bundle changed by `marker` when given (another tree hash). */
async function variant(name: string, version: string, marker?: string): Promise<PackResult> {
  const dir = join(work, name);
  cpSync(EXAMPLE_LUA, dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  const manifest = join(dir, 'travsr-plugin.json');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"version": "0.1.0"', `"version": "${version}"`));
  if (marker) appendFileSync(join(dir, 'dist', 'main.js'), `\n// ${marker}\n`);
  return packPlugin(dir, join(work, 'out', name));
}

/** A repository whose trusted config names a registry directory inside it, signed by its own key. */
async function repoWithRegistry(name: string, artifacts: PackResult[]): Promise<string> {
  const repo = join(work, name);
  mkdirSync(join(repo, '.travsr'), { recursive: true });
  const key = generateSigningKey();
  await writeSigningKey(join(repo, '.travsr', 'repo.key'), key);
  for (const a of artifacts) await publishArtifact(join(repo, '.travsr', 'registry'), a.file, key);
  const text = '[registry]\nurl = "registry"\ntrustedKeys = ["repo.key.pub"]\n';
  writeFileSync(join(repo, '.travsr', 'config.toml'), text);
  trustRepository(repo, configSha256(text));
  return repo;
}

beforeAll(async () => {
  savedHome = process.env.TRAVSR_HOME;
  work = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-repo-registry-')));
  process.env.TRAVSR_HOME = join(work, 'home');
  original = await variant('original', '0.1.0');
});

afterAll(() => {
  if (savedHome === undefined) delete process.env.TRAVSR_HOME;
  else process.env.TRAVSR_HOME = savedHome;
});

describe("a trusted repository's own registry", () => {
  it('installs into the shared plugins directory and the lock, and leaves lang.toml alone', async () => {
    const repo = await repoWithRegistry('adds', [await variant('newer', '0.2.0')]);
    const ctx = await langContext(repo, false);
    const r = await withRegistry(ctx, (source, client) => installFromRegistry(ctx, source, client, 'lua', undefined, 'install'));
    expect(r).toMatchObject({ id: 'example-lua', version: '0.2.0', scope: 'repository', registry: 'registry' });
    expect(readPluginsLock(pluginsLockPath(repo))['example-lua']).toMatchObject({ version: '0.2.0', registry: 'registry' });
    expect(existsSync(join(installedPluginDir(ctx.pluginsRoot, 'example-lua', '0.2.0'), 'travsr-plugin.json'))).toBe(true);
    expect(existsSync(langTomlPath())).toBe(false);
  });

  it('offering other files for a version already installed is REPOSITORY_REGISTRY_CONFLICT, and nothing changes', async () => {
    const pluginsRoot = join(work, 'home', 'plugins');
    const dir = installedPluginDir(pluginsRoot, 'example-lua', '0.1.0');
    await installArtifact(original.file, dir, {
      sha256: original.sha256,
      size: original.size,
      treeHash: original.treeHash,
      id: 'example-lua',
      version: '0.1.0',
    });
    const repo = await repoWithRegistry('replaces', [await variant('impostor', '0.1.0', 'not the published plugin')]);
    const ctx = await langContext(repo, false);
    const e = await langErrorOfAsync(
      withRegistry(ctx, (source, client) => installFromRegistry(ctx, source, client, 'example-lua', undefined, 'install')),
    );
    expect(e.code).toBe('REPOSITORY_REGISTRY_CONFLICT');
    expect(e.message).toContain(`${dir} already holds other files (tree hash ${original.treeHash})`);
    expect(e.message).toContain('nothing was installed');
    expect(await treeHash(dir)).toBe(original.treeHash);
    expect(existsSync(pluginsLockPath(repo))).toBe(false);
  });
});
