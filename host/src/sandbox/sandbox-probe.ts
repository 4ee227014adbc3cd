import { constants, existsSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { release } from 'node:os';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { runtimeArgs } from './bwrap-args.js';
import { linuxProfile } from './linux-profile.js';
import { ProbeRecord, probeKey } from './probe-record.js';
import { seccompFilter } from './seccomp-filter.js';

/** The result of {@link probeSandbox}. */
export type SandboxProbe = { ok: true; tool: string; version: string } | { ok: false; reason: string; fix: string };

/** What prepareLaunch needs to know about the Linux sandbox tools. */
export interface LinuxSandboxInfo {
  bwrapPath: string;
  bwrapVersion: string;
  /** This bwrap accepts `--disable-userns` (0.8.0+), so the plugin cannot nest user namespaces. */
  disableUserns: boolean;
  prlimitPath: string;
}

/** Options of {@link probeSandbox}. */
export interface ProbeOptions {
  /** bwrap to use (default: `TRAVSR_BWRAP`, else the first bwrap in /usr/bin, /usr/local/bin, PATH). */
  bwrapPath?: string;
  /** prlimit to use (default: `TRAVSR_PRLIMIT`, else /usr/bin/prlimit or PATH). */
  prlimitPath?: string;
  /** Probe again instead of returning the result cached in this process or recorded by an earlier one. */
  refresh?: boolean;
}

const INSTALL_BWRAP =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or set TRAVSR_BWRAP to its path';
const ENABLE_USERNS =
  'enable unprivileged user namespaces: sysctl -w kernel.unprivileged_userns_clone=1 (Debian), ' +
  'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap (Ubuntu 23.10+), ' +
  'sysctl -w user.max_user_namespaces=15000; inside a container, start it with --security-opt seccomp=unconfined --security-opt apparmor=unconfined';

type LinuxProbe = { ok: true; info: LinuxSandboxInfo } | { ok: false; reason: string; fix: string };

const cache = new Map<string, Promise<LinuxProbe>>();

function findExecutable(name: string, preferred: readonly string[]): string | undefined {
  const dirs = [...preferred, ...(process.env['PATH'] ?? '').split(delimiter).filter((d) => d.startsWith('/'))];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The bwrap path that will be used (override, env, or search); undefined when none is found. */
export function resolveBwrapPath(override?: string): string | undefined {
  return override ?? process.env['TRAVSR_BWRAP'] ?? findExecutable('bwrap', ['/usr/bin', '/usr/local/bin']);
}

/** The prlimit path that will be used (override, `TRAVSR_PRLIMIT`, or search); undefined when none is found. */
export function resolvePrlimitPath(override?: string): string | undefined {
  return override ?? process.env['TRAVSR_PRLIMIT'] ?? findExecutable('prlimit', ['/usr/bin', '/bin']);
}

function versionAtLeast(version: string, min: string): boolean {
  const a = version.split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** The smallest real sandbox: the same isolation flags and seccomp program (on fd 3) a plugin gets, running `true`. */
function probeArgs(disableUserns: boolean, seccomp: boolean): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--cap-drop',
    'ALL',
    ...runtimeArgs(linuxProfile()),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(1 << 20),
    '--tmpfs',
    '/tmp',
    '--remount-ro',
    '/',
    ...(seccomp ? ['--seccomp', '3'] : []),
    '--',
    '/usr/bin/true',
  ];
}

const NO_SECCOMP =
  'use a kernel built with CONFIG_SECCOMP and CONFIG_SECCOMP_FILTER (every mainstream distribution kernel is); inside a container, allow seccomp(2) and prctl(2)';

function userNamespacesDisabled(): boolean {
  try {
    return readFileSync('/proc/sys/user/max_user_namespaces', 'utf8').trim() === '0';
  } catch {
    return false;
  }
}

async function probeLinuxUncached(bwrapPath: string | undefined, prlimitPath: string | undefined, refresh: boolean): Promise<LinuxProbe> {
  if (!bwrapPath) return { ok: false, reason: 'bubblewrap (bwrap) is not installed', fix: INSTALL_BWRAP };
  try {
    await access(bwrapPath, constants.X_OK);
  } catch {
    return { ok: false, reason: `bubblewrap was not found at ${bwrapPath} (or is not executable)`, fix: INSTALL_BWRAP };
  }
  if (!prlimitPath) {
    return {
      ok: false,
      reason: 'prlimit (util-linux) is not installed, so no resource limits can be applied',
      fix: 'install util-linux (Debian/Ubuntu: apt-get install util-linux), or set TRAVSR_PRLIMIT to its path',
    };
  }
  const program = seccompFilter('standard')?.program;
  // An earlier process's successful probe under exactly these conditions (see ProbeRecord).
  const record = new ProbeRecord(probeKey({ bwrapPath, prlimitPath, probe: [probeArgs(true, program !== undefined).join('\0'), program] }));
  const known = refresh ? undefined : record.read();
  if (known) return { ok: true, info: { bwrapPath, bwrapVersion: known.bwrapVersion, disableUserns: known.disableUserns, prlimitPath } };
  const quiet = { reject: false, timeout: 10_000, stdin: 'ignore', extendEnv: false, env: { PATH: '/usr/bin:/bin', LANG: 'C' } } as const;
  const ver = await execa(bwrapPath, ['--version'], quiet);
  const match = /(\d+\.\d+\.\d+)/.exec(String(ver.stdout));
  if (ver.exitCode !== 0 || !match?.[1]) {
    return {
      ok: false,
      reason: `${bwrapPath} --version failed: ${String(ver.stderr || ver.stdout).trim() || (ver.shortMessage ?? 'no output')}`,
      fix: INSTALL_BWRAP,
    };
  }
  const version = match[1];
  const min = linuxProfile().minBwrapVersion;
  if (!versionAtLeast(version, min)) {
    return {
      ok: false,
      reason: `bubblewrap ${version} is too old (Travsr needs ${min} or later for --size and --remount-ro)`,
      fix: `upgrade bubblewrap to ${min} or later`,
    };
  }
  let disableUserns = versionAtLeast(version, '0.8.0');
  const sandboxed = (dis: boolean) =>
    execa(bwrapPath, probeArgs(dis, program !== undefined), {
      reject: false,
      timeout: 10_000,
      extendEnv: false,
      env: quiet.env,
      stdio: ['ignore', 'pipe', 'pipe', program ?? 'ignore'],
    });
  let run = await sandboxed(disableUserns);
  if (run.exitCode !== 0 && disableUserns && /disable-userns/.test(String(run.stderr))) {
    disableUserns = false;
    run = await sandboxed(false);
  }
  if (run.exitCode !== 0) {
    const stderr = String(run.stderr).trim() || (run.shortMessage ?? `exit code ${String(run.exitCode)}`);
    if (/seccomp/i.test(stderr)) {
      return { ok: false, reason: `bubblewrap cannot apply Travsr's seccomp filter (${stderr})`, fix: NO_SECCOMP };
    }
    const blocked = userNamespacesDisabled() || /namespace|uid map|Operation not permitted|Permission denied/i.test(stderr);
    return blocked
      ? { ok: false, reason: `bubblewrap cannot create a sandbox because user namespaces are blocked (${stderr})`, fix: ENABLE_USERNS }
      : {
          ok: false,
          reason: `bubblewrap ${version} failed to start a test sandbox: ${stderr}`,
          fix: `check that ${bwrapPath} works: ${bwrapPath} --unshare-all --ro-bind /usr /usr -- /usr/bin/true`,
        };
  }
  record.write({ bwrapVersion: version, disableUserns });
  return { ok: true, info: { bwrapPath, bwrapVersion: version, disableUserns, prlimitPath } };
}

/**
 * Probes the Linux sandbox once per (bwrap, prlimit) pair and process; used by prepareLaunch. A
 * success is recorded in the Travsr home and reused by later processes while nothing it
 * depends on has changed (see {@link ProbeRecord}).
 */
export function probeLinux(options: ProbeOptions = {}): Promise<LinuxProbe> {
  const bwrapPath = resolveBwrapPath(options.bwrapPath);
  const prlimitPath = resolvePrlimitPath(options.prlimitPath);
  const key = `${bwrapPath ?? ''}\0${prlimitPath ?? ''}`;
  let p = options.refresh ? undefined : cache.get(key);
  if (!p) {
    p = probeLinuxUncached(bwrapPath, prlimitPath, options.refresh === true);
    cache.set(key, p);
  }
  return p;
}

/**
 * Starts the Linux probe now without waiting for it (its result is cached per process), so
 * that a launch prepared later finds it done: a plugin session calls this before verifying
 * the plugin's files. Does nothing on other systems.
 */
export function warmSandboxProbe(): void {
  if (process.platform === 'linux') probeLinux().catch(() => undefined);
}

/**
 * Whether a sandbox can run on `platform` (default: this machine). On Linux it really
 * starts bwrap once (unshared namespaces, the flags plugins get) so that blocked user
 * namespaces are detected; the result is cached. macOS and Windows are only probed on
 * those systems: from elsewhere the answer is `ok: false`.
 */
export async function probeSandbox(platform: NodeJS.Platform = process.platform, options: ProbeOptions = {}): Promise<SandboxProbe> {
  if (platform !== process.platform) {
    return { ok: false, reason: `a ${platform} sandbox cannot be probed from ${process.platform}`, fix: `run the probe on ${platform}` };
  }
  if (platform === 'linux') {
    const r = await probeLinux(options);
    return r.ok ? { ok: true, tool: 'bwrap', version: r.info.bwrapVersion } : { ok: false, reason: r.reason, fix: r.fix };
  }
  if (platform === 'darwin') {
    return existsSync('/usr/bin/sandbox-exec')
      ? { ok: true, tool: 'sandbox-exec', version: `darwin ${release()}` }
      : {
          ok: false,
          reason: '/usr/bin/sandbox-exec is missing',
          fix: 'Travsr needs macOS sandbox-exec (part of macOS); reinstall the OS tools',
        };
  }
  if (platform === 'win32') {
    const launcher = process.env['TRAVSR_APPCONTAINER_LAUNCHER'];
    return launcher && existsSync(launcher)
      ? { ok: true, tool: 'appcontainer', version: release() }
      : {
          ok: false,
          reason: 'the AppContainer launcher (travsr-appcontainer.exe) is not installed',
          fix: 'build or install travsr-appcontainer.exe and set TRAVSR_APPCONTAINER_LAUNCHER to its path',
        };
  }
  return { ok: false, reason: `Travsr has no sandbox for ${platform}`, fix: 'run Travsr on Linux, macOS or Windows' };
}
