// The plugin cache directory (constraints.cache) in the launch commands: bound read-write at its
// own path after every other mount on Linux (the commands run for real in
// test/security/plugin-cache-dir.test.ts), CACHE_DIR on macOS, a read-write grant on Windows.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheBindProblem } from '../../src/sandbox/bwrap-args.js';
import { linuxProfile } from '../../src/sandbox/linux-profile.js';
import { defaultLimits, prepareLaunch, type LaunchCommand, type LaunchSpec } from '../../src/sandbox/index.js';
import { manifest } from './manifest-fixture.js';

const probeDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/sandbox');
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-cache-launch-')));
const cacheDir = join(scratch, 'cache', 'lang-probe', '1.0.0', '0123456789abcdef');
mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
symlinkSync(cacheDir, join(scratch, 'cache-link'));
const cached = manifest({ cache: true }, { runtime: 'node', path: 'env-report.mjs' });
/** The spec without a cache directory. */
const noCache = (over: Partial<LaunchSpec> = {}): LaunchSpec => {
  const s = spec(over);
  delete s.cacheDir;
  return s;
};
const spec = (over: Partial<LaunchSpec> = {}): LaunchSpec => ({
  pluginDir: probeDir,
  repoRoot: probeDir,
  manifest: cached,
  tier: 'standard',
  limits: defaultLimits(),
  env: { TRAVSR_PLUGIN_COOKIE: 'c' },
  cacheDir,
  ...over,
});
const launched: LaunchCommand[] = [];
afterAll(async () => {
  for (const c of launched) await c.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

function bwrapOptions(cmd: LaunchCommand): string[] {
  const file = cmd.args.find((a) => a.endsWith('/bwrap.args'));
  if (file === undefined) throw new Error(`no bwrap.args file in ${cmd.args.join(' ')}`);
  return readFileSync(file, 'utf8').split('\0').slice(0, -1);
}

describe.runIf(process.platform === 'linux')('Linux: the cache directory', () => {
  it('is the one read-write bind, at its real path, after every read-only mount and before / is remounted read-only', async () => {
    const cmd = await prepareLaunch(spec({ cacheDir: join(scratch, 'cache-link') }));
    launched.push(cmd);
    const args = bwrapOptions(cmd);
    const binds = args.flatMap((a, i) => (a === '--bind' ? [[args[i + 1], args[i + 2]]] : []));
    expect(binds).toEqual([[cacheDir, cacheDir]]);
    const at = args.indexOf('--bind');
    expect(args.lastIndexOf('--ro-bind')).toBeLessThan(at);
    expect(args.lastIndexOf('--tmpfs')).toBeLessThan(at);
    expect(args.indexOf('--remount-ro')).toBeGreaterThan(at);
    expect(cmd.cacheDirInside).toBe(cacheDir);
    expect(cmd.description.join('\n')).toContain(`${cacheDir} (the plugin's cache for this repository, kept between sessions)`);
  });

  it('is absent without one: no read-write bind at all', async () => {
    const cmd = await prepareLaunch(noCache({ manifest: manifest({}, cached.entrypoint) }));
    launched.push(cmd);
    expect(bwrapOptions(cmd)).not.toContain('--bind');
    expect(cmd.cacheDirInside).toBeUndefined();
  });

  it('unsandboxed (allowed): the same path, nothing bound', async () => {
    const cmd = await prepareLaunch(spec({ tier: 'unsandboxed', allowUnsandboxed: true }));
    launched.push(cmd);
    expect(cmd.args.some((a) => a.endsWith('/bwrap.args'))).toBe(false);
    expect(cmd.cacheDirInside).toBe(cacheDir);
    expect(cmd.description).toContain(`cache: ${cacheDir} (the plugin's cache for this repository, kept between sessions)`);
  });

  it('refuses a relative or missing cache directory with LAUNCH_SPEC_INVALID', async () => {
    await expect(prepareLaunch(spec({ cacheDir: 'cache' }))).rejects.toMatchObject({ code: 'LAUNCH_SPEC_INVALID' });
    await expect(prepareLaunch(spec({ cacheDir: join(scratch, 'nope') }))).rejects.toMatchObject({
      code: 'LAUNCH_SPEC_INVALID',
      message: expect.stringContaining('the plugin cache directory') as unknown,
    });
  });
});

describe('cacheBindProblem', () => {
  const profile = linuxProfile();
  it('accepts a directory under the home or under the private /tmp', () => {
    expect(cacheBindProblem('/home/ann/.travsr/cache/plugins/x/1.0.0/k', profile)).toBeUndefined();
    expect(cacheBindProblem('/tmp/travsr-home-1/cache/plugins/x/1.0.0/k', profile)).toBeUndefined();
  });
  it('refuses one on, under or above a read-only mount, or covering /tmp', () => {
    expect(cacheBindProblem('/usr/share/x', profile)).toMatch(/overlap \/usr/);
    expect(cacheBindProblem('/repo', profile)).toMatch(/overlap \/repo/);
    expect(cacheBindProblem('/plugin/cache', profile)).toMatch(/overlap \/plugin/);
    expect(cacheBindProblem('/run', profile)).toMatch(/overlap \/run\/travsr/);
    expect(cacheBindProblem('/tmp', profile)).toMatch(/cover \/tmp/);
    expect(cacheBindProblem('/', profile)).toBeDefined();
  });
});

describe('macOS and Windows (commands only; neither can run here)', () => {
  it('macOS passes the directory as CACHE_DIR, /var/empty without one', async () => {
    const d = await prepareLaunch(spec({ platform: 'darwin', cacheDir: '/Users/ann/.travsr/cache/plugins/lang-probe/1.0.0/k' }));
    expect(d.args).toContain('CACHE_DIR=/Users/ann/.travsr/cache/plugins/lang-probe/1.0.0/k');
    expect(d.cacheDirInside).toBe('/Users/ann/.travsr/cache/plugins/lang-probe/1.0.0/k');
    const none = await prepareLaunch(noCache({ platform: 'darwin' }));
    expect(none.args).toContain('CACHE_DIR=/var/empty');
  });

  it('Windows grants the directory read-write to the container, beside the temp directory', async () => {
    const w = await prepareLaunch(
      spec({ platform: 'win32', pluginDir: 'C:\\p', repoRoot: 'C:\\r', cacheDir: 'C:\\Users\\ann\\.travsr\\cache\\k' }),
    );
    const plan = JSON.parse(w.args[1] ?? '{}') as { filesystem: { readWrite: string[] } };
    expect(plan.filesystem.readWrite).toHaveLength(2);
    expect(plan.filesystem.readWrite[1]).toBe('C:\\Users\\ann\\.travsr\\cache\\k');
    expect(w.cacheDirInside).toBe('C:\\Users\\ann\\.travsr\\cache\\k');
  });
});
