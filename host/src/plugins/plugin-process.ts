import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import type { LaunchCommand } from '../sandbox/index.js';

/** How a plugin process ended. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

/** A running plugin process, sandboxed or not. */
export interface PluginProcess {
  pid: number | undefined;
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Settles once, when the process has exited. */
  exited: Promise<ExitInfo>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Spawns a prepared launch command with execa: exactly the command's environment (nothing
 * inherited), piped stdio, no output buffering (the connection reads the stream), and the
 * child killed if the host exits.
 */
export function spawnPlugin(cmd: Pick<LaunchCommand, 'file' | 'args' | 'env'>, cwd?: string): PluginProcess {
  const child = execa(cmd.file, cmd.args, {
    env: cmd.env,
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    cleanup: true,
    windowsHide: true,
    ...(cwd ? { cwd } : {}),
  });
  const exited = child.then(
    (r) => ({ code: r.exitCode ?? null, signal: r.signal ?? null }),
    (e: { exitCode?: number; signal?: string }) => ({ code: e.exitCode ?? null, signal: e.signal ?? null }),
  );
  // A write to a dead child's stdin must not crash the host; the connection sees the close.
  child.stdin.on('error', () => undefined);
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill: (signal: NodeJS.Signals = 'SIGKILL') => {
      child.kill(signal);
    },
  };
}
