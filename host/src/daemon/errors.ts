import { TravsrError } from '@travsr/protocol';

/** Codes of {@link DaemonError}. */
export const DaemonErrorCode = {
  /** `daemon start` (or `serve`) while another daemon of this user answers on the socket. */
  AlreadyRunning: 'DAEMON_RUNNING',
  /** A command that needs the daemon found none answering. */
  NotRunning: 'DAEMON_NOT_RUNNING',
  /** The daemon's directory, socket or token file is not private to this user (owner, or mode wider than 0700/0600). */
  Insecure: 'DAEMON_INSECURE',
  /** The daemon answering runs another build of Travsr than this command. */
  VersionMismatch: 'DAEMON_VERSION_MISMATCH',
  /** The daemon refused the call's token. */
  Unauthenticated: 'DAEMON_UNAUTHENTICATED',
  /** `daemon start` launched a daemon that did not come up. */
  StartFailed: 'DAEMON_START_FAILED',
  /** A bad option: a socket path too long for the OS, `--listen` without a token, an unknown repository. */
  InvalidOption: 'DAEMON_INVALID_OPTION',
  /** A call to the daemon failed (its message says why). */
  CallFailed: 'DAEMON_CALL_FAILED',
} as const;
export type DaemonErrorCode = (typeof DaemonErrorCode)[keyof typeof DaemonErrorCode];

/** An error about the daemon, its socket or a call to it. */
export class DaemonError extends TravsrError {
  override readonly name = 'DaemonError';
  constructor(
    readonly code: DaemonErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
