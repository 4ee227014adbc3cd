import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` is still running: it exists (one of another user counts — it exists,
 * we may not signal it) and has not ended. A process that has ended but was not yet reaped by
 * its parent (a zombie, state `Z`, or `X` while it is being reaped) has ended: the daemon,
 * started detached, is reaped by the system's init, which in a container is often slow or never
 * does it (a PID 1 without an init), so `kill(pid, 0)` alone would keep `travsr daemon stop`
 * waiting for its whole time limit and a stale pid file or index lock taken for a live one.
 *
 * @example
 * ```ts
 * if (!processAlive(recorded.pid)) rmSync(pidFile); // left by a process that is gone
 * ```
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !hasEnded(pid);
}

/**
 * True when /proc says `pid` has ended (Linux). The state is the field after the command name,
 * which is in parentheses and may itself hold spaces or parentheses: read after the last `)`.
 * Where there is no /proc (macOS, Windows) or it cannot be read, the process counts as running.
 */
function hasEnded(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}
