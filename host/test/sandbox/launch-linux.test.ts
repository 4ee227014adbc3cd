// prepareLaunch on Linux: refusals, errors, and the shape of the command it builds. The
// commands that run here run for real (bwrap 0.8 on this machine); see test/sandbox for
// the isolation suite.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, prepareLaunch, probeSandbox, type LaunchCommand, type LaunchSpec } from '../../src/sandbox/index.js';
import { manifest } from './manifest-fixture.js';

const probeDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/sandbox');
const envReport = manifest({}, { runtime: 'node', path: 'env-report.mjs' });
const spec = (over: Partial<LaunchSpec> = {}): LaunchSpec => ({
  pluginDir: probeDir,
  manifest: envReport,
  tier: 'standard',
  limits: defaultLimits(),
  env: { TRAVSR_PLUGIN_COOKIE: 'c' },
  ...over,
});

async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string; fix?: string; checks?: unknown[] }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; message: string; fix?: string };
  }
  throw new Error('expected a rejection');
}

/** The bwrap options of a launch: they go to bwrap through a file on fd 3 (`--args 3`), not its command line. */
function bwrapOptions(cmd: LaunchCommand): string[] {
  const file = cmd.args.find((a) => a.endsWith('/bwrap.args'));
  if (file === undefined) throw new Error(`no bwrap.args file in ${cmd.args.join(' ')}`);
  return readFileSync(file, 'utf8').split('\0').slice(0, -1);
}

/** The value following `flag` in `args`, for each occurrence. */
function after(args: string[], flag: string, count = 1): string[][] {
  const out: string[][] = [];
  args.forEach((a, i) => {
    if (a === flag) out.push(args.slice(i + 1, i + 1 + count));
  });
  return out;
}

let scratch = '';
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'travsr-launch-test-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('refusals and errors', () => {
  it('refuses the unsandboxed tier without allowUnsandboxed, naming travsr lang allow-unsandboxed', async () => {
    const e = await rejection(prepareLaunch(spec({ tier: 'unsandboxed' })));
    expect(e.code).toBe('CONSTRAINT_REFUSED');
    expect(e.message).toContain('travsr lang allow-unsandboxed probe');
  });

  it('refuses a manifest that asks for more than the tier grants, before anything starts', async () => {
    const e = await rejection(prepareLaunch(spec({ manifest: manifest({ network: { allow: ['example.com'] } }, envReport.entrypoint) })));
    expect(e.code).toBe('CONSTRAINT_REFUSED');
    expect(e.message).toContain('constraint network asks for hosts example.com but none is granted');
  });

  it('reports a missing bwrap as SANDBOX_UNAVAILABLE with the install fix (option and TRAVSR_BWRAP)', async () => {
    const e = await rejection(prepareLaunch(spec({ bwrapPath: '/nonexistent/bwrap' })));
    expect(e.code).toBe('SANDBOX_UNAVAILABLE');
    expect(e.message).toContain('bubblewrap was not found at /nonexistent/bwrap');
    expect(e.fix).toContain('apt-get install bubblewrap');
    const saved = process.env['TRAVSR_BWRAP'];
    process.env['TRAVSR_BWRAP'] = '/nonexistent/bwrap';
    try {
      expect(await probeSandbox('linux')).toMatchObject({ ok: false, reason: expect.stringContaining('not found') as unknown });
      expect((await rejection(prepareLaunch(spec()))).code).toBe('SANDBOX_UNAVAILABLE');
    } finally {
      if (saved === undefined) delete process.env['TRAVSR_BWRAP'];
      else process.env['TRAVSR_BWRAP'] = saved;
    }
  });

  it('reports blocked user namespaces with the sysctl fix (a stand-in bwrap that fails like a locked-down kernel)', async () => {
    const fake = join(scratch, 'bwrap');
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n',
    );
    chmodSync(fake, 0o755);
    const probe = await probeSandbox('linux', { bwrapPath: fake });
    expect(probe).toMatchObject({ ok: false, reason: expect.stringContaining('user namespaces are blocked') as unknown });
    expect(probe.ok ? '' : probe.fix).toContain('kernel.unprivileged_userns_clone=1');
    const e = await rejection(prepareLaunch(spec({ bwrapPath: fake })));
    expect(e.code).toBe('SANDBOX_UNAVAILABLE');
  });

  it('reports a kernel that refuses the seccomp filter with the CONFIG_SECCOMP_FILTER fix (the real bwrap handed an invalid program)', async () => {
    const bad = join(scratch, 'invalid.bpf');
    writeFileSync(bad, Buffer.alloc(16)); // two loads and no return: the kernel answers EINVAL, as one without seccomp filters does
    const fake = join(scratch, 'bwrap-bad-seccomp');
    writeFileSync(fake, `#!/bin/sh\nexec 3< ${JSON.stringify(bad)}\nexec /usr/bin/bwrap "$@"\n`);
    chmodSync(fake, 0o755);
    const probe = await probeSandbox('linux', { bwrapPath: fake });
    expect(probe).toMatchObject({ ok: false, reason: expect.stringContaining("cannot apply Travsr's seccomp filter") as unknown });
    expect(probe.ok ? '' : probe.fix).toContain('CONFIG_SECCOMP_FILTER');
    expect((await rejection(prepareLaunch(spec({ bwrapPath: fake })))).code).toBe('SANDBOX_UNAVAILABLE');
  });

  it('probes the real bwrap on this machine once and caches it', async () => {
    const a = await probeSandbox();
    expect(a).toMatchObject({ ok: true, tool: 'bwrap' });
    expect(await probeSandbox()).toEqual(a);
    expect(await probeSandbox('darwin')).toMatchObject({ ok: false, reason: 'a darwin sandbox cannot be probed from linux' });
  });

  it('rejects bad specs with LAUNCH_SPEC_INVALID: relative paths, reserved env, missing entrypoint, bad limits', async () => {
    expect((await rejection(prepareLaunch(spec({ pluginDir: 'relative/dir' })))).code).toBe('LAUNCH_SPEC_INVALID');
    expect((await rejection(prepareLaunch(spec({ env: { PATH: '/evil' } })))).message).toContain('env PATH is set by the sandbox itself');
    expect((await rejection(prepareLaunch(spec({ manifest: manifest({}, { runtime: 'node', path: 'missing.mjs' }) })))).message).toContain(
      'does not exist',
    );
    expect((await rejection(prepareLaunch(spec({ limits: { ...defaultLimits(), processes: 0 } })))).code).toBe('LAUNCH_SPEC_INVALID');
  });
});

