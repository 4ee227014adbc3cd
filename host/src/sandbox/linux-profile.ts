import { SandboxProfileError } from './errors.js';
import { asRecord, readProfileJson, sandboxProfilesDir } from './profiles-dir.js';
import type { SandboxTier } from './tier.js';

/** Namespaces bwrap can unshare (`--unshare-<name>`; cgroup uses the `-try` form). */
export const NAMESPACES = ['user', 'ipc', 'pid', 'net', 'uts', 'cgroup'] as const;
/** One of {@link NAMESPACES}. */
export type Namespace = (typeof NAMESPACES)[number];

/** The policy of one sandboxed tier on Linux. */
export interface LinuxTierProfile {
  unshare: Namespace[];
  /** A private, size-limited tmpfs on /dev/shm for POSIX shared memory. */
  devShm: boolean;
  /** Bind the host's allowlist proxy socket. */
  proxy: boolean;
  /** Extra read-only binds (same path inside) when they exist on the host. */
  roBindTry: string[];
}

/** `sandbox-profiles/linux/bwrap.json`, validated. */
export interface LinuxProfile {
  minBwrapVersion: string;
  hostname: string;
  runtime: { roBind: string[]; roBindTry: string[]; topLevel: string[] };
  mounts: { plugin: string; repo: string; tmp: string; proxySocket: string; node: string };
  env: Record<string, string>;
  tiers: Record<Exclude<SandboxTier, 'unsandboxed'>, LinuxTierProfile>;
}

/** Namespaces a tier must unshare whatever the data file says (the promises of DESIGN.md). */
const REQUIRED: Record<Exclude<SandboxTier, 'unsandboxed'>, readonly Namespace[]> = {
  standard: ['user', 'ipc', 'pid', 'net'],
  'native-ipc': ['user', 'pid', 'net'],
  elevated: ['user', 'ipc', 'pid', 'net'],
};

const FILE = 'sandbox-profiles/linux/bwrap.json';

function fail(what: string): never {
  throw new SandboxProfileError(`${FILE}: ${what}; restore the file from the Travsr release`);
}

function absPaths(value: unknown, where: string): string[] {
  if (
    !Array.isArray(value) ||
    !value.every((v): v is string => typeof v === 'string' && v.startsWith('/') && !v.split('/').includes('..'))
  ) {
    fail(`${where} must be a list of absolute paths`);
  }
  return [...value];
}

function absPath(value: unknown, where: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value === '/' || value.split('/').includes('..'))
    fail(`${where} must be an absolute path below /`);
  return value;
}

function tierProfile(value: unknown, tier: Exclude<SandboxTier, 'unsandboxed'>): LinuxTierProfile {
  const rec = asRecord(value) ?? fail(`tiers.${tier} is missing`);
  const unshare = rec['unshare'];
  if (!Array.isArray(unshare) || !unshare.every((n): n is Namespace => (NAMESPACES as readonly unknown[]).includes(n))) {
    fail(`tiers.${tier}.unshare must list namespaces among ${NAMESPACES.join(', ')}`);
  }
  const missing = REQUIRED[tier].filter((n) => !unshare.includes(n));
  if (missing.length > 0) fail(`tiers.${tier} must unshare ${missing.join(', ')} (the ${tier} tier promises it)`);
  const devShm = rec['devShm'];
  const proxy = rec['proxy'];
  if (typeof devShm !== 'boolean' || typeof proxy !== 'boolean') fail(`tiers.${tier}.devShm and .proxy must be booleans`);
  if (proxy !== (tier === 'elevated')) fail(`tiers.${tier}.proxy must be ${tier === 'elevated'}`);
  return { unshare: [...unshare], devShm, proxy, roBindTry: absPaths(rec['roBindTry'] ?? [], `tiers.${tier}.roBindTry`) };
}

const cache = new Map<string, LinuxProfile>();

/** Reads and validates `sandbox-profiles/linux/bwrap.json` (cached). */
export function linuxProfile(): LinuxProfile {
  const dir = sandboxProfilesDir();
  const hit = cache.get(dir);
  if (hit) return hit;
  const rec = asRecord(readProfileJson('linux/bwrap.json')) ?? fail('must hold an object');
  const runtime = asRecord(rec['runtime']) ?? fail('runtime is missing');
  const mounts = asRecord(rec['mounts']) ?? fail('mounts is missing');
  const envRec = asRecord(rec['env']) ?? fail('env is missing');
  const tiers = asRecord(rec['tiers']) ?? fail('tiers is missing');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(envRec)) {
    if (typeof v !== 'string' || !/^[A-Z_][A-Z0-9_]*$/.test(k)) fail(`env.${k} must be a string`);
    env[k] = v;
  }
  for (const k of ['HOME', 'TMPDIR', 'PATH', 'LANG']) if (!(k in env)) fail(`env.${k} is missing`);
  const minBwrapVersion = rec['minBwrapVersion'];
  const hostname = rec['hostname'];
  if (typeof minBwrapVersion !== 'string' || !/^\d+\.\d+\.\d+$/.test(minBwrapVersion)) fail('minBwrapVersion must look like 0.5.0');
  if (typeof hostname !== 'string' || !/^[a-z0-9-]{1,63}$/.test(hostname)) fail('hostname must be a simple host name');
  const profile: LinuxProfile = {
    minBwrapVersion,
    hostname,
    runtime: {
      roBind: absPaths(runtime['roBind'], 'runtime.roBind'),
      roBindTry: absPaths(runtime['roBindTry'] ?? [], 'runtime.roBindTry'),
      topLevel: absPaths(runtime['topLevel'] ?? [], 'runtime.topLevel'),
    },
    mounts: {
      plugin: absPath(mounts['plugin'], 'mounts.plugin'),
      repo: absPath(mounts['repo'], 'mounts.repo'),
      tmp: absPath(mounts['tmp'], 'mounts.tmp'),
      proxySocket: absPath(mounts['proxySocket'], 'mounts.proxySocket'),
      node: absPath(mounts['node'], 'mounts.node'),
    },
    env,
    tiers: {
      standard: tierProfile(tiers['standard'], 'standard'),
      'native-ipc': tierProfile(tiers['native-ipc'], 'native-ipc'),
      elevated: tierProfile(tiers['elevated'], 'elevated'),
    },
  };
  cache.set(dir, profile);
  return profile;
}
