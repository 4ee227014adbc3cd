// What `travsr lang info` knows: a first-party plugin registered where it is built (its SBOM made
// from the build record), and a version that is not installed (read from the built-in registry).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LangContext } from '../../src/catalog/install-plugin.js';
import { writeLangToml } from '../../src/catalog/lang-toml.js';
import { pluginInfo } from '../../src/catalog/plugin-info.js';
import { langErrorOfAsync } from './lang-error.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../../plugins/example-lua');

function context(): LangContext {
  return {
    repoRoot: undefined,
    lockPath: undefined,
    frozen: false,
    pluginsRoot: mkdtempSync(join(tmpdir(), 'travsr-info-plugins-')),
    ignoredKeys: [],
  };
}

describe('pluginInfo', () => {
  it('shows a plugin registered where it is built, with the SBOM its build record gives', async () => {
    writeLangToml({
      languages: { lua: { plugin: 'example-lua', allowUnsandboxed: false } },
      plugins: { 'example-lua': { version: '0.1.0', dir: EXAMPLE_LUA, tier: 'standard', networkAllow: [] } },
    });
    const info = await pluginInfo(context(), 'lua');
    expect(info).toMatchObject({
      id: 'example-lua',
      version: '0.1.0',
      state: 'installed',
      requiredTier: 'standard',
      grantedTier: 'standard',
      dir: EXAMPLE_LUA,
      source: 'checkout',
      sbom: { from: 'build record', summary: { specVersion: '1.6', aggregate: 'complete' } },
    });
    expect(info.sbom?.summary.packages.map((p) => p.name)).toContain('web-tree-sitter');
    expect(info.licenceProblem).toBeUndefined();
  });

  it('reads a plugin that is not installed from the registry, SBOM and signer included, installing nothing', async () => {
    writeLangToml({ languages: {}, plugins: {} });
    const ctx = context();
    const info = await pluginInfo(ctx, 'lang-go');
    expect(info).toMatchObject({ id: 'lang-go', state: 'available', source: 'builtin', sbom: { from: 'registry' } });
    expect(info.signedBy).toMatch(/^ed25519:[0-9a-f]{16}$/);
    expect(info.versionDocument?.artifacts[0]?.sbom?.sha256).toBe(info.sbom?.sha256);
    expect(info.dir).toBeUndefined();
  });

  it('names what it cannot find, here or in the registry', async () => {
    writeLangToml({ languages: {}, plugins: {} });
    const e = await langErrorOfAsync(pluginInfo(context(), 'no-such-language'));
    expect(e.code).toBe('LANG_NOT_FOUND');
    expect(e.message).toContain('no installed plugin is "no-such-language" or serves it');
  });
});
