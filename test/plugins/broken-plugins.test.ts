// A deliberately broken plugin, in each way the issue names, run for real in the standard
// sandbox tier: each is reported with a clear error, and the host keeps working.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPluginDir, PluginSupervisor, type PluginError } from '../../host/src/plugins/index.js';
import { defaultLimits } from '../../host/src/sandbox/index.js';
import { MemoryLogger } from '../../host/src/log/logger.js';
import type { Trace } from '../../host/src/traces/trace.js';
import { buildMisbehavePlugins, makeTextRepo, type MisbehaveMode } from '../helpers/fixture-plugins.js';

const MODES: MisbehaveMode[] = ['ok', 'garbage', 'bad-handshake', 'hang', 'flood', 'oversized', 'crash', 'schema', 'foreign'];
let plugins: Awaited<ReturnType<typeof buildMisbehavePlugins>>;
let repo: string;
const files = [
  { path: 'a.txt', language: 'text' },
  { path: 'b.txt', language: 'text' },
  { path: 'c.txt', language: 'text' },
];

beforeAll(async () => {
  plugins = await buildMisbehavePlugins(MODES);
  repo = makeTextRepo({ 'a.txt': 'alpha beta', 'b.txt': 'gamma delta', 'c.txt': 'epsilon' });
});
afterAll(() => {
  rmSync(plugins.root, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

async function runMode(mode: MisbehaveMode) {
  const logger = new MemoryLogger();
  const traces: Trace[] = [];
  const sup = new PluginSupervisor({
    plugin: await loadPluginDir(plugins.dir(mode)),
    repoRoot: repo,
    corpus: 'test',
    grant: { tier: 'standard', allowUnsandboxed: false },
    limits: { ...defaultLimits(), outputBytes: 256 * 1024 },
    timeouts: { handshakeMs: 5_000, analyzeIdleMs: 1_500, pingIntervalMs: 0, shutdownGraceMs: 1_000 },
    logger,
    onTrace: (t) => traces.push(t),
  });
  const got: string[] = [];
  let error: PluginError | undefined;
  try {
    await sup.analyze({ phase: 'A', files }, { onFile: (f) => void got.push(`${f.path}:${f.status}`) });
  } catch (e) {
    error = e as PluginError;
  }
  await sup.stop();
  return { error, got, traces, logger, sup };
}

/** The host still works: the well-behaved plugin analyzes the repository after each failure. */
async function hostStillWorks(): Promise<void> {
  const { error, got } = await runMode('ok');
  expect(error).toBeUndefined();
  expect(got).toEqual(['a.txt:ok', 'b.txt:ok', 'c.txt:ok']);
}

describe('a deliberately broken plugin in the standard tier', () => {
  it('the well-behaved build of the same plugin works (control)', async () => {
    const { error, got, traces } = await runMode('ok');
    expect(error).toBeUndefined();
    expect(got).toHaveLength(3);
    expect(traces[0]?.status).toBe('completed');
    expect(traces[0]?.counts.files).toBe(3);
  });

  const cases: [MisbehaveMode, string, RegExp][] = [
    ['bad-handshake', 'PLUGIN_HANDSHAKE_FAILED', /protocol version 99/],
    [
      'garbage',
      'PLUGIN_PROTOCOL_VIOLATION',
      /FRAME_TOO_LARGE.*"HTTP", look like text: the frame stream carries frames only; logs go to stderr/,
    ],
    ['oversized', 'PLUGIN_PROTOCOL_VIOLATION', /FRAME_TOO_LARGE.*over the \d+-byte limit/],
    ['schema', 'PLUGIN_PROTOCOL_VIOLATION', /SCHEMA_VIOLATION.*\/nodes\/0\/kind must be equal to one of the allowed values/],
    ['hang', 'PLUGIN_TIMEOUT', /sent nothing for \d+ s during analyze and looks hung/],
    ['crash', 'PLUGIN_CRASHED', /exited with code 70 in the middle of analyze; last stderr: .*about to crash on purpose/],
    ['flood', 'PLUGIN_OUTPUT_LIMIT', /more than 262144 bytes/],
  ];
  for (const [mode, code, message] of cases) {
    it(`${mode}: reported as ${code} with a clear message, traced, and the host keeps working`, async () => {
      const { error, traces } = await runMode(mode);
      expect(error?.code).toBe(code);
      expect(error?.message).toMatch(message);
      expect(error?.message).toContain('misbehave@1.0.0');
      const trace = traces.at(-1)!;
      expect(trace.status).toBe('error');
      expect(trace.error?.code).toBe(code);
      expect(trace.constraints.length).toBeGreaterThan(0);
      expect(trace.transitions.map((t) => t.state)).toContain('evaluating_constraints');
      await hostStillWorks();
    });
  }

  it('files streamed before a crash are delivered; the rest are not', async () => {
    const { got } = await runMode('crash');
    expect(got).toEqual(['a.txt:ok']);
  });

  it('a graph reaching outside its file is rejected for that file only', async () => {
    const { error, got, logger } = await runMode('foreign');
    expect(error).toBeUndefined();
    expect(got).toEqual(['a.txt:failed', 'b.txt:ok', 'c.txt:ok']);
    expect(logger.text()).toMatch(/rejected a.txt: node x claims path elsewhere.txt/);
  });
});
