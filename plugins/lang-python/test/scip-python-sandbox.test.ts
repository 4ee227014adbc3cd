// scip-python inside the real sandbox (bwrap, standard tier), found and bound the way the host
// does it for a plugin that declares `constraints.optionalTools: ["scip-python"]`: no network, the
// repository read-only, the npm package of scip-python bound read-only, only /tmp writable.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginManifest } from '@travsr/protocol';
import { build } from 'esbuild';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLimits, prepareLaunch, resolvePluginTools, type LaunchSpec } from '../../../host/src/sandbox/index.js';
import { SCIP_PYTHON_VERSION } from '../src/scip/scip-python-runner.js';
import { FACTS, installScipPython, repoRoot, writeFixture } from './scip-python-fixture.js';

const install = process.platform === 'linux' ? installScipPython() : { skip: 'the sandbox under test is bwrap (Linux)' };
if ('skip' in install) console.warn(`skipping scip-python in the sandbox: ${install.skip}`);

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

describe.skipIf('skip' in install)(`scip-python ${SCIP_PYTHON_VERSION} in the sandbox`, () => {
  it('runs with the tool the host found and bound, offline, and its index maps onto the fixture’s call sites', async () => {
    const pluginDir = cacheDir('scip-python-plugin');
    const repo = cacheDir('scip-python-repo');
    writeFixture(repo);
    // The probe: the shipped runner and edge mapping, bundled as a plugin bundles them.
    const entry = join(pluginDir, 'probe.ts');
    writeFileSync(
      entry,
      `import { ScipPythonUpgrade } from ${JSON.stringify(join(repoRoot, 'plugins/lang-python/src/scip/scip-python-runner.ts'))};
const [tool, facts] = [process.argv[2], JSON.parse(process.argv[3])];
const at = new Map(facts.flatMap((f) => f.definitions.map((d) => [\`\${f.path}:\${d.nameLine}:\${d.nameCol}\`, d.node])));
try {
  const index = await new ScipPythonUpgrade(tool).run(process.cwd(), new AbortController().signal, () => {});
  const edges = facts.flatMap((f) => index.callEdges(f, (p, l, c) => at.get(\`\${p}:\${l}:\${c}\`)));
  console.log(JSON.stringify({ documents: index.documentCount, edges: edges.length }));
} catch (e) {
  console.log(JSON.stringify({ error: e.message }));
}
`,
    );
    await build({
      entryPoints: [entry],
      outfile: join(pluginDir, 'probe.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const manifest: PluginManifest = {
      id: 'scip-python-probe',
      version: '0.0.0',
      languages: ['python'],
      extensions: ['.py'],
      entrypoint: { runtime: 'node', path: 'probe.mjs', args: [] },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false, optionalTools: ['scip-python'] },
    };
    const tools = resolvePluginTools(manifest, 'bin' in install ? install.bin : '');
    expect(tools.missing).toEqual([]);
    const tool = tools.found[0]!;
    manifest.entrypoint.args = [tool.path, JSON.stringify(FACTS)];
    const spec: LaunchSpec = {
      pluginDir,
      manifest,
      tier: 'standard',
      limits: defaultLimits(),
      env: { TRAVSR_PLUGIN_COOKIE: 'scip-python-sandbox' },
      repoRoot: repo,
      tools: tools.found,
    };
    const cmd = await prepareLaunch(spec);
    try {
      // Generous: scip-python takes a few seconds here on an idle machine.
      const r = await execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 240_000 });
      const out = String(r.stdout).trim().split('\n').pop() ?? '';
      expect(out, `${String(r.stdout)}\n${String(r.stderr)}`).toMatch(/^\{/);
      // The ten call edges scip-python-runner.test.ts checks one by one, outside the sandbox.
      expect(JSON.parse(out)).toEqual({ documents: 4, edges: 10 });
    } finally {
      await cmd.cleanup();
    }
  }, 300_000);
});
