import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Modes of the misbehaving test plugin (see test/fixtures/plugins/misbehave.ts). */
export type MisbehaveMode =
  'ok' | 'garbage' | 'bad-handshake' | 'slow-hello' | 'hang' | 'flood' | 'oversized' | 'crash' | 'schema' | 'foreign' | 'slow';

/**
 * Bundles `source` once and lays out one self-contained plugin directory per mode (manifest +
 * bundle, nothing else), as a real installed plugin would be: the mode is the entrypoint's argument.
 */
async function buildModePlugins<M extends string>(
  prefix: string,
  source: string,
  modes: readonly M[],
  manifest: Record<string, unknown>,
): Promise<{ root: string; dir: (m: M) => string }> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const bundle = join(root, 'main.js');
  await build(pluginBundleOptions(join(here, source), bundle, { logLevel: 'silent' }));
  for (const mode of modes) {
    const dir = join(root, mode);
    mkdirSync(dir, { recursive: true });
    copyFileSync(bundle, join(dir, 'main.js'));
    writeFileSync(
      join(dir, 'travsr-plugin.json'),
      JSON.stringify({ ...manifest, entrypoint: { runtime: 'node', path: 'main.js', args: [mode] } }),
    );
  }
  return { root, dir: (m) => join(root, m) };
}

/** The misbehaving analyzer (test/fixtures/plugins/misbehave.ts), one plugin directory per mode. */
export function buildMisbehavePlugins(modes: readonly MisbehaveMode[]): Promise<{ root: string; dir: (m: MisbehaveMode) => string }> {
  return buildModePlugins('travsr-misbehave-', '../fixtures/plugins/misbehave.ts', modes, {
    id: 'misbehave',
    version: '1.0.0',
    languages: ['text'],
    extensions: ['.txt'],
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false },
  });
}

/** Modes of the misbehaving model plugin (see test/fixtures/plugins/misbehave-model.ts). */
export type MisbehaveModelMode = 'ok' | 'hang' | 'crash' | 'wrong-dims' | 'not-finite' | 'load-fails';

/** The misbehaving model plugin (`kind: "model"`, an embedder of 4 dimensions), one plugin directory per mode. */
export function buildMisbehaveModelPlugins(
  modes: readonly MisbehaveModelMode[],
): Promise<{ root: string; dir: (m: MisbehaveModelMode) => string }> {
  return buildModePlugins('travsr-misbehave-model-', '../fixtures/plugins/misbehave-model.ts', modes, {
    id: 'misbehave-model',
    version: '1.0.0',
    kind: 'model',
    languages: [],
    extensions: [],
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false },
    model: { task: 'embed', dimensions: 4, maxTokens: 64, licence: 'MIT' },
  });
}

/** A small repository of text files for the test plugin to analyze. */
export function makeTextRepo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'travsr-repo-'));
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}
