// Benchmark 4: how long a plugin takes to start, sandboxed (standard tier, bwrap) against
// unsandboxed (tier `unsandboxed`, the same prlimit + cgroup wrapper without bwrap), with
// example-lua. Two measures:
//   spawn → hello   from spawning the launch command until the hello answer arrives;
//   session start   PluginSession.start: tree hash, constraints, prepareLaunch, spawn,
//                   hello and initialize (what the indexer waits for).
// A bare `node main.js` (no wrapper at all) is the floor.
import { PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE, PROTOCOL_VERSIONS, PROTOCOL_VERSIONS_ENV } from '@travsr/protocol';
import { Connection } from '@travsr/protocol/node';
import { silentLogger } from '../../host/dist/log/logger.js';
import { DEFAULT_TIMEOUTS, loadPluginDir, PluginSession, spawnPlugin } from '../../host/dist/plugins/index.js';
import { defaultLimits, prepareLaunch } from '../../host/dist/sandbox/index.js';
import { exampleLuaDir, exampleLuaProblem, makeTextRepo, percentile, row, sandboxAvailable, skipRow } from './common.js';

export const name = 'hello';
export const title = 'start to hello';

const RUNS = 15;
const WARMUP = 2;
const MAX_OVERHEAD = 0.5;

const helloParams = { protocolVersions: [...PROTOCOL_VERSIONS], host: { name: 'travsr-bench', version: '0.0.0' }, maxFrameBytes: 16 << 20 };
const pluginEnv = { [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, [PROTOCOL_VERSIONS_ENV]: PROTOCOL_VERSIONS.join(',') };

/** Spawns `cmd`, times spawn → hello answer, then shuts the plugin down. */
async function timeHello(cmd) {
  const t0 = performance.now();
  const proc = spawnPlugin(cmd);
  proc.stderr.resume();
  const conn = new Connection(proc.stdout, proc.stdin, { role: 'host' });
  try {
    await conn.request('hello', helloParams, { timeoutMs: 10_000 });
    return performance.now() - t0;
  } finally {
    await conn.request('shutdown', {}, { timeoutMs: 2000 }).catch(() => undefined);
    proc.stdin.end();
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await proc.exited;
    clearTimeout(timer);
    conn.close();
  }
}

async function spawnToHello(plugin, repoRoot, tier) {
  const cmd = await prepareLaunch({
    pluginDir: plugin.dir,
    manifest: plugin.manifest,
    repoRoot,
    tier,
    limits: defaultLimits(),
    env: pluginEnv,
    allowUnsandboxed: tier === 'unsandboxed',
  });
  try {
    return await timeHello(cmd);
  } finally {
    await cmd.cleanup();
  }
}

function bareNodeHello(plugin) {
  return timeHello({
    file: process.execPath,
    args: [`${plugin.dir}/${plugin.manifest.entrypoint.path}`],
    env: { ...pluginEnv, PATH: '/usr/bin:/bin' },
  });
}

async function sessionStart(plugin, repoRoot, tier) {
  const t0 = performance.now();
  const session = await PluginSession.start({
    plugin,
    repoRoot,
    corpus: 'bench',
    grant: { tier, allowUnsandboxed: tier === 'unsandboxed' },
    limits: defaultLimits(),
    timeouts: DEFAULT_TIMEOUTS,
    logger: silentLogger,
  });
  const ms = performance.now() - t0;
  await session.stop();
  return ms;
}

/** Runs every measure WARMUP + RUNS times, interleaved so that load changes hit all alike. */
async function collect(measures) {
  const out = Object.fromEntries(Object.keys(measures).map((k) => [k, []]));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [k, fn] of Object.entries(measures)) {
      const ms = await fn();
      if (i >= WARMUP) out[k].push(ms);
    }
  }
  return out;
}

export async function run() {
  const problem = exampleLuaProblem();
  if (problem) return [skipRow(title, problem)];
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  const plugin = await loadPluginDir(exampleLuaDir);
  const { root } = makeTextRepo(1);
  const t = await collect({
    helloStd: () => spawnToHello(plugin, root, 'standard'),
    helloUnsb: () => spawnToHello(plugin, root, 'unsandboxed'),
    helloBare: () => bareNodeHello(plugin),
    startStd: () => sessionStart(plugin, root, 'standard'),
    startUnsb: () => sessionStart(plugin, root, 'unsandboxed'),
  });
  const med = (k) => percentile(t[k], 50);
  const p90 = (k) => percentile(t[k], 90);
  const overhead = (std, unsb) => med(std) / med(unsb) - 1;
  const verdict = (o) => (o <= MAX_OVERHEAD ? 'pass' : 'FAIL');
  const target = `≤ +${MAX_OVERHEAD * 100}%`;
  const helloOverhead = overhead('helloStd', 'helloUnsb');
  const startOverhead = overhead('startStd', 'startUnsb');
  return [
    row(title, `spawn → hello, standard tier: median (${RUNS} runs, example-lua)`, med('helloStd'), 'ms'),
    row(title, 'spawn → hello, standard tier: p90', p90('helloStd'), 'ms'),
    row(title, 'spawn → hello, unsandboxed tier: median', med('helloUnsb'), 'ms'),
    row(title, 'spawn → hello, unsandboxed tier: p90', p90('helloUnsb'), 'ms'),
    row(title, 'spawn → hello, bare `node main.js`: median (floor)', med('helloBare'), 'ms'),
    row(title, 'spawn → hello: sandbox overhead (median vs unsandboxed)', helloOverhead * 100, '%', target, verdict(helloOverhead)),
    row(title, 'PluginSession.start to ready, standard tier: median', med('startStd'), 'ms'),
    row(title, 'PluginSession.start to ready, standard tier: p90', p90('startStd'), 'ms'),
    row(title, 'PluginSession.start to ready, unsandboxed tier: median', med('startUnsb'), 'ms'),
    row(title, 'PluginSession.start to ready, unsandboxed tier: p90', p90('startUnsb'), 'ms'),
    row(title, 'PluginSession.start: sandbox overhead (median vs unsandboxed)', startOverhead * 100, '%', target, verdict(startOverhead)),
  ];
}
