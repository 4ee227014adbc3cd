import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { AllowlistProxy } from './allowlist-proxy.js';
import { CleanupStack } from './cleanup-stack.js';
import { entrypointArgv, nodeHeapMiB } from './entrypoint.js';
import { proxyAllowlist } from './constraints.js';
import { SandboxProfileError } from './errors.js';
import type { LaunchCommand, LaunchSpec } from './launch-spec.js';
import type { ResourceLimits } from './limits.js';
import { sandboxProfilesDir } from './profiles-dir.js';

/** The sandbox-exec binary on macOS. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Stands in for a missing repository, or an unused tool slot, in a profile parameter (an empty system directory). */
const NO_REPO = '/var/empty';
/** How many directories of external tools (`constraints.tools`) the profiles take: TOOL_DIR_0 … TOOL_DIR_3. */
export const MACOS_TOOL_SLOTS = 4;

/**
 * Sets the limits with the shell's `ulimit`, changes to the directory in $1, then execs the
 * rest. RLIMIT_NPROC counts all of the user's processes on macOS, so the cap is the user's
 * current count plus the allowance.
 */
export function macosLimitScript(limits: ResourceLimits): string {
  return [
    `ulimit -t ${limits.cpuSeconds}`,
    `ulimit -d ${limits.memoryMiB * 1024}`,
    `ulimit -n ${limits.openFiles}`,
    `ulimit -u $(( $(ps -U "$(id -u)" -o pid= | wc -l) + ${limits.processes} ))`,
    `ulimit -f ${limits.tmpMiB * 2048}`,
    'ulimit -c 0',
    'cd -- "$1"',
    'shift',
    'exec "$@"',
  ].join(' && ');
}

/**
 * Builds the macOS command: `/bin/sh -c <ulimits> … /usr/bin/sandbox-exec -f
 * sandbox-profiles/macos/<tier>.sb -D PLUGIN_DIR=… -D REPO_DIR=… -D TMP_DIR=… -D NODE_BINARY=…
 * -D TOOL_DIR_0..3=… -D CACHE_DIR=… [-D PROXY_SOCKET=…] <node> <entrypoint>`. On macOS itself it also creates the private
 * temp directory and starts the allowlist proxy; from another OS it only builds the command
 * (for tests) and touches nothing.
 */
