import { TravsrError } from '@travsr/protocol';

/**
 * What went wrong with configuration:
 * - `CONFIG_INVALID`: a file that is not TOML, or a value of the wrong type or out of range
 *   (the message names `file:line`, the environment variable or the flag, and the key);
 * - `CONFIG_UNKNOWN_KEY`: a key name that is not in the schema (the message lists close names);
 * - `CONFIG_UNREADABLE` / `CONFIG_UNWRITABLE`: the file exists but cannot be read, or cannot be written;
 * - `CONFIG_TRUST_INVALID`: `~/.travsr/trusted-repositories.json` is not what `travsr trust` writes.
 */
export type ConfigErrorCode = 'CONFIG_INVALID' | 'CONFIG_UNKNOWN_KEY' | 'CONFIG_UNREADABLE' | 'CONFIG_UNWRITABLE' | 'CONFIG_TRUST_INVALID';

/** A configuration error; the message says what, where and what to do next. */
export class ConfigError extends TravsrError {
  override readonly name = 'ConfigError';
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
  }
}
