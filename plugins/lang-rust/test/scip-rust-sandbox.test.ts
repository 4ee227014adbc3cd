// The rust-analyzer upgrade inside the real sandbox (bwrap, standard tier), with the tool found
// and bound the way the host does it for `constraints.optionalTools: ["rust-analyzer"]`: no
// network, the repository read-only, only /tmp writable. rust-analyzer itself cannot be
// installed here: the tool is the stand-in of scip-rust-fixture.ts, which checks how it is run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '@travsr/protocol';
import { build } from 'esbuild';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, prepareLaunch, resolvePluginTools, type LaunchSpec } from '../../../host/src/sandbox/index.js';
import { writeCrate, writeFakeRustAnalyzer, type FakeMode } from './scip-rust-fixture.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const here = dirname(fileURLToPath(import.meta.url));
const skip = process.platform !== 'linux' ? 'the sandbox under test is bwrap (Linux)' : undefined;

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh directory under test/.cache (git-ignored): outside /tmp, which the sandbox replaces. */
function cacheDir(prefix: string): string {
  const root = join(repoRoot, 'test', '.cache');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, `${prefix}-`));
  made.push(dir);
  return dir;
}

// The shipped runner and edge mapping, bundled as the plugin bundles them, with the fixture's callbacks.
const PROBE = `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { RustAnalyzerUpgrade } from ${JSON.stringify(join(here, '../src/scip/rust-analyzer-runner.ts'))};
import { callbacksOver } from ${JSON.stringify(join(here, 'scip-rust-fixture.ts'))};
const [tool, mode] = [process.argv[2], process.argv[3]];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => {
  try { process.kill(pid, 0); } catch { return false; }
  try { return !/^\\d+ \\(.*\\) Z/.test(readFileSync('/proc/' + pid + '/stat', 'utf8')); } catch { return false; }
};
let repoWritable = true;
try { writeFileSync('probe-write', ''); } catch { repoWritable = false; }
const controller = new AbortController();
const targetDir = '/tmp/ra-target';
const running = new RustAnalyzerUpgrade(tool, mode === 'hang' ? { targetDir } : {}).run(process.cwd(), controller.signal, () => {});
if (mode === 'hang') {
  while (!existsSync(targetDir + '/pids')) await sleep(20);
  const pids = readFileSync(targetDir + '/pids', 'utf8').split(' ').map(Number);
  const before = pids.filter(alive).length;
  controller.abort();
  const error = await running.then(() => 'resolved', (e) => e.message);
  for (let i = 0; i < 500 && pids.some(alive); i++) await sleep(20);
  console.log(JSON.stringify({ before, after: pids.filter(alive).length, error }));
} else {
  try {
    const index = await running;
    console.log(JSON.stringify({ repoWritable, documents: index.documentCount, edges: index.callEdges('src/lib.rs', callbacksOver()).length }));
  } catch (e) {
    console.log(JSON.stringify({ error: e.message }));
  }
}
`;

let probeDir = '';
beforeAll(async () => {
  if (skip) return;
  probeDir = cacheDir('scip-rust-probe');
  writeFileSync(join(probeDir, 'probe.ts'), PROBE);
  await build({
    entryPoints: [join(probeDir, 'probe.ts')],
    outfile: join(probeDir, 'probe.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
});

/** Runs the probe in the sandbox with a stand-in rust-analyzer of `mode` found on a PATH of its own. */
async function inSandbox(mode: FakeMode): Promise<Record<string, unknown>> {
  const repo = cacheDir('scip-rust-repo');
  writeCrate(repo);
  const bin = join(cacheDir('scip-rust-bin'), 'bin');
  writeFakeRustAnalyzer(bin, mode);
  const manifest: PluginManifest = {
    id: 'scip-rust-probe',
    version: '0.0.0',
    languages: ['rust'],
    extensions: ['.rs'],
    entrypoint: { runtime: 'node', path: 'probe.mjs', args: [] },
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false, optionalTools: ['rust-analyzer'] },
  };
  const tools = resolvePluginTools(manifest, bin);
  expect(tools.found.map((t) => t.name)).toEqual(['rust-analyzer']);
  manifest.entrypoint.args = [tools.found[0]!.path, mode];
  const spec: LaunchSpec = {
    pluginDir: probeDir,
    manifest,
    tier: 'standard',
    limits: defaultLimits(),
    env: { TRAVSR_PLUGIN_COOKIE: 'scip-rust-sandbox' },
    repoRoot: repo,
    tools: tools.found,
  };
  const cmd = await prepareLaunch(spec);
  try {
    const r = await execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
    const out = String(r.stdout).trim().split('\n').pop() ?? '';
    expect(out, `${String(r.stdout)}\n${String(r.stderr)}`).toMatch(/^\{/);
    return JSON.parse(out) as Record<string, unknown>;
  } finally {
    await cmd.cleanup();
  }
}

describe.skipIf(skip !== undefined)('rust-analyzer in the sandbox', () => {
  it('runs with the tool the host found and bound, on the read-only repository, and its index maps onto the crate', async () => {
    expect(await inSandbox('ok')).toEqual({ repoWritable: false, documents: 4, edges: 8 });
  }, 120_000);

  it('is stopped, with the processes it started, when the request is cancelled', async () => {
    const r = await inSandbox('hang');
    expect(r).toMatchObject({ before: 2, after: 0 });
    expect(r['error']).toMatch(/^rust-analyzer was stopped \(the analyze request was cancelled/);
  }, 120_000);
});
