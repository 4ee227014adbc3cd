/**
 * Two error families, as in the MCP TypeScript SDK:
 * - {@link ProtocolError}: a local error with a string `code`; it never crosses the wire. Like
 *   every local error of every package it extends {@link TravsrError}.
 * - {@link WireError}: the `{code, message, data?}` object carried by a response, with a
 *   numeric code from {@link WireErrorCode}; {@link wireErrorFrom} builds one from anything thrown.
 */
import { TravsrError, errorCode } from './travsr-error.js';

export { TravsrError, errorCode };

/** String codes of local protocol errors. Recognise errors by `code`, not `instanceof`. */
export const ProtocolErrorCode = {
  FrameTooLarge: 'FRAME_TOO_LARGE',
  FrameEmpty: 'FRAME_EMPTY',
  FrameUndecodable: 'FRAME_UNDECODABLE',
  FrameTrailingBytes: 'FRAME_TRAILING_BYTES',
  FrameUnsupportedType: 'FRAME_UNSUPPORTED_TYPE',
  FrameTruncated: 'FRAME_TRUNCATED',
  SchemaViolation: 'SCHEMA_VIOLATION',
  ManifestInvalid: 'MANIFEST_INVALID',
  VNameInvalid: 'VNAME_INVALID',
} as const;
export type ProtocolErrorCode = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

/**
 * A local error raised by the codec or a validator.
 *
 * @example
 * ```ts
 * try { decoder.push(chunk); } catch (e) {
 *   if (errorCode(e) === 'FRAME_TOO_LARGE') endSession(e);
 * }
 * ```
 */
export class ProtocolError extends TravsrError {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Numeric codes carried in `error.code` of a response (JSON-RPC values where one exists). */
export const WireErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The request was cancelled by a `cancel` notification. */
  Cancelled: -32800,
  /** The plugin does not support any protocol version the host offered. */
  UnsupportedProtocolVersion: -32001,
  /** A request arrived before `hello` / `initialize` completed. */
  NotInitialized: -32002,
  /** The analyzer failed on the given input (the file is reported, the session goes on). */
  AnalysisFailed: -32003,
  /** The plugin is shutting down and accepts no new work. */
  ShuttingDown: -32004,
} as const;
export type WireErrorCode = (typeof WireErrorCode)[keyof typeof WireErrorCode];

/** The error object of a response envelope. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Turns anything thrown into a {@link WireError}. An object that already has a numeric
 * `code` and a `message` keeps them; anything else becomes an internal error.
 *
 * @example
 * ```ts
 * wireErrorFrom(new Error('boom')); // { code: -32603, message: 'boom' }
 * ```
 */
export function wireErrorFrom(err: unknown): WireError {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown };
    const message = typeof e.message === 'string' ? e.message : Object.prototype.toString.call(err);
    if (typeof e.code === 'number' && Number.isInteger(e.code)) {
      return e.data === undefined ? { code: e.code, message } : { code: e.code, message, data: e.data };
    }
    return { code: WireErrorCode.InternalError, message };
  }
  return { code: WireErrorCode.InternalError, message: String(err) };
}

/**
 * An error a handler can throw to answer with a specific wire code. It belongs to the wire
 * family (a numeric code that crosses the wire), so it is not a {@link TravsrError}.
 *
 * @example
 * ```ts
 * throw new WireException(WireErrorCode.InvalidParams, 'files must not be empty');
 * ```
 */
export class WireException extends Error implements WireError {
  override readonly name = 'WireException';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
