import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { PluginManifest } from '@travsr/protocol';
import { nodeLaunchFlags, pluginMemoryMiB } from '@travsr/protocol/node';

/**
 * How a launched plugin process ended.
 *
 * @example
 * ```ts
 * const { code, signal } = await launched.process.exited;
 * ```
 */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
  /** Set when the process could not be started at all. */
  error?: string;
}

/**
 * A running plugin process as the kit drives it: pipes, its end, and a way to stop it.
 *
 * @example
 * ```ts
 * launched.process.kill('SIGTERM');
 * await launched.process.exited;
 * ```
 */
export interface LaunchedProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Settles once when the process has ended. */
  exited: Promise<ProcessExit>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * What a launcher is asked to start.
 *
 * @example
 * ```ts
 * const launch: Launcher = async ({ env, repoRoot }) => startInSandbox({ env, bindRepo: repoRoot });
 * ```
 */
export interface LaunchOptions {
  /** The complete environment of the plugin (the launcher may add PATH, nothing else). */
  env: Record<string, string>;
  /** Repository the plugin will analyze, on the host's file system. */
  repoRoot: string;
  /** The plugin directory (holding travsr-plugin.json). */
  pluginDir: string;
  /** Its parsed manifest. */
  manifest: PluginManifest;
}

/**
 * A started plugin and where the repository appears inside its sandbox.
 *
 * @example
 * ```ts
 * return { process: wrap(child), repoRootInside: '/repo' } satisfies Launched;
 * ```
 */
export interface Launched {
  process: LaunchedProcess;
  /** The path to send in `initialize.root`: `repoRoot` as the plugin sees it. */
  repoRootInside: string;
}

/**
 * Starts a plugin process. The host passes one that runs the plugin in its sandbox tier;
 * the default, {@link launchUnsandboxed}, runs it directly.
 *
 * @example
 * ```ts
 * await runConformance({ pluginDir, launch: sandboxedLauncher('standard') });
 * ```
 */
export type Launcher = (opts: LaunchOptions) => Promise<Launched>;

/**
 * Starts a plugin directly, without a sandbox: runtime `node` runs the entrypoint with the
 * current Node.js (`process.execPath`) and the flags the host starts a brief session with
 * (`nodeLaunchFlags` of `@travsr/protocol/node`: the heap cap for the manifest's memory, so the
 * plugin's code caches apply as they do under the host), runtime `exec` runs it as an executable. The
 * environment is exactly `opts.env` plus `PATH`; the working directory is the plugin directory.
 *
 * @example
 * ```ts
 * const launch: Launcher = (opts) => launchUnsandboxed({ ...opts, env: { ...opts.env, DEBUG: '1' } });
 * await runConformance({ pluginDir, launch });
 * ```
 */
export function launchUnsandboxed(opts: LaunchOptions): Promise<Launched> {
  const entry = opts.manifest.entrypoint;
  const target = isAbsolute(entry.path) ? entry.path : join(opts.pluginDir, entry.path);
  const args = entry.args ?? [];
  const flags = nodeLaunchFlags(pluginMemoryMiB(opts.manifest.constraints.resources?.memoryMiB), { brief: true });
  const [command, argv] = entry.runtime === 'node' ? [process.execPath, [...flags, target, ...args]] : [target, args];
  const env: Record<string, string> = { ...opts.env };
  if (process.env.PATH !== undefined && env.PATH === undefined) env.PATH = process.env.PATH;
  const child = spawn(command, argv, { cwd: opts.pluginDir, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => resolve({ code: null, signal: null, error: `cannot start ${command}: ${err.message}` }));
  });
  // A plugin that dies early must not crash the kit with EPIPE on its stdin.
  child.stdin.on('error', () => undefined);
  return Promise.resolve({
    process: {
      stdin: child.stdin,
      stdout: child.stdout,
      stderr: child.stderr,
      exited,
      kill: (signal?: NodeJS.Signals) => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal ?? 'SIGKILL');
      },
    },
    repoRootInside: opts.repoRoot,
  });
}
