import { win32 } from 'node:path';
import { entrypointArgv, nodeHeapMiB } from './entrypoint.js';
import { proxyAllowlist } from './constraints.js';
import { SandboxProfileError, SandboxUnavailableError } from './errors.js';
import type { LaunchCommand, LaunchSpec } from './launch-spec.js';
import { asRecord, readProfileJson } from './profiles-dir.js';
import type { SandboxTier } from './tier.js';

/** Capabilities that would open the network directly; no profile may list them. */
const FORBIDDEN_CAPABILITIES = ['internetClient', 'internetClientServer', 'privateNetworkClientServer'];

/** `sandbox-profiles/windows/<tier>.json`, validated. */
export interface WindowsTierProfile {
  tier: Exclude<SandboxTier, 'unsandboxed'>;
  appContainer: { capabilities: string[]; loopbackExemption: boolean };
  network: 'none' | 'proxy';
  ipc: string;
  jobObject: Record<string, unknown>;
}

/** What the AppContainer launcher (travsr-appcontainer.exe) is asked to do: one JSON document. */
export interface WindowsLaunchPlan {
  version: 1;
  tier: SandboxTier;
  /** Null when unsandboxed: the launcher then only applies the Job Object limits. */
  appContainer: { name: string; capabilities: string[]; loopbackExemption: boolean } | null;
  filesystem: { read: string[]; readWrite: string[] };
  command: { file: string; args: string[]; cwd: string };
  env: Record<string, string>;
  jobObject: Record<string, unknown> & {
    activeProcessLimit: number;
    jobMemoryLimitMiB: number;
    perProcessUserTimeSeconds: number;
    killOnJobClose: true;
  };
  /** Elevated: the host's allowlist proxy on loopback; the host fills in the port when it listens. */
  proxy?: { address: string; allow: string[] };
}

/** Reads and validates the Windows profile of `tier`. */
export function windowsTierProfile(tier: Exclude<SandboxTier, 'unsandboxed'>): WindowsTierProfile {
  const file = `sandbox-profiles/windows/${tier}.json`;
  const rec = asRecord(readProfileJson(`windows/${tier}.json`));
  const ac = asRecord(rec?.['appContainer']);
  const caps = ac?.['capabilities'];
  if (
    !rec ||
    !ac ||
    !Array.isArray(caps) ||
    !caps.every((c): c is string => typeof c === 'string') ||
    typeof ac['loopbackExemption'] !== 'boolean'
  ) {
    throw new SandboxProfileError(
      `${file} needs appContainer.capabilities (a list) and appContainer.loopbackExemption; restore it from the Travsr release`,
    );
  }
  const forbidden = caps.filter((c) => FORBIDDEN_CAPABILITIES.includes(c));
  if (forbidden.length > 0) {
    throw new SandboxProfileError(`${file} grants ${forbidden.join(', ')}, which opens the network past the allowlist proxy; remove it`);
  }
  const network = rec['network'];
  if (network !== 'none' && network !== 'proxy') throw new SandboxProfileError(`${file}: network must be "none" or "proxy"`);
  if ((network === 'proxy') !== (tier === 'elevated') || ac['loopbackExemption'] !== (tier === 'elevated')) {
    throw new SandboxProfileError(`${file}: only the elevated tier reaches the proxy (network "proxy", loopbackExemption true)`);
  }
  return {
    tier,
    appContainer: { capabilities: caps, loopbackExemption: ac['loopbackExemption'] },
    network,
    ipc: typeof rec['ipc'] === 'string' ? rec['ipc'] : 'none',
    jobObject: asRecord(rec['jobObject']) ?? {},
  };
}

/** The launcher to run: `TRAVSR_APPCONTAINER_LAUNCHER`, else `travsr-appcontainer.exe` on PATH. */
export function windowsLauncherPath(): string {
  return process.env['TRAVSR_APPCONTAINER_LAUNCHER'] ?? 'travsr-appcontainer.exe';
}

/**
 * Builds the Windows launch: `<launcher> --plan <json>`, where the plan names the
 * AppContainer, its capabilities (none; never internetClient), the directories its SID may
 * read or write, the Job Object limits and the command. It can only be built here, not run:
 * on Windows itself this throws until the launcher and a loopback proxy exist.
 */
