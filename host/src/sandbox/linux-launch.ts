import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AllowlistProxy } from './allowlist-proxy.js';
import { bwrapLaunchArgv, writeBwrapArgFiles } from './bwrap-arg-files.js';
import { buildBwrapArgs, cacheBindProblem } from './bwrap-args.js';
import { CleanupStack } from './cleanup-stack.js';
import { entrypointArgv, nodeHeapMiB } from './entrypoint.js';
import { proxyAllowlist } from './constraints.js';
import { LaunchSpecError, SandboxUnavailableError } from './errors.js';
import type { LaunchCommand, LaunchSpec } from './launch-spec.js';
import type { ResourceLimits } from './limits.js';
import { linuxProfile } from './linux-profile.js';
import { countUserTasks, createProcessCgroup, type ProcessCgroup } from './process-cgroup.js';
import { probeLinux, resolvePrlimitPath } from './sandbox-probe.js';
import { seccompFilter } from './seccomp-filter.js';

/** Enters every cgroup given as arguments, optionally changes directory, then execs the rest. */
const ENTER_SCRIPT =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || { echo "travsr: cannot enter cgroup $1" >&2; exit 125; }; shift; n=$((n-1)); done; ' +
  'if [ -n "$1" ]; then cd -- "$1" || exit 125; unset OLDPWD; fi; shift; exec "$@"';

