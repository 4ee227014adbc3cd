// `travsr lang prune` and plugin caches: a pruned version's caches (constraints.cache) go with
// it; the caches of versions still in use stay. Works in the test's own TRAVSR_HOME.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installRecordPaths, writeInstallRecord, type InstallRecord } from '../../src/catalog/install-records.js';
import { prunePlugins } from '../../src/catalog/prune-plugins.js';
import { installedPluginsRoot } from '../../src/catalog/locked-version.js';
import { writeLangToml } from '../../src/catalog/lang-toml.js';
import { pluginCacheDir, pluginVersionCacheTree } from '../../src/paths/plugin-cache-dir.js';

/** An installed version: its directory with a manifest, and a 1 KiB cache for one repository. */
function installWithCache(id: string, version: string): { dir: string; cache: string } {
  const dir = join(installedPluginsRoot(), id, version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'travsr-plugin.json'), '{}');
  const cache = pluginCacheDir({ id, version }, '/work/some-repo');
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'module.bin'), Buffer.alloc(1024));
  return { dir, cache };
}

const RECORD: InstallRecord = {
  formatVersion: 1,
  id: 'lang-cachey',
  version: '1.0.0',
  registry: 'builtin',
  installedAt: '2026-12-05T10:00:00.000Z',
  platform: 'any',
  sha256: 'a'.repeat(64),
  treeHash: `sha256:${'b'.repeat(64)}`,
};

describe('lang prune and plugin caches', () => {
  it('deletes the caches of the versions it prunes and keeps those of the registered version', () => {
    const old = installWithCache('lang-cachey', '1.0.0');
    const current = installWithCache('lang-cachey', '2.0.0');
    writeLangToml({
      languages: { cachey: { plugin: 'lang-cachey', allowUnsandboxed: false } },
      plugins: { 'lang-cachey': { version: '2.0.0', dir: current.dir, tier: 'standard', networkAllow: [] } },
    });

    const dry = prunePlugins({}, { dryRun: true });
    expect(dry.pruned).toMatchObject([{ id: 'lang-cachey', version: '1.0.0', cache: pluginVersionCacheTree('lang-cachey', '1.0.0') }]);
    expect(dry.pruned[0]?.bytes).toBeGreaterThanOrEqual(1024 + 2);
    expect(existsSync(old.cache)).toBe(true);

    const records = (version: string) => installRecordPaths(installedPluginsRoot(), 'lang-cachey', version);
    for (const version of ['1.0.0', '2.0.0']) writeInstallRecord(installedPluginsRoot(), { ...RECORD, version }, Buffer.from('{}'));
    const done = prunePlugins({});
    expect(done.pruned.map((p) => p.version)).toEqual(['1.0.0']);
    expect(existsSync(old.dir)).toBe(false);
    // Its install record and SBOM go with it; the .records folder is never taken for a plugin.
    expect(existsSync(records('1.0.0').record) || existsSync(records('1.0.0').sbom)).toBe(false);
    expect(existsSync(records('2.0.0').sbom)).toBe(true);
    expect(existsSync(pluginVersionCacheTree('lang-cachey', '1.0.0'))).toBe(false);
    expect(existsSync(current.cache)).toBe(true);
  });

  it('deletes the caches of versions that are not installed and nothing uses (a first-party plugin after an upgrade)', () => {
    // First-party: registered from the repository's own plugins/ folder, never under ~/.travsr/plugins.
    const cacheOf = (version: string) => {
      const dir = pluginCacheDir({ id: 'lang-firstparty', version }, '/work/some-repo');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'module.bin'), Buffer.alloc(2048));
      return dir;
    };
    const older = cacheOf('0.1.0');
    const now = cacheOf('0.2.0');
    const scoped = pluginCacheDir({ id: 'acme/lang-gone', version: '3.0.0' }, '/work/some-repo');
    mkdirSync(scoped, { recursive: true });
    writeFileSync(join(scoped, 'x'), 'x');
    writeLangToml({
      languages: { fp: { plugin: 'lang-firstparty', allowUnsandboxed: false } },
      plugins: { 'lang-firstparty': { version: '0.2.0', dir: '/work/main/plugins/lang-firstparty', tier: 'standard', networkAllow: [] } },
    });
    const r = prunePlugins({});
    expect(r.caches.map((c) => `${c.id}@${c.version}`).sort()).toEqual(['acme/lang-gone@3.0.0', 'lang-firstparty@0.1.0']);
    expect(r.caches.find((c) => c.version === '0.1.0')?.bytes).toBe(2048);
    expect(existsSync(older)).toBe(false);
    expect(existsSync(scoped)).toBe(false);
    expect(existsSync(now)).toBe(true);
  });
});
