import { TravsrError } from '@travsr/protocol';

/**
 * Errors of the git layer of the indexer. Each carries a SCREAMING_SNAKE `code`; recognise
 * them by `code`, not `instanceof`. Messages say what happened, why, and what to do.
 */

/** String codes of {@link GitError}. */
export const GitErrorCode = {
  /** The `git` executable could not be started. */
  NotInstalled: 'GIT_NOT_INSTALLED',
  /** The directory given does not exist or is not a directory. */
  PathNotFound: 'GIT_PATH_NOT_FOUND',
  /** The directory is not inside a git working tree. */
  NotARepository: 'GIT_NOT_A_REPOSITORY',
  /** Git refuses the repository because another user owns it (`safe.directory`). */
  UnsafeRepository: 'GIT_UNSAFE_REPOSITORY',
  /** The repository has no commit yet, so there is nothing to diff. */
  NoCommits: 'GIT_NO_COMMITS',
  /** A revision does not name a commit in this repository (typo, or gone after a rebase and gc). */
  BadRevision: 'GIT_BAD_REVISION',
  /** Git printed something this module cannot read. */
  OutputUnparsable: 'GIT_OUTPUT_UNPARSABLE',
  /** A git command failed for another reason; the message carries git's own words. */
  CommandFailed: 'GIT_COMMAND_FAILED',
} as const;
/** One of {@link GitErrorCode}. */
export type GitErrorCode = (typeof GitErrorCode)[keyof typeof GitErrorCode];

/** An error from running git or reading what it printed. */
export class GitError extends TravsrError {
  override readonly name = 'GitError';
  constructor(
    readonly code: GitErrorCode,
    message: string,
    /** The git arguments that failed, when a git command was involved. */
    readonly args?: readonly string[],
    /** Git's stderr, trimmed, when it helps. */
    readonly stderr?: string,
  ) {
    super(message);
  }
}

/** String codes of {@link HookError}. */
export const HookErrorCode = {
  /** The command to put in the hook is empty or cannot be written into a shell script. */
  CommandInvalid: 'HOOK_COMMAND_INVALID',
  /** The hook file has a travsr begin marker without its end marker, or two blocks. */
  BlockCorrupt: 'HOOK_BLOCK_CORRUPT',
  /** A foreign hook exists and is not a shell script, so a shell block cannot be added to it. */
  ForeignNotShell: 'HOOK_FOREIGN_NOT_SHELL',
  /** A foreign hook exists but is not executable (git skips it); adding our block would enable it. */
  ForeignDisabled: 'HOOK_FOREIGN_DISABLED',
  /** The hook file or its folder could not be read or written. */
  IoFailed: 'HOOK_IO_FAILED',
} as const;
/** One of {@link HookErrorCode}. */
export type HookErrorCode = (typeof HookErrorCode)[keyof typeof HookErrorCode];

/** An error installing, removing or inspecting the post-commit hook. */
export class HookError extends TravsrError {
  override readonly name = 'HookError';
  constructor(
    readonly code: HookErrorCode,
    message: string,
    /** The hook file concerned. */
    readonly path?: string,
  ) {
    super(message);
  }
}
