import type { PluginManifest } from '@travsr/protocol';
import type { ResourceLimits } from './limits.js';
import type { ResolvedTool } from './plugin-tools.js';
import type { SandboxTier } from './tier.js';

/** What the supervisor asks for: one plugin, one tier, one repository. */
export interface LaunchSpec {
  /** Absolute; contains travsr-plugin.json. */
  pluginDir: string;
  manifest: PluginManifest;
  /** Absolute; bound read-only (at /repo on Linux). */
  repoRoot?: string;
  tier: SandboxTier;
  limits: ResourceLimits;
  /**
   * The only environment the plugin gets besides PATH, HOME, TMPDIR and LANG (which the
   * sandbox sets and this may not override), e.g. TRAVSR_PLUGIN_COOKIE. On Linux the
   * values reach bwrap through a file in the launch's private session directory, not its
   * command line. Never put secrets here: the plugin reads them.
   */
  env: Record<string, string>;
  /** Elevated: `host[:port]` allowlist enforced by the host-side proxy (default: the manifest's). */
  networkAllow?: string[];
  /** Must be true for tier `unsandboxed` (after `travsr lang allow-unsandboxed <lang>`). */
  allowUnsandboxed?: boolean;
  /** Default process.platform; `darwin` / `win32` from elsewhere produce commands for tests only. */
  platform?: NodeJS.Platform;
  /** Default process.execPath; runs `runtime: node` entrypoints. */
  nodePath?: string;
  /** bwrap to use (default: env TRAVSR_BWRAP, else found on the system). */
  bwrapPath?: string;
  /**
   * External programs of `constraints.tools` found on the host: readable and runnable at their
   * own paths (bound read-only on Linux, the profile's TOOL_DIR slots on macOS), their
   * directories first on the sandbox's PATH. Windows does not pass them yet.
   */
  tools?: ResolvedTool[];
  /**
   * Absolute, existing: the plugin's cache directory (`constraints.cache`), the one place
   * outside its private temp directory it may write. Seen at the same path inside (bound
   * read-write on Linux, the profile's CACHE_DIR on macOS, a read-write grant on Windows).
   */
  cacheDir?: string;
  /**
   * A session of a few files (an incremental run after a small commit, a plugin with few files
   * in a run: `BRIEF_RUN_FILES` in host/src/indexer/plugin-sessions.ts). A `runtime: node`
   * plugin then compiles WebAssembly with V8's baseline compiler only (`--liftoff-only`): the
   * optimizing tier's background compiles cannot pay off in so short a session, and on a small
   * machine they take the CPU the host and the plugin's own work need (about 100 ms of a Python
   * one-file commit on 2 cores).
   */
  brief?: boolean;
}

/** A ready-to-spawn command. Spawn exactly `file` + `args` with `env` and `extendEnv: false`. */
export interface LaunchCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Where the plugin directory is inside the sandbox (e.g. /plugin); the real path when unsandboxed. */
  pluginRootInside: string;
  /** Where the repository is inside the sandbox (e.g. /repo). */
  repoRootInside?: string;
  /** Where the cache directory is inside the sandbox (its real host path), when the spec had one. */
  cacheDirInside?: string;
  tier: SandboxTier;
  /** What the sandbox grants, in words, for traces (env values are never listed). */
  description: string[];
  /** Stops the proxy, kills what is left in the session's cgroup, removes cgroup and temp dirs; idempotent. */
  cleanup(): Promise<void>;
}

/** Variables the sandbox itself sets; LaunchSpec.env may not set them. */
export const RESERVED_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TRAVSR_PROXY_SOCKET', 'TRAVSR_PROXY_ADDRESS'] as const;
