import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LaunchSpecError } from './errors.js';

/** The descriptor bwrap reads its options from (`--args 3`). */
export const ARGS_FD = 3;
/** The descriptor bwrap reads the seccomp program from (`--seccomp 4`, written into the options). */
export const SECCOMP_FD = 4;

/**
 * Enters every cgroup given as arguments, opens the options file on fd 3 and, when named, the
 * seccomp program on fd 4, then execs the rest (prlimit … bwrap --args 3 -- command). bwrap
 * reads and closes both descriptors before the plugin starts.
 */
export const BWRAP_LAUNCH_SCRIPT =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || { echo "travsr: cannot enter cgroup $1" >&2; exit 125; }; shift; n=$((n-1)); done; ' +
  `exec ${ARGS_FD}< "$1" || exit 125; shift; if [ -n "$1" ]; then exec ${SECCOMP_FD}< "$1" || exit 125; fi; shift; exec "$@"`;

/** bwrap options as `--args` reads them: each one followed by a NUL byte. */
export function encodeBwrapArgs(args: readonly string[]): Buffer {
  const bad = args.find((a) => a.includes('\0'));
  if (bad !== undefined) throw new LaunchSpecError(`a sandbox argument contains a NUL byte (${JSON.stringify(bad)}); remove it`);
  return Buffer.from(args.map((a) => `${a}\0`).join(''), 'utf8');
}

/** The files a launch hands to bwrap through descriptors, in the session directory. */
export interface BwrapArgFiles {
  argsFile: string;
  seccompFile?: string;
}

/**
 * Writes bwrap's options (and the seccomp program, adding `--seccomp 4` to the options) into
 * the private session directory, readable by this user only.
 *
 * Why files and not pipes: bwrap's own command line is what the sandbox sees as
 * /proc/1/cmdline, so the options (host paths of the plugin, the repository, the proxy socket)
 * must come through a descriptor; files opened by the launch script keep {@link LaunchCommand}
 * a plain `file` + `args` that any spawner can run, and run again after a crash.
 */
export async function writeBwrapArgFiles(sessionDir: string, options: readonly string[], seccomp?: Buffer): Promise<BwrapArgFiles> {
  const argsFile = join(sessionDir, 'bwrap.args');
  const all = seccomp ? [...options, '--seccomp', String(SECCOMP_FD)] : [...options];
  await writeFile(argsFile, encodeBwrapArgs(all), { mode: 0o600 });
  if (!seccomp) return { argsFile };
  const seccompFile = join(sessionDir, 'seccomp.bpf');
  await writeFile(seccompFile, seccomp, { mode: 0o600 });
  return { argsFile, seccompFile };
}

/**
 * The argv after `/bin/sh -c` that runs {@link BWRAP_LAUNCH_SCRIPT}: cgroups to enter, the
 * files, then `prefix` (prlimit …), bwrap, `--args 3 --` and the command inside. Only the
 * command inside (paths as the sandbox sees them) appears on bwrap's command line.
 */
export function bwrapLaunchArgv(opts: {
  cgroupProcs: readonly string[];
  files: BwrapArgFiles;
  prefix: readonly string[];
  bwrapPath: string;
  command: readonly string[];
}): string[] {
  return [
    '-c',
    BWRAP_LAUNCH_SCRIPT,
    'travsr-sandbox',
    String(opts.cgroupProcs.length),
    ...opts.cgroupProcs,
    opts.files.argsFile,
    opts.files.seccompFile ?? '',
    ...opts.prefix,
    opts.bwrapPath,
    '--args',
    String(ARGS_FD),
    '--',
    ...opts.command,
  ];
}
