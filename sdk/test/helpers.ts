import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '../src/build/index.js';
import type { PluginManifest } from '@travsr/protocol';
import { launchUnsandboxed, type Launcher } from '../src/testing/launch.js';
import { PluginSession } from '../src/testing/session.js';

/** The fixture analyzer's manifest. */
export const FIXTURE_MANIFEST: PluginManifest = {
  id: 'fixture-analyzer',
  version: '1.2.3',
  languages: ['fixture'],
  extensions: ['.fx'],
  entrypoint: { runtime: 'node', path: 'dist/main.js' },
  protocolVersions: ['1'],
  phases: ['A'],
  constraints: { network: false, ipc: 'none', hostApi: false },
};

export interface FixturePlugin {
  /** Plugin directory: travsr-plugin.json, dist/main.js, snapshots/input/*.fx. */
  dir: string;
  /** The repository the tests analyze (= snapshots/input). */
  repo: string;
  cleanup(): void;
}

/** Bundles test/fixtures/fixture-analyzer.ts (with the SDK sources) into a fresh plugin directory. */
export async function buildFixturePlugin(files: Record<string, string> = {}): Promise<FixturePlugin> {
  const dir = mkdtempSync(join(tmpdir(), 'travsr-sdk-fixture-'));
  await build(
    pluginBundleOptions(fileURLToPath(new URL('./fixtures/fixture-analyzer.ts', import.meta.url)), join(dir, 'dist', 'main.js'), {
      logLevel: 'error',
    }),
  );
  writeFileSync(join(dir, 'travsr-plugin.json'), JSON.stringify(FIXTURE_MANIFEST, null, 2));
  const repo = join(dir, 'snapshots', 'input');
  mkdirSync(repo, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  return { dir, repo, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A launcher that adds FIXTURE_MODE (and anything else) to the plugin's environment. */
export function withEnv(extra: Record<string, string>): Launcher {
  return (opts) => launchUnsandboxed({ ...opts, env: { ...opts.env, ...extra } });
}

/** Starts the fixture plugin as the host would (cookie set), connected. */
export function startFixture(
  plugin: FixturePlugin,
  options: { mode?: string; cookie?: boolean; connect?: boolean } = {},
): Promise<PluginSession> {
  const launch = options.mode ? withEnv({ FIXTURE_MODE: options.mode }) : launchUnsandboxed;
  const startOptions: { cookie?: boolean; connect?: boolean } = {};
  if (options.cookie !== undefined) startOptions.cookie = options.cookie;
  if (options.connect !== undefined) startOptions.connect = options.connect;
  return PluginSession.start({ pluginDir: plugin.dir, manifest: FIXTURE_MANIFEST, repoRoot: plugin.repo, launch }, startOptions);
}
