// The plumbing that keeps bwrap's options off its command line: NUL-separated options in a
// private file on fd 3, the seccomp program on fd 4, opened by the launch script. The launches
// here run for real (bwrap on this machine).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapLaunchArgv, encodeBwrapArgs, writeBwrapArgFiles } from '../../src/sandbox/bwrap-arg-files.js';
import { seccompFilter } from '../../src/sandbox/seccomp-filter.js';
import { defaultLimits, prepareLaunch, type LaunchCommand } from '../../src/sandbox/index.js';
import { manifest } from './manifest-fixture.js';

const probeDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/sandbox');
const scratch = mkdtempSync(join(tmpdir(), 'travsr-argfiles-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('encodeBwrapArgs', () => {
  it('ends every option with a NUL byte, as bwrap --args reads them', () => {
    expect(encodeBwrapArgs(['--ro-bind', '/a b', '/plugin', 'é'])).toEqual(Buffer.from('--ro-bind\0/a b\0/plugin\0é\0'));
    expect(encodeBwrapArgs([])).toEqual(Buffer.alloc(0));
  });

  it('refuses an option holding a NUL byte (it would split into two) with LAUNCH_SPEC_INVALID', () => {
    expect(() => encodeBwrapArgs(['--setenv', 'X', 'a\0--bind'])).toThrow(expect.objectContaining({ code: 'LAUNCH_SPEC_INVALID' }));
  });
});

describe('writeBwrapArgFiles', () => {
  it('writes the options (plus --seccomp 4) and the program into files only this user can read', async () => {
    const program = Buffer.from([6, 0, 0, 0, 0, 0, 0xff, 0x7f]); // BPF_RET ALLOW
    const files = await writeBwrapArgFiles(scratch, ['--chdir', '/repo'], program);
    expect(readFileSync(files.argsFile, 'utf8')).toBe('--chdir\0/repo\0--seccomp\x004\0');
    expect(readFileSync(files.seccompFile ?? '')).toEqual(program);
    expect(statSync(files.argsFile).mode & 0o777).toBe(0o600);
    expect(statSync(files.seccompFile ?? '').mode & 0o777).toBe(0o600);
    const plain = await writeBwrapArgFiles(scratch, ['--chdir', '/repo']);
    expect(plain.seccompFile).toBeUndefined();
    expect(readFileSync(plain.argsFile, 'utf8')).toBe('--chdir\0/repo\0');
  });

  it('the launch script hands both files to the program it execs on fds 3 and 4', async () => {
    const files = await writeBwrapArgFiles(scratch, ['--opt', '/host/path'], Buffer.from('PROGRAM!'));
    const argv = bwrapLaunchArgv({ cgroupProcs: [], files, prefix: [], bwrapPath: '/bin/sh', command: ['ignored'] });
    // Stand in for bwrap: /bin/sh --args 3 -- ignored would fail, so swap in a reader of the fds.
    argv.splice(argv.indexOf('/bin/sh'), 5, '/bin/sh', '-c', 'tr "\\0" " " <&3; cat <&4');
    const r = await execa('/bin/sh', argv, { reject: false });
    expect(r.stdout).toBe('--opt /host/path --seccomp 4 PROGRAM!');
  });
});

describe('prepareLaunch on Linux', () => {
  const launched: LaunchCommand[] = [];
  afterAll(async () => {
    for (const c of launched) await c.cleanup();
  });

  it('puts no host path and no environment value on the command line: only "bwrap --args 3 --" and the command as seen inside', async () => {
    const cmd = await prepareLaunch({
      pluginDir: probeDir,
      repoRoot: scratch,
      manifest: manifest({}, { runtime: 'node', path: 'env-report.mjs' }),
      tier: 'standard',
      limits: defaultLimits(),
      env: { TRAVSR_PLUGIN_COOKIE: 'cookie-value-1234' },
    });
    launched.push(cmd);
    const at = cmd.args.findIndex((a) => a.endsWith('/bwrap'));
    expect(cmd.args.slice(at + 1, at + 4)).toEqual(['--args', '3', '--']);
    const inside = cmd.args.slice(at + 4);
    expect(inside[2]).toBe('/plugin/env-report.mjs');
    expect(inside.join(' ')).not.toContain(probeDir);
    expect(cmd.args.join(' ')).not.toContain('cookie-value-1234');
    const argsFile = cmd.args.find((a) => a.endsWith('/bwrap.args')) ?? '';
    const options = readFileSync(argsFile, 'utf8').split('\0');
    expect(options).toContain(probeDir);
    expect(options).toContain('cookie-value-1234');
    expect(options.slice(-3, -1)).toEqual(['--seccomp', '4']);
    const seccompFile = cmd.args[cmd.args.indexOf(argsFile) + 1] ?? '';
    expect(readFileSync(seccompFile)).toEqual(seccompFilter('standard')?.program);
    expect(cmd.description.join('\n')).toContain('system calls: seccomp filter for');
    const r = await execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { cwd: string }).cwd).toBe('/repo');
  });
});
