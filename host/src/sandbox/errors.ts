import { TravsrError } from '@travsr/protocol';

/**
 * Errors of the sandbox layer. Each carries a SCREAMING_SNAKE `code`; recognise them by
 * `code`, not `instanceof`. Messages say what happened, why, and what to do.
 */

/** String codes of sandbox errors. */
export const SandboxErrorCode = {
  ConstraintRefused: 'CONSTRAINT_REFUSED',
  SandboxUnavailable: 'SANDBOX_UNAVAILABLE',
  LaunchSpecInvalid: 'LAUNCH_SPEC_INVALID',
  ProfileInvalid: 'SANDBOX_PROFILE_INVALID',
} as const;
/** One of {@link SandboxErrorCode}. */
export type SandboxErrorCode = (typeof SandboxErrorCode)[keyof typeof SandboxErrorCode];

/** One manifest constraint compared with what the user granted. */
export interface ConstraintCheck {
  /** `tier`, `network`, `ipc`, `hostApi`, `filesystem`, `tools`, `cache` or `resources.<name>`. */
  constraint: string;
  /** What the manifest asks for, in words. */
  requested: string;
  /** What the grant allows, in words. */
  granted: string;
  ok: boolean;
  /** Why it was refused and what to do (set on every refused check). */
  reason?: string;
}

/**
 * A plugin asks for more than it was granted; it was not started. `checks` holds every
 * check, refused or not, for the trace.
 */
export class ConstraintError extends TravsrError {
  override readonly name = 'ConstraintError';
  readonly code = SandboxErrorCode.ConstraintRefused;
  constructor(
    readonly checks: ConstraintCheck[],
    subject = 'the plugin',
  ) {
    const refused = checks.filter((c) => !c.ok);
    super(
      `${subject} was not started: ` +
        refused
          .map((c) => `constraint ${c.constraint} asks for ${c.requested} but ${c.granted} is granted${c.reason ? ` (${c.reason})` : ''}`)
          .join('; '),
    );
  }
}

/**
 * No usable sandbox on this machine (bwrap missing, user namespaces blocked, no process
 * limit possible). `fix` says what to install or change. Travsr never falls back to an
 * unsandboxed run.
 */
export class SandboxUnavailableError extends TravsrError {
  override readonly name = 'SandboxUnavailableError';
  readonly code = SandboxErrorCode.SandboxUnavailable;
  constructor(
    readonly reason: string,
    readonly fix: string,
  ) {
    super(`No usable sandbox: ${reason}. Fix: ${fix}`);
  }
}

/** A {@link LaunchSpec} the host built is unusable (relative path, missing entrypoint, bad limit). */
export class LaunchSpecError extends TravsrError {
  override readonly name = 'LaunchSpecError';
  readonly code = SandboxErrorCode.LaunchSpecInvalid;
}

/** A file under sandbox-profiles/ is missing or malformed, or weaker than its tier promises. */
export class SandboxProfileError extends TravsrError {
  override readonly name = 'SandboxProfileError';
  readonly code = SandboxErrorCode.ProfileInvalid;
}
