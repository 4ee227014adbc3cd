// Benchmark 2: ping round trip between the host and the example-lua plugin running in the
// standard tier (real bwrap), through PluginSupervisor → PluginSession → Connection.
import { loadPluginDir, PluginSupervisor } from '../../host/dist/plugins/index.js';
import { defaultLimits } from '../../host/dist/sandbox/index.js';
import { exampleLuaDir, exampleLuaProblem, makeTextRepo, mean, percentile, row, sandboxAvailable, skipRow } from './common.js';

export const name = 'ping';
export const title = 'ping round trip';

const WARMUP = 200;
const PINGS = 2000;

/** Sequential pings through a supervisor; returns the round trips in milliseconds. */
async function pingTimes(tier) {
  const { root } = makeTextRepo(1);
  const sup = new PluginSupervisor({
    plugin: await loadPluginDir(exampleLuaDir),
    repoRoot: root,
    corpus: 'bench',
    grant: { tier, allowUnsandboxed: tier === 'unsandboxed' },
    limits: defaultLimits(),
    timeouts: { pingIntervalMs: 0 },
  });
  try {
    await sup.start();
    for (let i = 0; i < WARMUP; i++) await sup.ping();
    const times = new Array(PINGS);
    for (let i = 0; i < PINGS; i++) {
      const t0 = performance.now();
      await sup.ping();
      times[i] = performance.now() - t0;
    }
    return times;
  } finally {
    await sup.stop();
  }
}

export async function run() {
  const problem = exampleLuaProblem();
  if (problem) return [skipRow(title, problem)];
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  const std = (await pingTimes('standard')).map((ms) => ms * 1000);
  const plain = (await pingTimes('unsandboxed')).map((ms) => ms * 1000);
  return [
    row(title, `standard tier: p50 (${PINGS} sequential pings)`, percentile(std, 50), 'µs'),
    row(title, 'standard tier: p99', percentile(std, 99), 'µs'),
    row(title, 'standard tier: mean', mean(std), 'µs'),
    row(title, 'standard tier: max', Math.max(...std), 'µs'),
    row(title, 'unsandboxed tier: p50 (reference)', percentile(plain, 50), 'µs'),
    row(title, 'unsandboxed tier: p99 (reference)', percentile(plain, 99), 'µs'),
  ];
}