export function prepareWindowsLaunch(spec: LaunchSpec, env: Record<string, string>): LaunchCommand {
  if (process.platform === 'win32') {
    throw new SandboxUnavailableError(
      'the Windows AppContainer launcher is not part of this Travsr build',
      'run plugins on Linux (bwrap) or macOS for now, or allow a plugin unsandboxed with travsr lang allow-unsandboxed <lang> inside WSL',
    );
  }
  const { manifest, limits, tier } = spec;
  const nodePath = spec.nodePath ?? 'C:\\Program Files\\nodejs\\node.exe';
  const tmpDir = win32.join('%LOCALAPPDATA%', 'Travsr', 'sandbox', 'session', 'tmp');
  const argv = entrypointArgv(manifest, {
    pluginRoot: spec.pluginDir,
    nodePath,
    memoryMiB: limits.memoryMiB,
    platform: 'win32',
    brief: spec.brief,
  });
  const [file, ...args] = argv as [string, ...string[]];
  const runEnv: Record<string, string> = {
    ...env,
    HOME: tmpDir,
    TMPDIR: tmpDir,
    TEMP: tmpDir,
    TMP: tmpDir,
    PATH: win32.dirname(nodePath),
    LANG: 'C.UTF-8',
    SystemRoot: 'C:\\Windows',
  };
  const profile = tier === 'unsandboxed' ? undefined : windowsTierProfile(tier);
  const allow = proxyAllowlist(manifest);
  if (profile?.network === 'proxy') runEnv['TRAVSR_PROXY_ADDRESS'] = '127.0.0.1:0';
  const plan: WindowsLaunchPlan = {
    version: 1,
    tier,
    appContainer: profile
      ? {
          name: `travsr.plugin.${manifest.id.replace(/[^a-z0-9.-]/g, '.')}`,
          capabilities: profile.appContainer.capabilities,
          loopbackExemption: profile.appContainer.loopbackExemption,
        }
      : null,
    filesystem: {
      read: [win32.dirname(nodePath), spec.pluginDir, ...(spec.repoRoot !== undefined ? [spec.repoRoot] : [])],
      // The cache directory (constraints.cache) is granted to the container's SID like the temp directory.
      readWrite: [tmpDir, ...(spec.cacheDir !== undefined ? [spec.cacheDir] : [])],
    },
    command: { file, args, cwd: spec.repoRoot ?? spec.pluginDir },
    env: runEnv,
    jobObject: {
      ...(profile?.jobObject ?? {}),
      activeProcessLimit: limits.processes,
      jobMemoryLimitMiB: limits.memoryMiB + limits.tmpMiB,
      perProcessUserTimeSeconds: limits.cpuSeconds,
      killOnJobClose: true,
    },
    ...(profile?.network === 'proxy' ? { proxy: { address: '127.0.0.1:0', allow } } : {}),
  };
  const description = [
    profile
      ? `tier ${tier}: AppContainer ${plan.appContainer?.name ?? ''} with capabilities [${profile.appContainer.capabilities.join(', ')}]${profile.appContainer.loopbackExemption ? ' and a loopback exemption for the allowlist proxy' : ''}, in a Job Object`
      : 'tier unsandboxed: no AppContainer (allowed with travsr lang allow-unsandboxed); Job Object limits only',
    `read-only: ${plan.filesystem.read.join(', ')}; writable: ${plan.filesystem.readWrite.join(', ')}`,
    `network: ${profile?.network === 'proxy' ? `only through the allowlist proxy (TRAVSR_PROXY_ADDRESS) to ${allow.join(', ') || 'no hosts'}` : profile ? 'none' : 'unrestricted'}`,
    `cpu: ${limits.cpuSeconds} s per process; memory: ${limits.memoryMiB + limits.tmpMiB} MiB for the job; processes: ${limits.processes}; output: ${limits.outputBytes} bytes (host)`,
    `node heap: ${nodeHeapMiB(limits.memoryMiB)} MiB (--max-old-space-size) for runtime node`,
  ];
  return {
    file: windowsLauncherPath(),
    args: ['--plan', JSON.stringify(plan)],
    env: runEnv,
    pluginRootInside: spec.pluginDir,
    ...(spec.repoRoot !== undefined ? { repoRootInside: spec.repoRoot } : {}),
    ...(spec.cacheDir !== undefined ? { cacheDirInside: spec.cacheDir } : {}),
    tier,
    description,
    cleanup: () => Promise.resolve(),
  };
}
