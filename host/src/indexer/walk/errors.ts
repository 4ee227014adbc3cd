import { errorCode, TravsrError } from '@travsr/protocol';

/**
 * Errors of the repository walk, the language map and file hashing. Each carries a
 * SCREAMING_SNAKE `code`; recognise them by `code`, not `instanceof`.
 */

/** String codes of walk errors. */
export const WalkErrorCode = {
  /** The root to walk does not exist or cannot be read. */
  RootUnreadable: 'WALK_ROOT_UNREADABLE',
  /** The root to walk is not a directory. */
  RootNotDirectory: 'WALK_ROOT_NOT_DIRECTORY',
  /** An option has a value the walker cannot use. */
  InvalidOption: 'WALK_INVALID_OPTION',
  /** A path handed to {@link hashFiles} is absolute or climbs out of the root. */
  PathOutsideRoot: 'WALK_PATH_OUTSIDE_ROOT',
  /** A file could not be hashed (gone, unreadable, or not a regular file); `cause` holds the system error. */
  HashFailed: 'FILE_HASH_FAILED',
  /** A plugin's manifest or extension table cannot be turned into a language map. */
  LanguageMapInvalid: 'LANGUAGE_MAP_INVALID',
} as const;
/** One of {@link WalkErrorCode}. */
export type WalkErrorCode = (typeof WalkErrorCode)[keyof typeof WalkErrorCode];

/** An error of the walk layer; the message says what happened, why, and what to do. */
export class WalkError extends TravsrError {
  override readonly name = 'WalkError';
  constructor(
    readonly code: WalkErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The `code` of a system error (`ENOENT`, `EACCES`, …), if it has one. */
export const systemCode: (e: unknown) => string | undefined = errorCode;

/** A system error in a few words: its code and message, without the stack. */
export function describeSystemError(e: unknown): string {
  const code = systemCode(e);
  const message = e instanceof Error ? e.message : String(e);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}
