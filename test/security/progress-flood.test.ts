// Finding 4 of issue 12: progress reset the idle watchdog and an analyze request had no
// deadline, so a plugin that kept sending `progress` and never answered hung indexing forever.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginBundleOptions } from '@travsr/sdk/build';
import { loadPluginDir, PluginSupervisor, type PluginTimeouts } from '../../host/src/plugins/index.js';
import { defaultLimits } from '../../host/src/sandbox/index.js';
import { MemoryLogger } from '../../host/src/log/logger.js';
import { makeTextRepo } from '../helpers/fixture-plugins.js';
import { travsr } from '../helpers/run-cli.js';

type FloodMode = 'repeat' | 'count';
const root = mkdtempSync(join(tmpdir(), 'travsr-progress-flood-'));
const pluginDir = (mode: FloodMode) => join(root, mode);
let repo: string;

beforeAll(async () => {
  const bundle = join(root, 'main.js');
  const source = fileURLToPath(new URL('../fixtures/plugins/progress-flood.ts', import.meta.url));
  await build(pluginBundleOptions(source, bundle, { logLevel: 'silent' }));
  for (const mode of ['repeat', 'count'] as const) {
    mkdirSync(pluginDir(mode));
    copyFileSync(bundle, join(pluginDir(mode), 'main.js'));
    writeFileSync(
      join(pluginDir(mode), 'travsr-plugin.json'),
      JSON.stringify({
        id: 'progress-flood',
        version: '1.0.0',
        languages: ['text'],
        extensions: ['.txt'],
        entrypoint: { runtime: 'node', path: 'main.js', args: [mode] },
        protocolVersions: ['1'],
        constraints: { network: false, ipc: 'none', hostApi: false },
      }),
    );
  }
  repo = makeTextRepo({ 'a.txt': 'alpha beta', 'b.txt': 'gamma', 'flood.txt': 'never done', 'z.txt': 'zeta' });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

const files = ['a.txt', 'b.txt', 'flood.txt'].map((path) => ({ path, language: 'text' }));

async function supervisor(mode: FloodMode, timeouts: Partial<PluginTimeouts>): Promise<PluginSupervisor> {
  return new PluginSupervisor({
    plugin: await loadPluginDir(pluginDir(mode)),
    repoRoot: repo,
    corpus: 'test',
    grant: { tier: 'standard', allowUnsandboxed: false },
    limits: defaultLimits(),
    timeouts: { handshakeMs: 10_000, pingIntervalMs: 0, shutdownGraceMs: 1_000, ...timeouts },
    logger: new MemoryLogger(),
    onTrace: () => undefined,
  });
}

async function analyzeAll(sup: PluginSupervisor, which = files) {
  const got: string[] = [];
  try {
    await sup.analyze({ phase: 'A', files: which }, { onFile: (f) => void got.push(`${f.path}:${f.status}`) });
    return { got, error: undefined };
  } catch (e) {
    return { got, error: e as { code?: string; message: string } };
  }
}

describe('finding 4: A plugin that keeps sending `progress` and never answers hangs `travsr index` forever', () => {
  it('the same progress counter over and over is not a sign of life: the idle watchdog stops the plugin', async () => {
    // The deadline is left at its default (minutes): only the idle rule can end this request.
    const sup = await supervisor('repeat', { analyzeIdleMs: 1_500 });
    const { got, error } = await analyzeAll(sup);
    await sup.stop();
    expect(got).toEqual(['a.txt:ok', 'b.txt:ok']);
    expect(error?.code).toBe('PLUGIN_TIMEOUT');
    expect(error?.message).toMatch(
      /sent nothing for 2 s during analyze and looks hung \(only files, logs and progress whose count advances/,
    );
  });

  it('progress that keeps counting up cannot extend the request: its hard deadline stops the plugin', async () => {
    const sup = await supervisor('count', { analyzeIdleMs: 1_500, analyzeBaseMs: 2_500, analyzePerFileMs: 0 });
    const { got, error } = await analyzeAll(sup);
    expect(got).toEqual(['a.txt:ok', 'b.txt:ok']);
    expect(error?.code).toBe('PLUGIN_TIMEOUT');
    expect(error?.message).toMatch(
      /progress-flood@1\.0\.0 did not finish analyze within 2\.5 s \(the deadline of a request of 3 file\(s\): 2\.5 s \+ 0 s per file, settable with analyze\.deadline/,
    );
    expect(error?.message).toMatch(/whatever progress it reported; it was stopped/);
    // The plugin is restarted for the next request, which it answers.
    const next = await analyzeAll(sup, [{ path: 'z.txt', language: 'text' }]);
    await sup.stop();
    expect(next).toEqual({ got: ['z.txt:ok'], error: undefined });
  });

  it('the total analyze time of a plugin in one run has a ceiling that restarts do not reset', async () => {
    const sup = await supervisor('count', { analyzeIdleMs: 1_500, analyzeBaseMs: 60_000, analyzeTotalMs: 3_000 });
    const first = await analyzeAll(sup);
    expect(first.error?.code).toBe('PLUGIN_TIMEOUT');
    expect(first.error?.message).toMatch(
      /within 3 s \(what was left of the 3 s that one plugin may spend analyzing in one run \(analyze\.total\)\)/,
    );
    const second = await analyzeAll(sup, [{ path: 'z.txt', language: 'text' }]);
    await sup.stop();
    expect(second.got).toEqual([]);
    expect(second.error?.code).toBe('PLUGIN_DISABLED');
    expect(second.error?.message).toMatch(/has used up the 3 s that one plugin may spend analyzing in one run .*Raise analyze\.total/);
    expect(sup.launches).toBe(1);
  });

  it('travsr init finishes: the flooded file is failed with the reason, the other files are indexed', async () => {
    const r = await travsr(['init', repo, '--no-hook', '--json'], {
      env: {
        TRAVSR_PLUGINS_DIRS: pluginDir('count'),
        TRAVSR_CORPUS: 'c',
        TRAVSR_ANALYZE_DEADLINE: '2',
        TRAVSR_ANALYZE_DEADLINE_PER_FILE: '0',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    const s = (JSON.parse(r.stdout) as { summary: { analyzed: number; failed: number; failures: { path: string; reason: string }[] } })
      .summary;
    expect(s.analyzed).toBe(3);
    expect(s.failures).toEqual([
      expect.objectContaining({
        path: 'flood.txt',
        reason: expect.stringMatching(
          /PLUGIN_TIMEOUT: .*did not finish analyze within 2 s .*whatever progress it reported; it was stopped/,
        ),
      }),
    ]);
  });
});
