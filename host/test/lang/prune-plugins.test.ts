// `travsr lang prune` and plugin caches: a pruned version's caches (constraints.cache) go with
// it; the caches of versions still in use stay. Works in the test's own TRAVSR_HOME.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prunePlugins } from '../../src/lang/prune-plugins.js';
import { installedPluginsRoot } from '../../src/lang/locked-version.js';
import { writeLangToml } from '../../src/plugins/lang-toml.js';
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

    const done = prunePlugins({});
    expect(done.pruned.map((p) => p.version)).toEqual(['1.0.0']);
    expect(existsSync(old.dir)).toBe(false);
    expect(existsSync(pluginVersionCacheTree('lang-cachey', '1.0.0'))).toBe(false);
    expect(existsSync(current.cache)).toBe(true);
  });
});