/** Where the host runs as root (the kernel does not enforce RLIMIT_NPROC for root). */
function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function prlimitArgs(limits: ResourceLimits, nproc: number): string[] {
  return [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--data=${limits.memoryMiB * 1024 * 1024}`,
    `--nofile=${limits.openFiles}`,
    `--nproc=${nproc}`,
    `--fsize=${limits.tmpMiB * 1024 * 1024}`,
    '--core=0',
    '--',
  ];
}

function limitLines(limits: ResourceLimits, nproc: number, cg: ProcessCgroup | undefined): string[] {
  const procs = cg
    ? `processes: ${limits.processes} tasks (pids cgroup ${cg.dirs[0] ?? ''}; RLIMIT_NPROC ${nproc})`
    : `processes: ${limits.processes} tasks above the user's current ${nproc - limits.processes} (RLIMIT_NPROC ${nproc})`;
  const mem =
    cg?.memoryBytes !== undefined
      ? `memory: ${limits.memoryMiB} MiB per process (RLIMIT_DATA), ${cg.memoryBytes / 1048576} MiB in all incl. tmpfs (memory cgroup)`
      : `memory: ${limits.memoryMiB} MiB per process (RLIMIT_DATA)`;
  return [
    `cpu: ${limits.cpuSeconds} s per process (RLIMIT_CPU: SIGXCPU, then SIGKILL a second later)`,
    mem,
    procs,
    `open files: ${limits.openFiles}; file size: ${limits.tmpMiB} MiB; core dumps: off`,
    `output: ${limits.outputBytes} bytes (enforced by the host)`,
  ];
}

/** Why a sandboxed tier runs without a seccomp program, for the trace. */
function seccompGap(tier: string): string {
  return ['x64', 'arm64'].includes(process.arch)
    ? `sandbox-profiles/linux/seccomp.json does not list tier ${tier}`
    : `no program is compiled for ${process.arch}; sandbox-profiles/linux/seccomp-generate.py builds x86_64 and aarch64`;
}

/** Builds (and for elevated, starts the proxy of) a Linux launch. Constraints are already checked. */
export async function prepareLinuxLaunch(spec: LaunchSpec, env: Record<string, string>): Promise<LaunchCommand> {
  const { manifest, limits, tier } = spec;
  const stack = new CleanupStack();
  try {
    const prlimitPath = resolvePrlimitPath();
    let bwrap: { path: string; version: string; disableUserns: boolean } | undefined;
    if (tier !== 'unsandboxed') {
      const probe = await probeLinux(spec.bwrapPath !== undefined ? { bwrapPath: spec.bwrapPath } : {});
      if (!probe.ok) throw new SandboxUnavailableError(probe.reason, probe.fix);
      bwrap = { path: probe.info.bwrapPath, version: probe.info.bwrapVersion, disableUserns: probe.info.disableUserns };
    }
    if (!prlimitPath) {
      throw new SandboxUnavailableError(
        'prlimit (util-linux) is not installed, so no resource limits can be applied',
        'install util-linux (apt-get install util-linux), or set TRAVSR_PRLIMIT',
      );
    }
    const pluginDir = await realpath(spec.pluginDir);
    const repoRoot = spec.repoRoot !== undefined ? await realpath(spec.repoRoot) : undefined;
    const nodePath = await realpath(spec.nodePath ?? process.execPath);
    const cacheDir = spec.cacheDir !== undefined ? await realpath(spec.cacheDir) : undefined;

    const sessionDir = await mkdtemp(join(tmpdir(), 'travsr-sbx-'));
    stack.push(() => rm(sessionDir, { recursive: true, force: true }));
    const session = sessionDir.slice(sessionDir.lastIndexOf('-') + 1);

    const cg = await createProcessCgroup(session, limits);
    if (cg) stack.push(() => cg.remove());
    else if (isRoot()) {
      throw new SandboxUnavailableError(
        'Travsr runs as root, where the kernel does not enforce RLIMIT_NPROC, and no writable pids cgroup was found to cap processes',
        'run Travsr as a non-root user, or give it a writable pids cgroup (cgroup v1: mount the pids controller at /sys/fs/cgroup/pids; cgroup v2: enable +pids in the subtree_control of its cgroup)',
      );
    }
    const nproc = isRoot() ? limits.processes : countUserTasks(process.getuid?.() ?? -1) + limits.processes;

    const description: string[] = [];
    let file: string;
    let args: string[];
    let outerEnv: Record<string, string>;
    let pluginRootInside: string;
    let repoRootInside: string | undefined;
    let envNames: string[];

    if (tier === 'unsandboxed' || !bwrap) {
      const runEnv = {
        ...env,
        PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
        HOME: homedir(),
        TMPDIR: sessionDir,
        LANG: 'C.UTF-8',
      };
      const command = entrypointArgv(manifest, {
        pluginRoot: pluginDir,
        nodePath,
        memoryMiB: limits.memoryMiB,
        platform: 'linux',
        brief: spec.brief,
      });
      file = '/bin/sh';
      args = [
        '-c',
        ENTER_SCRIPT,
        'travsr-sandbox',
        String(cg?.procsFiles.length ?? 0),
        ...(cg?.procsFiles ?? []),
        repoRoot ?? pluginDir,
        prlimitPath,
        ...prlimitArgs(limits, nproc),
        ...command,
      ];
      outerEnv = runEnv;
      envNames = Object.keys(runEnv);
      pluginRootInside = pluginDir;
      repoRootInside = repoRoot;
      description.push(
        'tier unsandboxed: no sandbox (allowed with travsr lang allow-unsandboxed); the plugin sees everything this user can',
        ...(cacheDir !== undefined ? [`cache: ${cacheDir} (the plugin's cache for this repository, kept between sessions)`] : []),
      );
    } else {
      const profile = linuxProfile();
      const m = profile.mounts;
      const cacheProblem = cacheDir !== undefined ? cacheBindProblem(cacheDir, profile) : undefined;
      if (cacheProblem !== undefined)
        throw new LaunchSpecError(
          `the plugin cache directory ${cacheDir ?? ''} cannot be bound into the sandbox: ${cacheProblem}; set TRAVSR_HOME to a directory under your home`,
        );
      let proxySocket: string | undefined;
      const insideEnv: Record<string, string> = { ...profile.env, ...env };
      const tools = spec.tools ?? [];
      if (tools.length > 0) {
        const dirs = [...new Set(tools.map((t) => dirname(t.path)))];
        insideEnv['PATH'] = [...dirs, profile.env['PATH'] ?? '/usr/bin:/bin'].join(':');
      }
      const toolBinds = [...new Set(tools.flatMap((t) => (t.bind ? [t.bind] : [])))];
      if (tier === 'elevated') {
        const allow = proxyAllowlist(manifest);
        proxySocket = join(sessionDir, 'proxy.sock');
        const proxy = await AllowlistProxy.start({ socketPath: proxySocket, allow });
        stack.push(() => proxy.close());
        insideEnv['TRAVSR_PROXY_SOCKET'] = m.proxySocket;
        description.push(
          `network: only through the allowlist proxy at ${m.proxySocket} (TRAVSR_PROXY_SOCKET) to ${allow.join(', ') || 'no hosts'}`,
        );
      } else {
        description.push('network: none (network namespace unshared)');
      }
      const underUsr = profile.runtime.roBind.some((p) => nodePath.startsWith(`${p}/`));
      const nodeOutside = manifest.entrypoint.runtime === 'node' && !underUsr;
      const command = entrypointArgv(manifest, {
        pluginRoot: m.plugin,
        nodePath: nodeOutside ? m.node : nodePath,
        memoryMiB: limits.memoryMiB,
        platform: 'linux',
        brief: spec.brief,
      });
      const bwrapOptions = buildBwrapArgs({
        tier,
        profile,
        disableUserns: bwrap.disableUserns,
        pluginDir,
        ...(repoRoot !== undefined ? { repoRoot } : {}),
        tmpMiB: limits.tmpMiB,
        env: insideEnv,
        ...(proxySocket !== undefined ? { proxySocket } : {}),
        extraReadOnly: toolBinds,
        ...(cacheDir !== undefined ? { cacheDir } : {}),
        ...(nodeOutside ? { nodeBinary: nodePath } : {}),
        chdir: repoRoot !== undefined ? m.repo : m.plugin,
      });
      const filter = seccompFilter(tier);
      // Through descriptors: bwrap's command line is the sandbox's /proc/1/cmdline.
      const files = await writeBwrapArgFiles(sessionDir, bwrapOptions, filter?.program);
      file = '/bin/sh';
      args = bwrapLaunchArgv({
        cgroupProcs: cg?.procsFiles ?? [],
        files,
        prefix: [prlimitPath, ...prlimitArgs(limits, nproc)],
        bwrapPath: bwrap.path,
        command,
      });
      description.push(
        filter
          ? `system calls: seccomp filter for ${filter.arch} (sandbox-profiles/linux/seccomp.json): ptrace, keyrings, bpf, mount, namespaces, personality, userfaultfd, io_uring, rare socket families and the like are refused`
          : `system calls: no seccomp filter (${seccompGap(tier)})`,
        'bwrap options passed through a descriptor (--args), so no host path is on the command line inside',
      );
      outerEnv = { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' };
      envNames = Object.keys(insideEnv);
      pluginRootInside = m.plugin;
      repoRootInside = repoRoot !== undefined ? m.repo : undefined;
      const tierProfile = profile.tiers[tier];
      description.unshift(
        `tier ${tier}: bwrap ${bwrap.version}, namespaces unshared: ${tierProfile.unshare.join(', ')}${bwrap.disableUserns ? ' (nested user namespaces disabled)' : ''}; all capabilities dropped; new session; dies with the host`,
        `read-only: ${[...profile.runtime.roBind, ...(nodeOutside ? [`${m.node} (${nodePath})`] : [])].join(', ')}, ${m.plugin} (${pluginDir})${repoRoot !== undefined ? `, ${m.repo} (${repoRoot})` : ''}; nothing else of the host (no $HOME, no /etc beyond ld.so.cache)`,
        ...(tools.length > 0
          ? [
              `tools (constraints.tools): ${tools.map((t) => `${t.name} at ${t.path}${t.bind ? ` (bound read-only: ${t.bind})` : ''}`).join(', ')}; their directories first on PATH`,
            ]
          : []),
        `writable: ${m.tmp} (private tmpfs, ${limits.tmpMiB} MiB)${tierProfile.devShm ? `, /dev/shm (private tmpfs, ${limits.tmpMiB} MiB)` : ''}${cacheDir !== undefined ? `, ${cacheDir} (the plugin's cache for this repository, kept between sessions)` : ''}`,
        `ipc: ${tierProfile.unshare.includes('ipc') ? 'private IPC namespace' : "the host's IPC namespace (POSIX message queues, SysV IPC)"}`,
      );
    }
    description.push(...limitLines(limits, nproc, cg));
    description.push(
      `node heap: ${nodeHeapMiB(limits.memoryMiB)} MiB (--max-old-space-size) for runtime node${spec.brief ? '; WebAssembly by the baseline compiler only (--liftoff-only: a brief session)' : ''}`,
    );
    description.push(`environment (names only): ${envNames.sort().join(', ')}`);

    return {
      file,
      args,
      env: outerEnv,
      pluginRootInside,
      ...(repoRootInside !== undefined ? { repoRootInside } : {}),
      ...(cacheDir !== undefined ? { cacheDirInside: cacheDir } : {}),
      tier,
      description,
      cleanup: () => stack.run(),
    };
  } catch (e) {
    await stack.run();
    throw e;
  }
}
