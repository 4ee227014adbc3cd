import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { errorCode } from '@travsr/protocol';
import { hostPackagePath } from '../paths/host-package.js';
import { connectDaemon, type DaemonClient } from './daemon-client.js';
import { daemonPaths, ensurePrivateDirectory, type DaemonPaths } from './daemon-paths.js';
import { processAlive } from '../paths/process-alive.js';
import { recordedDaemonPid } from './daemon-server.js';
import { DaemonError, DaemonErrorCode } from './errors.js';

/** Options of {@link startDetachedDaemon}. */
export interface StartOptions {
  paths?: DaemonPaths;
  /** Extra arguments of `travsr serve` (`--repo`, `--listen`, `--token-file`). */
  serveArgs?: readonly string[];
  /** How long to wait for the new daemon to answer (ms). Default 30 s. */
  timeoutMs?: number;
}

/** What {@link startDetachedDaemon} found or did. */
export type StartOutcome = { kind: 'running'; client: DaemonClient } | { kind: 'started'; client: DaemonClient };

/**
 * `travsr daemon start`: returns the daemon that answers already (the same build), restarts
 * one of another build, or starts `travsr serve` as a detached process whose output goes to the
 * daemon log, and waits until it answers. A daemon that exits or does not answer in time is a
 * DAEMON_START_FAILED error quoting the end of its log.
 */
export async function startDetachedDaemon(opts: StartOptions = {}): Promise<StartOutcome> {
  const paths = opts.paths ?? daemonPaths();
  try {
    const client = await connectDaemon({ paths });
    if (client) return { kind: 'running', client };
  } catch (e) {
    if (errorCode(e) !== DaemonErrorCode.VersionMismatch) throw e;
    await stopDaemon({ paths });
  }
  ensurePrivateDirectory(paths.dir);
  const logStart = existsSync(paths.logFile) ? statSync(paths.logFile).size : 0;
  const log = openSync(paths.logFile, 'a', 0o600);
  let exited: string | undefined;
  try {
    const child = spawn(process.execPath, [hostPackagePath('bin', 'run.js'), 'serve', ...(opts.serveArgs ?? [])], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...process.env, TRAVSR_DAEMON_DETACHED: '1' },
    });
    child.on('exit', (code, signal) => (exited = signal ? `was killed by ${signal}` : `exited with code ${String(code)}`));
    child.unref();
  } finally {
    closeSync(log);
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    if (exited) break;
    const client = await connectDaemon({ paths, timeoutMs: 1_000 }).catch(() => undefined);
    if (client) return { kind: 'started', client };
    if (Date.now() > deadline) break;
  }
  throw new DaemonError(
    DaemonErrorCode.StartFailed,
    `the daemon ${exited ?? 'did not answer in time'}; its log (${paths.logFile}) ends with:\n${logTail(paths.logFile, logStart)}`,
  );
}

/** What {@link stopDaemon} did; `killed`: the process had not ended `timeoutMs` after it was asked to, and was sent SIGKILL. */
export type StopOutcome = { kind: 'not-running' } | { kind: 'stopped'; pid: number; killed: boolean };

/**
 * `travsr daemon stop`: asks the daemon to shut down (it stores the update under way) and
 * waits until its process is gone; a daemon that does not answer is sent SIGTERM (then
 * SIGKILL after `timeoutMs`).
 */
export async function stopDaemon(opts: { paths?: DaemonPaths; timeoutMs?: number } = {}): Promise<StopOutcome> {
  const paths = opts.paths ?? daemonPaths();
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const client = await connectDaemon({ paths, build: 'ignore' }).catch(() => undefined);
  const pid = client?.hello.pid ?? recordedDaemonPid(paths);
  if (client) {
    await client.shutdown().catch(() => undefined);
    client.close();
  } else if (pid !== undefined) {
    signal(pid, 'SIGTERM');
  }
  if (pid === undefined) return { kind: 'not-running' };
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) {
      signal(pid, 'SIGKILL');
      return { kind: 'stopped', pid, killed: true };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { kind: 'stopped', pid, killed: false };
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone already
  }
}

/** The last lines the daemon logged since `from` (bytes). */
export function logTail(file: string, from = 0, lines = 20): string {
  try {
    const text = readFileSync(file, 'utf8').slice(from);
    return (
      text
        .split('\n')
        .slice(-lines - 1)
        .join('\n')
        .trimEnd() || '(nothing)'
    );
  } catch {
    return '(no log)';
  }
}
