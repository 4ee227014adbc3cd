import { TravsrError } from '@travsr/protocol';

/**
 * What can go wrong writing an MCP client's configuration file. Recognise by `code`:
 * - `CLIENT_CONFIG_INVALID`: the file is not JSON, or its top level or `mcpServers` is not an object
 *   (the message names `file:line:col` when it can); the file is left untouched;
 * - `CLIENT_CONFIG_UNSUPPORTED`: the file holds a number JavaScript cannot keep exactly, so rewriting
 *   it would change it; the file is left untouched;
 * - `CLIENT_CONFIG_CONFLICT`: an entry of that name exists and launches something else (`--force` replaces it);
 * - `CLIENT_CONFIG_CHANGED`: another program rewrote the file while Travsr was writing it;
 * - `CLIENT_CONFIG_UNREADABLE` / `CLIENT_CONFIG_UNWRITABLE`: the file or its folder cannot be read or written;
 * - `CLIENT_SCOPE_UNSUPPORTED`: the client has no configuration at that scope;
 * - `SERVER_NAME_INVALID`: the `--name` given cannot name a server entry;
 * - `TRAVSR_ENTRY_NOT_FOUND`: the CLI's own entry script is missing, so there is nothing to point the client at.
 */
export type ConnectErrorCode =
  | 'CLIENT_CONFIG_INVALID'
  | 'CLIENT_CONFIG_UNSUPPORTED'
  | 'CLIENT_CONFIG_CONFLICT'
  | 'CLIENT_CONFIG_CHANGED'
  | 'CLIENT_CONFIG_UNREADABLE'
  | 'CLIENT_CONFIG_UNWRITABLE'
  | 'CLIENT_SCOPE_UNSUPPORTED'
  | 'SERVER_NAME_INVALID'
  | 'TRAVSR_ENTRY_NOT_FOUND';

/** An error connecting an MCP client; the message says what happened, why, and what to do next. */
export class ConnectError extends TravsrError {
  override readonly name = 'ConnectError';
  constructor(
    readonly code: ConnectErrorCode,
    message: string,
    /** The configuration file concerned, when there is one. */
    readonly path?: string,
  ) {
    super(message);
  }
}
