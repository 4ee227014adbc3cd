import { lstatSync, readlinkSync } from 'node:fs';
import type { LinuxProfile, Namespace } from './linux-profile.js';

/** Everything needed to build one bwrap command line. Paths are real (symlink-free) host paths. */
export interface BwrapArgsInput {
  tier: 'standard' | 'native-ipc' | 'elevated';
  profile: LinuxProfile;
  disableUserns: boolean;
  pluginDir: string;
  repoRoot?: string;
  tmpMiB: number;
  /** The complete environment inside (bwrap starts from an empty one). */
  env: Record<string, string>;
  /** Host path of the allowlist proxy's unix socket (elevated). */
  proxySocket?: string;
  /** Extra files bound read-only at the same path (e.g. a tool of constraints.tools). */
  extraReadOnly: string[];
  /** A directory bound read-write at the same path (the plugin's cache), the only writable bind. */
  cacheDir?: string;
  /** A Node binary outside the runtime binds, bound read-only at `mounts.node`. */
  nodeBinary?: string;
  /** Working directory inside. */
  chdir: string;
}

function unshareFlag(ns: Namespace): string {
  return ns === 'cgroup' ? '--unshare-cgroup-try' : `--unshare-${ns}`;
}

/**
 * The read-only runtime: `runtime.roBind` as is, the top-level /bin, /lib, ... recreated as
 * the same symlinks (merged /usr) or bound when they are real directories, then the
 * optional files (`--ro-bind-try`).
 */
export function runtimeArgs(profile: LinuxProfile, extraTry: readonly string[] = []): string[] {
  const args: string[] = [];
  for (const p of profile.runtime.roBind) args.push('--ro-bind', p, p);
  for (const p of profile.runtime.topLevel) {
    try {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
      else if (st.isDirectory()) args.push('--ro-bind', p, p);
    } catch {
      // absent on this host
    }
  }
  for (const p of [...profile.runtime.roBindTry, ...extraTry]) args.push('--ro-bind-try', p, p);
  return args;
}

/**
 * bwrap options for one sandboxed launch: everything before `--`, without the bwrap program
 * and the command. They hold host paths, so they go to bwrap through `--args FD`
 * (see bwrap-arg-files.ts), never on its command line.
 */
export function buildBwrapArgs(input: BwrapArgsInput): string[] {
  const { profile } = input;
  const tier = profile.tiers[input.tier];
  const m = profile.mounts;
  const tmpBytes = String(input.tmpMiB * 1024 * 1024);
  const args: string[] = [];
  for (const ns of tier.unshare) args.push(unshareFlag(ns));
  if (input.disableUserns && tier.unshare.includes('user')) args.push('--disable-userns');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv');
  if (tier.unshare.includes('uts')) args.push('--hostname', profile.hostname);
  args.push(...runtimeArgs(profile, tier.roBindTry));
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', tmpBytes, '--tmpfs', m.tmp);
  if (tier.devShm) args.push('--size', tmpBytes, '--tmpfs', '/dev/shm');
  // After the tmpfs mounts, so that a file under the host's /tmp stays visible.
  for (const f of input.extraReadOnly) args.push('--ro-bind', f, f);
  if (input.nodeBinary !== undefined) args.push('--ro-bind', input.nodeBinary, m.node);
  args.push('--ro-bind', input.pluginDir, m.plugin);
  if (input.repoRoot !== undefined) args.push('--ro-bind', input.repoRoot, m.repo);
  if (tier.proxy && input.proxySocket !== undefined) args.push('--ro-bind', input.proxySocket, m.proxySocket);
  // After every other mount, so nothing bound later can cover it; --remount-ro below is not
  // recursive, so this bind (like the tmpfs mounts) stays writable and nothing else does.
  if (input.cacheDir !== undefined) args.push('--bind', input.cacheDir, input.cacheDir);
  // Last: nothing outside the tmpfs mounts stays writable (bwrap's root and /dev are tmpfs).
  args.push('--remount-ro', '/dev', '--remount-ro', '/');
  for (const [k, v] of Object.entries(input.env)) args.push('--setenv', k, v);
  args.push('--chdir', input.chdir);
  return args;
}

/**
 * Why `dir` cannot be bound writable at its own path inside the sandbox, or undefined when it
 * can: it would sit on or under a read-only mount (bwrap could not create its mount point
 * there), or cover one. Under the private /tmp is fine: the bind comes after the tmpfs.
 */
export function cacheBindProblem(dir: string, profile: LinuxProfile): string | undefined {
  const m = profile.mounts;
  const reserved = [...profile.runtime.roBind, ...profile.runtime.topLevel, m.plugin, m.repo, m.node, m.proxySocket, '/proc', '/dev'];
  for (const r of reserved) {
    if (dir === r || dir.startsWith(`${r}/`) || r.startsWith(`${dir}/`)) return `it would overlap ${r} inside the sandbox`;
  }
  if (dir === '/' || m.tmp.startsWith(`${dir}/`) || dir === m.tmp) return `it would cover ${m.tmp} inside the sandbox`;
  return undefined;
}
