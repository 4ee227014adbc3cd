// Windows cannot run here: these tests only check the AppContainer launch plan that
// prepareLaunch builds for platform 'win32' from the profiles in sandbox-profiles/windows.
import { describe, expect, it } from 'vitest';
import { defaultLimits, prepareLaunch, type SandboxTier, type WindowsLaunchPlan } from '../../src/sandbox/index.js';
import { manifest } from './manifest-fixture.js';

const plugin = 'C:\\Users\\dev\\.travsr\\plugins\\lang-probe\\1.0.0';
const repo = 'D:\\src\\app';
const node = 'C:\\Program Files\\nodejs\\node.exe';
const manifests = {
  standard: manifest(),
  'native-ipc': manifest({ ipc: 'posix-shm' }),
  elevated: manifest({ network: { allow: ['proxy.golang.org'] } }),
  unsandboxed: manifest(),
};

async function plan(tier: SandboxTier): Promise<{ plan: WindowsLaunchPlan; file: string; env: Record<string, string> }> {
  const cmd = await prepareLaunch({
    platform: 'win32',
    pluginDir: plugin,
    repoRoot: repo,
    nodePath: node,
    manifest: manifests[tier],
    tier,
    limits: defaultLimits(),
    env: { TRAVSR_PLUGIN_COOKIE: 'c' },
    allowUnsandboxed: true,
  });
  expect(cmd.args[0]).toBe('--plan');
  return { plan: JSON.parse(cmd.args[1] ?? '') as WindowsLaunchPlan, file: cmd.file, env: cmd.env };
}

describe('Windows AppContainer plan (built here, cannot run here)', () => {
  for (const tier of ['standard', 'native-ipc', 'elevated'] as const) {
    it(`${tier}: an AppContainer with no capabilities, read-only plugin and repo, writable tmp, job limits`, async () => {
      const { plan: p, file } = await plan(tier);
      const limits = defaultLimits();
      expect(file).toMatch(/travsr-appcontainer\.exe$/);
      expect(p.appContainer).toEqual({ name: 'travsr.plugin.lang-probe', capabilities: [], loopbackExemption: tier === 'elevated' });
      expect(p.filesystem.read).toEqual(['C:\\Program Files\\nodejs', plugin, repo]);
      expect(p.filesystem.readWrite).toHaveLength(1);
      expect(p.command).toEqual({ file: node, args: ['--max-old-space-size=1536', `${plugin}\\probe.mjs`], cwd: repo });
      expect(p.jobObject).toMatchObject({
        activeProcessLimit: limits.processes,
        perProcessUserTimeSeconds: limits.cpuSeconds,
        killOnJobClose: true,
      });
      expect(p.proxy !== undefined).toBe(tier === 'elevated');
      expect(JSON.stringify(p)).not.toContain('internetClient');
    });
  }

  it('elevated: the proxy allows exactly the manifest hosts, reached via TRAVSR_PROXY_ADDRESS', async () => {
    const { plan: p, env } = await plan('elevated');
    expect(p.proxy?.allow).toEqual(['proxy.golang.org']);
    expect(env['TRAVSR_PROXY_ADDRESS']).toBe('127.0.0.1:0');
  });

  it('unsandboxed (allowed): no AppContainer, Job Object limits still apply', async () => {
    const { plan: p } = await plan('unsandboxed');
    expect(p.appContainer).toBeNull();
    expect(p.jobObject.activeProcessLimit).toBe(defaultLimits().processes);
  });
});
