import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { travsrHome } from '../paths/travsr-home.js';
import { DaemonError, DaemonErrorCode } from './errors.js';

/** Where the daemon of this user keeps its socket, pid, token and log. */
export interface DaemonPaths {
  /** `<TRAVSR_HOME>/daemon`, mode 0700. */
  dir: string;
  /** The Unix domain socket the control plane is served on (`TRAVSR_DAEMON_SOCKET` overrides). */
  socket: string;
  /** The running daemon's pid and start time (JSON). */
  pidFile: string;
  /** The secret every call presents (mode 0600). */
  tokenFile: string;
  /** What the daemon logs (appended; `travsr daemon logs`). */
  logFile: string;
}

/**
 * Longest path a Unix domain socket may have, in bytes: sockaddr_un's sun_path holds 108 on
 * Linux and 104 on macOS, the terminating NUL included.
 */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;

/** The daemon's paths for the current `TRAVSR_HOME`. */
export function daemonPaths(env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const dir = join(travsrHome(env), 'daemon');
  const socket = env.TRAVSR_DAEMON_SOCKET && env.TRAVSR_DAEMON_SOCKET.length > 0 ? env.TRAVSR_DAEMON_SOCKET : join(dir, 'daemon.sock');
  return { dir, socket, pidFile: join(dir, 'daemon.pid'), tokenFile: join(dir, 'token'), logFile: join(dir, 'daemon.log') };
}

/** The socket path, refused when the OS cannot bind it. */
export function checkedSocketPath(paths: DaemonPaths): string {
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH_BYTES)
    throw new DaemonError(
      DaemonErrorCode.InvalidOption,
      `the daemon's socket path ${paths.socket} is ${Buffer.byteLength(paths.socket)} bytes, longer than a Unix socket may be (${MAX_SOCKET_PATH_BYTES}); set TRAVSR_DAEMON_SOCKET to a shorter path in a directory only you can write, or a shorter TRAVSR_HOME`,
    );
  return paths.socket;
}

/** Makes the daemon directory (mode 0700) and refuses one that is not private to this user. */
export function ensurePrivateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivate(dir, 0o077, 'directory');
}

/**
 * Refuses `path` unless it belongs to this user and nobody else may use it: group and other
 * bits under `forbidden` must be clear (0o077 for the directory, socket and token). A symbolic
 * link is refused too. Nothing to check on Windows, where the ACL of the profile folder decides.
 */
export function checkPrivate(path: string, forbidden: number, what: string): void {
  if (process.platform === 'win32') return;
  const s = lstatSync(path);
  const uid = process.getuid?.();
  if (s.isSymbolicLink())
    throw new DaemonError(
      DaemonErrorCode.Insecure,
      `the daemon's ${what} ${path} is a symbolic link; remove it (\`rm ${path}\`) and start the daemon again`,
    );
  if (uid !== undefined && s.uid !== uid)
    throw new DaemonError(
      DaemonErrorCode.Insecure,
      `the daemon's ${what} ${path} belongs to user ${s.uid}, not to you (${uid}); another user's daemon must not be trusted: remove it or set TRAVSR_HOME`,
    );
  if ((s.mode & forbidden) !== 0)
    throw new DaemonError(
      DaemonErrorCode.Insecure,
      `the daemon's ${what} ${path} has mode ${(s.mode & 0o777).toString(8).padStart(4, '0')}, so other users may use it; only its owner may (\`chmod ${forbidden === 0o077 ? (s.isDirectory() ? '700' : '600') : 'go-rwx'} ${path}\`)`,
    );
}
