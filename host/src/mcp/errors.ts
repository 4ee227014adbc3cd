import { TravsrError } from '@travsr/protocol';

/**
 * What can go wrong serving MCP over HTTP or managing its tokens. Local errors: they never cross
 * the wire (an HTTP client sees a status and a JSON-RPC error body instead). Recognise by `code`:
 * - `MCP_TOKENS_INVALID`: the token file is not JSON or not a token file (the message names the file);
 *   nothing is written over it;
 * - `MCP_TOKENS_UNREADABLE` / `MCP_TOKENS_UNWRITABLE`: the token file or its folder cannot be read or written;
 * - `MCP_TOKEN_NAME_INVALID`: a token name that is empty, too long, or has characters other than letters,
 *   digits and `. _ -`;
 * - `MCP_TOKEN_EXISTS`: a token of that name exists (remove it first);
 * - `MCP_TOKEN_NOT_FOUND`: no token of that name;
 * - `MCP_TOKEN_POLICY_INVALID`: a token that could read nothing (no corpus) or a malformed corpus or group name;
 * - `MCP_AUTH_REQUIRED`: the HTTP server was asked to listen beyond loopback without tokens;
 * - `MCP_LISTEN_FAILED`: the HTTP server could not listen (address in use, permission denied, unknown host);
 * - `MCP_OAUTH_CONFIG`: an `mcp.oauth*` setting that is not a usable URL (not absolute, or http:// beyond loopback);
 * - `MCP_OAUTH_DISCOVERY`: the issuer's discovery document cannot be read, names another issuer, or has no keys URL.
 */
export type McpServerErrorCode =
  | 'MCP_TOKENS_INVALID'
  | 'MCP_TOKENS_UNREADABLE'
  | 'MCP_TOKENS_UNWRITABLE'
  | 'MCP_TOKEN_NAME_INVALID'
  | 'MCP_TOKEN_EXISTS'
  | 'MCP_TOKEN_NOT_FOUND'
  | 'MCP_TOKEN_POLICY_INVALID'
  | 'MCP_AUTH_REQUIRED'
  | 'MCP_LISTEN_FAILED'
  | 'MCP_OAUTH_CONFIG'
  | 'MCP_OAUTH_DISCOVERY';

/**
 * An error of the MCP server or its token store; the message says what happened, why, and what to do
 * next. Named so as not to clash with the SDK's wire-level `McpError`.
 */
export class McpServerError extends TravsrError {
  override readonly name = 'McpServerError';
  constructor(
    readonly code: McpServerErrorCode,
    message: string,
    /** The file concerned, when there is one. */
    readonly path?: string,
  ) {
    super(message);
  }
}