export async function prepareMacosLaunch(spec: LaunchSpec, env: Record<string, string>): Promise<LaunchCommand> {
  const { manifest, limits, tier } = spec;
  const native = process.platform === 'darwin';
  const stack = new CleanupStack();
  try {
    const resolve = async (p: string): Promise<string> => (native ? realpath(p) : posix.normalize(p));
    const pluginDir = await resolve(spec.pluginDir);
    const repoRoot = spec.repoRoot !== undefined ? await resolve(spec.repoRoot) : undefined;
    const nodePath = await resolve(spec.nodePath ?? process.execPath);
    const cacheDir = spec.cacheDir !== undefined ? await resolve(spec.cacheDir) : undefined;
    let sessionDir: string;
    if (native) {
      sessionDir = await realpath(await mkdtemp(join(tmpdir(), 'travsr-sbx-')));
      stack.push(() => rm(sessionDir, { recursive: true, force: true }));
      await mkdir(join(sessionDir, 'tmp'), { mode: 0o700 });
    } else {
      sessionDir = '/private/tmp/travsr-sbx-XXXXXX';
    }
    const tmpDir = posix.join(sessionDir, 'tmp');
    const command = entrypointArgv(manifest, {
      pluginRoot: pluginDir,
      nodePath,
      memoryMiB: limits.memoryMiB,
      platform: 'darwin',
      brief: spec.brief,
    });
    // External tools: their directories first on PATH; what they need readable (a toolchain
    // such as ~/go, or the file alone) goes into the profile's TOOL_DIR slots.
    const tools = spec.tools ?? [];
    const toolDirs = [...new Set(tools.map((t) => posix.dirname(t.path)))];
    const toolBinds = [...new Set(tools.flatMap((t) => (t.bind ? [t.bind] : [])))];
    if (toolBinds.length > MACOS_TOOL_SLOTS)
      throw new SandboxProfileError(
        `${manifest.id} needs ${toolBinds.length} tool directories (${toolBinds.join(', ')}), more than the ${MACOS_TOOL_SLOTS} the macOS profiles take; declare fewer tools in constraints.tools`,
      );
    const runEnv: Record<string, string> = {
      ...env,
      HOME: tmpDir,
      TMPDIR: tmpDir,
      PATH: [...new Set([...toolDirs, '/usr/bin', '/bin'])].join(':'),
      LANG: 'C.UTF-8',
    };
    const description: string[] = [];
    let inner: string[];
    if (tier === 'unsandboxed') {
      inner = command;
      description.push(
        'tier unsandboxed: no sandbox (allowed with travsr lang allow-unsandboxed); the plugin sees everything this user can',
      );
    } else {
      const profile = join(sandboxProfilesDir(), 'macos', `${tier}.sb`);
      if (!existsSync(profile))
        throw new SandboxProfileError(`the macOS sandbox profile ${profile} is missing; restore sandbox-profiles/ from the Travsr release`);
      const params: [string, string][] = [
        ['PLUGIN_DIR', pluginDir],
        ['REPO_DIR', repoRoot ?? NO_REPO],
        ['TMP_DIR', tmpDir],
        ['NODE_BINARY', nodePath],
        ...Array.from({ length: MACOS_TOOL_SLOTS }, (_, i): [string, string] => [`TOOL_DIR_${i}`, toolBinds[i] ?? NO_REPO]),
        // Without a cache, /var/empty: writable by the profile, but root's and empty, so by nobody here.
        ['CACHE_DIR', cacheDir ?? NO_REPO],
      ];
      if (tier === 'elevated') {
        const allow = proxyAllowlist(manifest);
        const socketPath = posix.join(sessionDir, 'proxy.sock');
        if (native) {
          const proxy = await AllowlistProxy.start({ socketPath, allow });
          stack.push(() => proxy.close());
        }
        params.push(['PROXY_SOCKET', socketPath]);
        runEnv['TRAVSR_PROXY_SOCKET'] = socketPath;
        description.push(
          `network: only through the allowlist proxy at ${socketPath} (TRAVSR_PROXY_SOCKET) to ${allow.join(', ') || 'no hosts'}`,
        );
      } else {
        description.push('network: none (denied by the profile)');
      }
      inner = [SANDBOX_EXEC, '-f', profile, ...params.flatMap(([k, v]) => ['-D', `${k}=${v}`]), ...command];
      description.unshift(
        `tier ${tier}: sandbox-exec with ${profile} (deny by default)`,
        `read-only: system libraries, ${nodePath}, ${pluginDir}${repoRoot !== undefined ? `, ${repoRoot}` : ''}; file metadata (stat) is readable everywhere`,
        `writable: ${tmpDir} (private; size not capped on macOS beyond ${limits.tmpMiB} MiB per file)${cacheDir !== undefined ? `, ${cacheDir} (the plugin's cache for this repository, kept between sessions)` : ''}`,
        `ipc: ${tier === 'native-ipc' ? 'POSIX shared memory and semaphores' : 'none'}`,
      );
      if (tools.length > 0)
        description.push(
          `tools (constraints.tools): ${tools.map((t) => `${t.name} at ${t.path}${t.bind ? ` (readable and runnable: ${t.bind})` : ''}`).join(', ')}; their directories first on PATH`,
        );
    }
    description.push(
      `cpu: ${limits.cpuSeconds} s per process; memory: ${limits.memoryMiB} MiB per process (ulimit -d, advisory on macOS); processes: ${limits.processes} above the user's current count; open files: ${limits.openFiles}`,
      `output: ${limits.outputBytes} bytes (enforced by the host)`,
      `node heap: ${nodeHeapMiB(limits.memoryMiB)} MiB (--max-old-space-size) for runtime node`,
      `environment (names only): ${Object.keys(runEnv).sort().join(', ')}`,
    );
    return {
      file: '/bin/sh',
      args: ['-c', macosLimitScript(limits), 'travsr-sandbox', repoRoot ?? pluginDir, ...inner],
      env: runEnv,
      pluginRootInside: pluginDir,
      ...(repoRoot !== undefined ? { repoRootInside: repoRoot } : {}),
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
