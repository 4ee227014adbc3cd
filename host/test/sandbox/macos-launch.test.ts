// macOS cannot run here: these tests only check the sandbox-exec command prepareLaunch
// builds for platform 'darwin' and the text of the .sb profiles it points at. Nothing is
// created on disk and no proxy is started when the platform is not the host's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultLimits, prepareLaunch, type LaunchSpec, type ResolvedTool, type SandboxTier } from '../../src/sandbox/index.js';
import { sandboxProfilesDir } from '../../src/sandbox/profiles-dir.js';
import { manifest } from './manifest-fixture.js';

const plugin = '/Users/dev/.travsr/plugins/lang-probe/1.0.0';
const repo = '/Users/dev/src/app';
const node = '/opt/homebrew/bin/node';
const forTier: Record<Exclude<SandboxTier, 'unsandboxed'>, LaunchSpec['manifest']> = {
  standard: manifest(),
  'native-ipc': manifest({ ipc: 'posix-shm' }),
  elevated: manifest({ network: { allow: ['proxy.golang.org'] } }),
};
const darwin = (tier: SandboxTier, m = manifest(), tools?: ResolvedTool[]): Promise<Awaited<ReturnType<typeof prepareLaunch>>> =>
  prepareLaunch({
    platform: 'darwin',
    pluginDir: plugin,
    repoRoot: repo,
    nodePath: node,
    manifest: m,
    tier,
    limits: defaultLimits(),
    env: { TRAVSR_PLUGIN_COOKIE: 'c' },
    allowUnsandboxed: true,
    ...(tools ? { tools } : {}),
  });

/** The `-D NAME=value` parameters of a sandbox-exec command. */
const paramsOf = (cmd: { args: string[] }): Record<string, string> =>
  Object.fromEntries(cmd.args.filter((_, j) => cmd.args[j - 1] === '-D').map((kv) => kv.split('=') as [string, string]));

function sb(tier: string): string {
  return readFileSync(`${sandboxProfilesDir()}/macos/${tier}.sb`, 'utf8');
}

describe('macOS launch command (built here, cannot run here)', () => {
  for (const tier of ['standard', 'native-ipc', 'elevated'] as const) {
    it(`${tier}: ulimits, then sandbox-exec -f macos/${tier}.sb with every parameter the profile reads`, async () => {
      const cmd = await darwin(tier, forTier[tier]);
      const limits = defaultLimits();
      expect(cmd.file).toBe('/bin/sh');
      expect(cmd.args[1]).toContain(`ulimit -t ${limits.cpuSeconds}`);
      expect(cmd.args[1]).toContain(`ulimit -n ${limits.openFiles}`);
      expect(cmd.args[1]).toContain('ulimit -c 0');
      expect(cmd.args[3]).toBe(repo); // the directory the script changes to
      const i = cmd.args.indexOf('/usr/bin/sandbox-exec');
      expect(cmd.args.slice(i + 1, i + 3)).toEqual(['-f', `${sandboxProfilesDir()}/macos/${tier}.sb`]);
      const params = paramsOf(cmd);
      expect(params).toMatchObject({ PLUGIN_DIR: plugin, REPO_DIR: repo, NODE_BINARY: node });
      expect(params['TMP_DIR']).toMatch(/^\/private\/tmp\//);
      const used = [...sb(tier).matchAll(/\(param "([A-Z0-9_]+)"\)/g)].map((m) => m[1]).sort();
      expect(Object.keys(params).sort()).toEqual(used);
      expect(cmd.args.slice(-3)).toEqual([node, '--max-old-space-size=1536', `${plugin}/probe.mjs`]);
      expect(cmd.env['HOME']).toBe(params['TMP_DIR']);
      expect(cmd.env['TRAVSR_PLUGIN_COOKIE']).toBe('c');
      expect('TRAVSR_PROXY_SOCKET' in cmd.env).toBe(tier === 'elevated');
      await cmd.cleanup();
    });
  }

  it('external tools: their directories readable and runnable through TOOL_DIR slots, first on PATH', async () => {
    const tools = [
      { name: 'scip-go', path: '/Users/dev/go/bin/scip-go', bind: '/Users/dev/go' },
      { name: 'go', path: '/usr/local/go/bin/go', bind: '/usr/local/go' },
      { name: 'git', path: '/usr/bin/git', bind: undefined },
    ];
    const cmd = await darwin('standard', manifest(), tools);
    expect(paramsOf(cmd)).toMatchObject({
      TOOL_DIR_0: '/Users/dev/go',
      TOOL_DIR_1: '/usr/local/go',
      TOOL_DIR_2: '/var/empty',
      TOOL_DIR_3: '/var/empty',
    });
    expect(cmd.env['PATH']).toBe('/Users/dev/go/bin:/usr/local/go/bin:/usr/bin:/bin');
    expect(cmd.description.join('\n')).toContain('scip-go at /Users/dev/go/bin/scip-go (readable and runnable: /Users/dev/go)');
    // More directories than the profiles have slots: refused with what to do.
    const many = Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, path: `/opt/t${i}/t${i}`, bind: `/opt/t${i}/t${i}` }));
    await expect(darwin('standard', manifest(), many)).rejects.toThrow(
      /needs 5 tool directories .* more than the 4 the macOS profiles take/,
    );
  });

  it('unsandboxed (allowed): ulimits only, no sandbox-exec', async () => {
    const cmd = await darwin('unsandboxed');
    expect(cmd.args).not.toContain('/usr/bin/sandbox-exec');
    expect(cmd.args[1]).toContain('ulimit -t');
  });
});

describe('macOS .sb profiles (text only; sandbox-exec cannot run here)', () => {
  for (const tier of ['standard', 'native-ipc', 'elevated']) {
    it(`${tier}.sb denies by default, writes only in TMP_DIR and CACHE_DIR, and its parentheses balance`, () => {
      const text = sb(tier).replace(/;.*$/gm, '');
      expect(text).toContain('(version 1)');
      expect(text).toContain('(deny default)');
      let depth = 0;
      for (const ch of text) {
        depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
        expect(depth).toBeGreaterThanOrEqual(0);
      }
      expect(depth).toBe(0);
      const writes = [...text.matchAll(/\(allow ([^()]*file-write[^()]*)\(([^)]*)\)\)/g)].map((m) => m[2]);
      expect(writes.sort()).toEqual(['literal "/dev/null"', 'subpath cache-dir', 'subpath tmp-dir']);
      expect(text.includes('ipc-posix')).toBe(tier === 'native-ipc');
      expect(text.includes('network')).toBe(tier === 'elevated');
      // Tools: read and run, never write, in each of the four slots.
      expect(text).toContain(
        '(allow file-read* process-exec (subpath (param "TOOL_DIR_0")) (subpath (param "TOOL_DIR_1")) (subpath (param "TOOL_DIR_2")) (subpath (param "TOOL_DIR_3")))',
      );
      if (tier === 'elevated') expect(text).toContain('(allow network-outbound (remote unix-socket (path-literal proxy-socket)))');
    });
  }
});
