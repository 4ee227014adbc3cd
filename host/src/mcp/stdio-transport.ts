import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Longest line (one JSON-RPC message) read from stdin by default: 10 MiB, as the SDK's own transport. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Options of a {@link McpStdioTransport}. */
export interface McpStdioTransportOptions {
  /** Longest line accepted, in bytes (default {@link DEFAULT_MAX_LINE_BYTES}). */
  maxLineBytes?: number;
  /** Told about each line that was refused, for a line on stderr. */
  onRefused?: (message: string) => void;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * MCP over stdio, one JSON-RPC message per line, like the SDK's StdioServerTransport except
 * for bad input: the SDK drops a line that does not parse without a word and closes the
 * transport (the server exits 0) on a line over its buffer limit. Here an unparsable line is
 * answered with a JSON-RPC parse error (-32700), a line that is JSON but not a JSON-RPC message
 * with invalid request (-32600), and a line over the limit with -32600 as soon as it passes
 * the limit; the rest of that line is discarded without being buffered, and the server goes
 * on serving the next line.
 */
export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly maxLineBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The current line went over the limit: drop bytes up to its newline. */
  private discarding = false;
  private lineNumber = 0;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly opts: McpStdioTransportOptions = {},
  ) {
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  start(): Promise<void> {
    if (this.started) throw new Error('McpStdioTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onInputError = (e: Error): void => {
    this.onerror?.(e);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= data.length) {
      const newline = data.indexOf(0x0a, start);
      const piece = data.subarray(start, newline === -1 ? data.length : newline);
      if (!this.discarding) {
        if (this.pendingBytes + piece.length > this.maxLineBytes) this.refuseLongLine();
        else if (piece.length > 0) {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private refuseLongLine(): void {
    this.discarding = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.refuse(
      INVALID_REQUEST,
      `Invalid Request: line ${this.lineNumber + 1} is longer than ${this.maxLineBytes} bytes, the most one message may have; it was discarded up to its end. Send smaller messages (one JSON-RPC message per line)`,
    );
  }

  private endLine(): void {
    this.lineNumber++;
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      return this.refuse(
        PARSE_ERROR,
        `Parse error: line ${this.lineNumber} is not valid JSON (${(e as Error).message}); send one JSON-RPC message per line`,
      );
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      const issue = parsed.error.issues[0];
      return this.refuse(
        INVALID_REQUEST,
        `Invalid Request: line ${this.lineNumber} is JSON but not a JSON-RPC 2.0 message${issue ? ` (${issue.path.join('.') || 'message'}: ${issue.message})` : ''}`,
        typeof id === 'string' || typeof id === 'number' ? id : null,
      );
    }
    this.onmessage?.(parsed.data);
  }

  private refuse(code: number, message: string, id: string | number | null = null): void {
    this.opts.onRefused?.(message);
    // A JSON-RPC error with a null id is how the spec answers a message whose id is unknown.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
