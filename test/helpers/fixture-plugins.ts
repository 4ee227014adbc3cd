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
 * Bundles the misbehaving plugin once and lays out one self-contained plugin directory
 * per mode (manifest + bundle, nothing else), as a real installed plugin would be.
 */
export async function buildMisbehavePlugins(modes: readonly MisbehaveMode[]): Promise<{ root: string; dir: (m: MisbehaveMode) => string }> {
  const root = mkdtempSync(join(tmpdir(), 'travsr-misbehave-'));
  const bundle = join(root, 'main.js');
  await build(pluginBundleOptions(join(here, '../fixtures/plugins/misbehave.ts'), bundle, { logLevel: 'silent' }));
  for (const mode of modes) {
    const dir = join(root, mode);
    mkdirSync(dir, { recursive: true });
    copyFileSync(bundle, join(dir, 'main.js'));
    writeFileSync(
      join(dir, 'travsr-plugin.json'),
      JSON.stringify({
        id: 'misbehave',
        version: '1.0.0',
        languages: ['text'],
        extensions: ['.txt'],
        entrypoint: { runtime: 'node', path: 'main.js', args: [mode] },
        protocolVersions: ['1'],
        constraints: { network: false, ipc: 'none', hostApi: false },
      }),
    );
  }
  return { root, dir: (m) => join(root, m) };
}

/** Modes of the misbehaving model plugin (see test/fixtures/plugins/misbehave-model.ts). */
export type MisbehaveModelMode = 'ok' | 'hang' | 'crash' | 'wrong-dims' | 'not-finite' | 'load-fails';

/**
 * Like {@link buildMisbehavePlugins}, for a model plugin (`kind: "model"`, an embedder of 4
 * dimensions): one plugin directory per mode.
 */
export async function buildMisbehaveModelPlugins(
  modes: readonly MisbehaveModelMode[],
): Promise<{ root: string; dir: (m: MisbehaveModelMode) => string }> {
  const root = mkdtempSync(join(tmpdir(), 'travsr-misbehave-model-'));
  const bundle = join(root, 'main.js');
  await build(pluginBundleOptions(join(here, '../fixtures/plugins/misbehave-model.ts'), bundle, { logLevel: 'silent' }));
  for (const mode of modes) {
    const dir = join(root, mode);
    mkdirSync(dir, { recursive: true });
    copyFileSync(bundle, join(dir, 'main.js'));
    writeFileSync(
      join(dir, 'travsr-plugin.json'),
      JSON.stringify({
        id: 'misbehave-model',
        version: '1.0.0',
        kind: 'model',
        languages: [],
        extensions: [],
        entrypoint: { runtime: 'node', path: 'main.js', args: [mode] },
        protocolVersions: ['1'],
        constraints: { network: false, ipc: 'none', hostApi: false },
        model: { task: 'embed', dimensions: 4, maxTokens: 64, licence: 'MIT' },
      }),
    );
  }
  return { root, dir: (m) => join(root, m) };
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