describe('Linux command', () => {
  const launched: LaunchCommand[] = [];
  const launch = async (over: Partial<LaunchSpec>): Promise<LaunchCommand> => {
    const cmd = await prepareLaunch(spec(over));
    launched.push(cmd);
    return cmd;
  };
  afterAll(async () => {
    for (const c of launched) await c.cleanup();
  });

  it('standard: unshares every namespace, drops capabilities, clears the environment, binds nothing of /etc but ld.so.cache', async () => {
    const args = bwrapOptions(await launch({ repoRoot: probeDir }));
    for (const flag of [
      '--unshare-user',
      '--unshare-ipc',
      '--unshare-pid',
      '--unshare-net',
      '--unshare-uts',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
    ]) {
      expect(args, flag).toContain(flag);
    }
    expect(after(args, '--cap-drop')).toEqual([['ALL']]);
    expect(after(args, '--tmpfs')).toEqual([['/tmp']]);
    expect(args[args.indexOf('--tmpfs') - 2]).toBe('--size');
    const binds = [...after(args, '--ro-bind', 2), ...after(args, '--ro-bind-try', 2), ...after(args, '--bind', 2)];
    expect(binds.filter(([src]) => src?.startsWith('/etc'))).toEqual([['/etc/ld.so.cache', '/etc/ld.so.cache']]);
    expect(binds).toContainEqual([probeDir, '/plugin']);
    expect(binds).toContainEqual([probeDir, '/repo']);
    expect(binds.some(([src]) => src === process.env['HOME'] || src === '/root')).toBe(false);
    expect(after(args, '--chdir')).toEqual([['/repo']]);
  });

  it('native-ipc: keeps the IPC namespace and adds a private /dev/shm', async () => {
    const cmd = await launch({ tier: 'native-ipc', manifest: manifest({ ipc: 'posix-shm' }, envReport.entrypoint) });
    const { description } = cmd;
    const args = bwrapOptions(cmd);
    expect(args).not.toContain('--unshare-ipc');
    expect(args).toContain('--unshare-net');
    expect(after(args, '--tmpfs')).toEqual([['/tmp'], ['/dev/shm']]);
    expect(description.join('\n')).toContain("the host's IPC namespace");
  });

  it('elevated: network still unshared; the proxy socket is bound at /run/travsr/proxy.sock and removed by cleanup', async () => {
    const cmd = await launch({ tier: 'elevated', manifest: manifest({ network: { allow: ['example.com'] } }, envReport.entrypoint) });
    const options = bwrapOptions(cmd);
    expect(options).toContain('--unshare-net');
    const sock = after(options, '--ro-bind', 2).find(([, dest]) => dest === '/run/travsr/proxy.sock')?.[0] ?? '';
    expect(existsSync(sock)).toBe(true);
    expect(after(options, '--setenv', 2)).toContainEqual(['TRAVSR_PROXY_SOCKET', '/run/travsr/proxy.sock']);
    await cmd.cleanup();
    await cmd.cleanup();
    expect(existsSync(sock)).toBe(false);
    expect(existsSync(dirname(sock))).toBe(false);
  });

  it('applies the limits with prlimit (and, as root, a pids cgroup) and only the declared environment', async () => {
    const limits = { ...defaultLimits(), cpuSeconds: 77, openFiles: 99, memoryMiB: 300, processes: 64 };
    const saved = process.env['AWS_SECRET_ACCESS_KEY'];
    process.env['AWS_SECRET_ACCESS_KEY'] = 'host-secret';
    try {
      const cmd = await launch({ limits });
      if (process.getuid?.() === 0) {
        // RLIMIT_NPROC is not enforced for root: the launch enters a pids cgroup first.
        expect(cmd.file).toBe('/bin/sh');
        const procs = cmd.args.find((a) => a.endsWith('/cgroup.procs') && a.includes('/pids/')) ?? '';
        expect(readFileSync(join(dirname(procs), 'pids.max'), 'utf8').trim()).toBe('64');
      }
      const r = await execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false, reject: false });
      expect(r.exitCode, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as {
        envKeys: string[];
        aws: string | null;
        limits: Record<string, string[]>;
        execArgv: string[];
      };
      expect(report.aws).toBeNull();
      expect(report.envKeys).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR', 'TRAVSR_PLUGIN_COOKIE']);
      expect(report.limits['Max cpu time']).toEqual(['77', '78']);
      expect(report.limits['Max open files']).toEqual(['99', '99']);
      expect(report.limits['Max data size']).toEqual([String(300 * 1048576), String(300 * 1048576)]);
      expect(report.limits['Max core file size']).toEqual(['0', '0']);
      expect(report.execArgv).toEqual(['--max-old-space-size=225']);
      const procs = cmd.args.find((a) => a.endsWith('/cgroup.procs'));
      await cmd.cleanup();
      if (procs) expect(existsSync(dirname(procs))).toBe(false);
    } finally {
      if (saved === undefined) delete process.env['AWS_SECRET_ACCESS_KEY'];
      else process.env['AWS_SECRET_ACCESS_KEY'] = saved;
    }
  });

  it('a brief session: the sandboxed node compiles WebAssembly with the baseline compiler only, and the trace says so', async () => {
    const cmd = await launch({ brief: true });
    const r = await execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { execArgv: string[] }).execArgv).toContain('--liftoff-only');
    expect(cmd.description.join('\n')).toMatch(/--liftoff-only: a brief session/);
  });

  it('unsandboxed (allowed): runs the entrypoint directly, in the repository, with the minimal environment and the limits', async () => {
    const cmd = await launch({
      tier: 'unsandboxed',
      allowUnsandboxed: true,
      repoRoot: scratch,
      limits: { ...defaultLimits(), cpuSeconds: 55 },
    });
    expect(cmd.pluginRootInside).toBe(probeDir);
    expect(cmd.args).not.toContain('/usr/bin/bwrap');
    const r = await execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { envKeys: string[]; cwd: string; limits: Record<string, string[]> };
    expect(report.cwd).toBe(scratch);
    expect(report.envKeys).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR', 'TRAVSR_PLUGIN_COOKIE']);
    expect(report.limits['Max cpu time']).toEqual(['55', '56']);
  });
});
