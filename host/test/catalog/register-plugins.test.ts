// `travsr init` registers the first-party plugins of this installation in lang.toml. After an
// update rebuilt them (same version, same directory, new files) it must record them again, or
// every index run refuses them as tampered; a language whose plugin no longer serves it (Go
// moved from lang-structural to lang-go, Python to lang-python) is mapped to the one that does,
// and until `travsr init` runs the index says so instead of dropping the language silently.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeHash } from '@travsr/registry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registeredPlugins, registerPlugins } from '../../src/catalog/registered-plugins.js';
import { readLangToml, writeLangToml } from '../../src/catalog/lang-toml.js';
import { loadPluginDir } from '../../src/plugins/plugin-dir.js';

let work: string;
let savedHome: string | undefined;

function pluginDir(id: string, languages: string[], extensions: string[]): string {
  const dir = join(work, 'plugins', id);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  const manifest = {
    id,
    version: '0.1.0',
    languages,
    extensions,
    entrypoint: { runtime: 'node', path: 'dist/main.js' },
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false },
  };
  writeFileSync(join(dir, 'travsr-plugin.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'dist', 'main.js'), '// v1\n');
  return dir;
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'register-plugins-'));
  savedHome = process.env.TRAVSR_HOME;
  process.env.TRAVSR_HOME = join(work, 'home');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.TRAVSR_HOME;
  else process.env.TRAVSR_HOME = savedHome;
  rmSync(work, { recursive: true, force: true });
});

describe('registerPlugins', () => {
  it('records a rebuilt first-party plugin again with its new tree hash, keeping the grant', async () => {
    const dir = pluginDir('lang-x', ['x'], ['.x']);
    await registerPlugins([await loadPluginDir(dir)], ['x']);
    const first = readLangToml();
    expect(first.plugins['lang-x']?.treeHash).toBe(await treeHash(dir));
    writeLangToml({ ...first, plugins: { 'lang-x': { ...first.plugins['lang-x']!, tier: 'native-ipc' } } });

    appendFileSync(join(dir, 'dist', 'main.js'), '// rebuilt\n');
    await registerPlugins([await loadPluginDir(dir)], ['x']);
    const again = readLangToml().plugins['lang-x']!;
    expect(again.treeHash).toBe(await treeHash(dir));
    expect(again.treeHash).not.toBe(first.plugins['lang-x']?.treeHash);
    expect(again.tier).toBe('native-ipc');
  });

  it('moves a language to the plugin that serves it when its mapped plugin no longer does', async () => {
    const structural = pluginDir('lang-structural', ['python', 'go'], ['.py', '.go']);
    await registerPlugins([await loadPluginDir(structural)], ['python', 'go']);
    expect(readLangToml().languages['go']?.plugin).toBe('lang-structural');

    // The update: Go leaves lang-structural for lang-go.
    writeFileSync(
      join(structural, 'travsr-plugin.json'),
      JSON.stringify({ ...(await loadPluginDir(structural)).manifest, languages: ['python'], extensions: ['.py'] }),
    );
    const go = pluginDir('lang-go', ['go'], ['.go']);
    const added = await registerPlugins([await loadPluginDir(structural), await loadPluginDir(go)], ['python', 'go']);
    expect(added).toEqual([{ language: 'go', plugin: 'lang-go' }]);
    const reg = readLangToml();
    expect(reg.languages['go']?.plugin).toBe('lang-go');
    expect(reg.languages['python']?.plugin).toBe('lang-structural');
  });

  it('says, until init runs, that a language left its plugin and how to map it again', async () => {
    const structural = pluginDir('lang-structural', ['python', 'ruby'], ['.py', '.rb']);
    await registerPlugins([await loadPluginDir(structural)], ['python', 'ruby']);
    const repoRoot = join(work, 'repo');
    mkdirSync(repoRoot);
    expect((await registeredPlugins([], { repoRoot })).problems).toEqual([]);

    // The update: Python leaves lang-structural for lang-python; lang.toml still maps it there.
    writeFileSync(
      join(structural, 'travsr-plugin.json'),
      JSON.stringify({ ...(await loadPluginDir(structural)).manifest, languages: ['ruby'], extensions: ['.rb'] }),
    );
    const before = await registeredPlugins([], { repoRoot });
    expect(before.plugins.map((p) => p.plugin.manifest.id)).toEqual(['lang-structural']);
    expect(before.problems).toHaveLength(1);
    expect(before.problems[0]).toMatch(
      /^\[LANGUAGE_NOT_SERVED\] lang\.toml maps python to lang-structural@0\.1\.0, which no longer serves python/,
    );
    expect(before.problems[0]).toContain(`run \`travsr init ${repoRoot}\``);

    const python = pluginDir('lang-python', ['python'], ['.py', '.pyi']);
    const added = await registerPlugins([await loadPluginDir(structural), await loadPluginDir(python)], ['python', 'ruby']);
    expect(added).toEqual([{ language: 'python', plugin: 'lang-python' }]);
    const after = await registeredPlugins([], { repoRoot });
    expect(after.problems).toEqual([]);
    expect(after.plugins.map((p) => p.plugin.manifest.id)).toEqual(['lang-python', 'lang-structural']);
  });

  it('keeps a mapping the user chose to another plugin that serves the language', async () => {
    const a = pluginDir('lang-a', ['y'], ['.y']);
    const b = pluginDir('lang-b', ['y'], ['.y']);
    await registerPlugins([await loadPluginDir(b)], ['y']);
    await registerPlugins([await loadPluginDir(a), await loadPluginDir(b)], ['y']);
    expect(readLangToml().languages['y']?.plugin).toBe('lang-b');
  });
});
