import type { Readable, Writable } from 'node:stream';
import type { TSchema } from '@sinclair/typebox';
import { encodeFrame, FrameDecoder } from '../frame/codec.js';
import { ProtocolError, ProtocolErrorCode, TravsrError, WireErrorCode, WireException, wireErrorFrom, type WireError } from '../errors.js';
import { METHODS } from '../schema/generated/schemas.js';
import type { Envelope, RequestId } from '../schema/messages.js';
import type { NotificationMethod, ParamsOf, RequestMethod, ResultOf } from '../schema/method-types.js';
import { assertEnvelope, assertSchema } from '../schema/validate.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../version.js';

/** Which end of the protocol this connection is: it decides which methods it may receive. */
export type ConnectionRole = 'host' | 'plugin';

/** Options of a {@link Connection}. */
export interface ConnectionOptions {
  role: ConnectionRole;
  /** Largest inbound and outbound frame; can be lowered after `hello` with {@link Connection.setMaxFrameBytes}. */
  maxFrameBytes?: number;
  /** Validate every inbound frame against the method schemas (default true). */
  validate?: boolean;
  /**
   * Bytes that may wait in the output stream before a send waits for the peer to read
   * (default {@link DEFAULT_MAX_BUFFERED_BYTES}). The stream's own high-water mark (16 KiB) is
   * smaller than one file's graph: waiting on it would tie a plugin's analysis to every pause
   * of the host's event loop.
   */
  maxBufferedBytes?: number;
}

/** Default of {@link ConnectionOptions.maxBufferedBytes}: 4 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Context passed to a request handler. */
export interface RequestContext {
  id: RequestId;
  /** Aborted when the peer sends `cancel` for this request or the connection closes. */
  signal: AbortSignal;
}

/**
 * What a request handler may return: the method's result, or nothing where `{}` is a valid
 * result (an undefined result is sent as `{}`).
 */
export type HandlerResult<M extends RequestMethod> = object extends ResultOf<M> ? ResultOf<M> | void : ResultOf<M>;

/** Handles one inbound request: gets the method's validated params, returns (or resolves to) its result. */
export type RequestHandler<M extends RequestMethod> = (
  params: ParamsOf<M>,
  ctx: RequestContext,
) => HandlerResult<M> | Promise<HandlerResult<M>>;

/** Handles one inbound notification: gets the method's validated params. */
export type NotificationHandler<M extends NotificationMethod> = (params: ParamsOf<M>) => void;

// The maps hold handlers of every method; each was registered with its own method's types.
type AnyRequestHandler = (params: unknown, ctx: RequestContext) => unknown;
type AnyNotificationHandler = (params: unknown) => void;

interface Pending {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout | undefined;
}

/** Options of one outbound request. */
export interface RequestOptions {
  /** Reject with `REQUEST_TIMEOUT` (and send `cancel`) after this many milliseconds. */
  timeoutMs?: number;
  /** Aborting sends `cancel`; the promise still settles with the peer's answer. */
  signal?: AbortSignal;
  /** Called synchronously with the id given to this request, before it is sent. */
  onId?: (id: RequestId) => void;
}

/** Counters of one connection, for traces and benchmarks. */
export interface ConnectionStats {
  framesIn: number;
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
}

/** A local error of the connection layer (never crosses the wire). */
export class ConnectionError extends TravsrError {
  override readonly name = 'ConnectionError';
  constructor(
    readonly code: 'REQUEST_TIMEOUT' | 'CONNECTION_CLOSED' | 'REMOTE_ERROR',
    message: string,
    readonly wire?: WireError,
  ) {
    super(message);
  }
}

/**
 * A JSON-RPC-style connection over length-prefixed msgpack frames on a pair of Node
 * streams (a child's stdout/stdin on the host side, process stdin/stdout in a plugin).
 *
 * Every inbound frame is treated as untrusted: it is decoded with a size check before
 * allocation and validated against the envelope and method schemas. A frame that cannot
 * be decoded or fails validation ends the connection with a {@link ProtocolError}, except
 * a request whose params are invalid, which is answered with `InvalidParams`.
 *
 * @example
 * ```ts
 * const conn = new Connection(child.stdout, child.stdin, { role: 'host' });
 * conn.onNotification('graph/file', (p) => store(p));
 * const hello = await conn.request('hello', helloParams, { timeoutMs: 5000 });
 * ```
 */
export class Connection {
  readonly role: ConnectionRole;
  readonly stats: ConnectionStats = { framesIn: 0, framesOut: 0, bytesIn: 0, bytesOut: 0 };
  private readonly decoder: FrameDecoder;
  private maxFrameBytes: number;
  private readonly validate: boolean;
  private readonly maxBufferedBytes: number;
  private readonly requestHandlers = new Map<string, AnyRequestHandler>();
  private readonly notificationHandlers = new Map<string, AnyNotificationHandler>();
  private readonly pending = new Map<RequestId, Pending>();
  private readonly inbound = new Map<RequestId, AbortController>();
  private readonly closeListeners: ((err?: Error) => void)[] = [];
  private nextId = 1;
  private closed = false;
  private closeError: Error | undefined;
  private writeChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: ConnectionOptions,
  ) {
    this.role = options.role;
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.validate = options.validate ?? true;
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.decoder = new FrameDecoder({ maxFrameBytes: this.maxFrameBytes });
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('error', (e: Error) => this.close(e));
    output.on('error', (e: Error) => this.close(e));
  }

  /** True once the connection has ended, cleanly or not. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The error that ended the connection, if any. */
  get error(): Error | undefined {
    return this.closeError;
  }

  /** Lowers (or raises) the frame limit for both directions, after `hello` negotiated it. */
  setMaxFrameBytes(n: number): void {
    this.maxFrameBytes = n;
    (this.decoder as { maxFrameBytes: number }).maxFrameBytes = n;
  }

  /**
   * Registers the handler of an inbound request method. Its return value (or throw) is the response.
   * The params it gets were validated against the method's schema (unless `validate: false`).
   */
  onRequest<M extends RequestMethod>(method: M, handler: RequestHandler<M>): void {
    this.requestHandlers.set(method, handler as AnyRequestHandler);
  }

  /** Registers the handler of an inbound notification method; its params were validated like a request's. */
  onNotification<M extends NotificationMethod>(method: M, handler: NotificationHandler<M>): void {
    this.notificationHandlers.set(method, handler as AnyNotificationHandler);
  }

  /** Called once when the connection ends; `err` is set when it ended on an error. */
  onClose(listener: (err?: Error) => void): void {
    if (this.closed) listener(this.closeError);
    else this.closeListeners.push(listener);
  }

  /**
   * Sends a request and resolves with the peer's validated result.
   * @throws ConnectionError `REMOTE_ERROR` with the peer's wire error, `REQUEST_TIMEOUT`, or `CONNECTION_CLOSED`.
   */
  request<M extends RequestMethod>(method: M, params: ParamsOf<M>, options: RequestOptions = {}): Promise<ResultOf<M>> {
    return this.sendRequest(method, params, options) as Promise<ResultOf<M>>;
  }

  /**
   * Sends a request for any method name with any params: nothing is checked on this side, and
   * the result is validated only when the method is in `METHODS`. Only for the conformance kit
   * and tests, which send unknown methods and invalid params on purpose; everything else uses
   * {@link request}.
   */
  requestUntyped(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    return this.sendRequest(method, params, options);
  }

  private sendRequest(method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closedError());
    const id = this.nextId++;
    options.onId?.(id);
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { method, resolve, reject, timer: undefined };
      if (options.timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          void this.notify('cancel', { id }).catch(() => undefined);
          reject(new ConnectionError('REQUEST_TIMEOUT', `${method} got no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      this.pending.set(id, entry);
      this.send({ kind: 'request', id, method, params }).catch((e: unknown) => {
        this.settle(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      });
      // after the request is queued, so a cancel can never overtake it; none once it settled
      if (options.signal) {
        const onAbort = () => {
          if (this.pending.has(id)) void this.notify('cancel', { id }).catch(() => undefined);
        };
        if (options.signal.aborted) onAbort();
        else options.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  /** Sends a notification; resolves once the bytes are handed to the stream (waiting while more than `maxBufferedBytes` wait to be read). */
  notify<M extends NotificationMethod>(method: M, params: ParamsOf<M>): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    return this.send(params === undefined ? { kind: 'notification', method } : { kind: 'notification', method, params });
  }

  /**
   * Writes a raw, already framed buffer. Only for tests and the conformance kit, which must
   * be able to send malformed input on purpose.
   */
  writeRaw(bytes: Uint8Array): Promise<void> {
    return this.enqueueWrite(Buffer.from(bytes));
  }

  /** Ends the connection; pending requests reject with `err` when given, else with `CONNECTION_CLOSED`. */
  close(err?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.closeError = err;
    this.input.off('data', this.onData);
    for (const [id, p] of this.pending) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(err ?? this.closedError());
      this.pending.delete(id);
    }
    for (const c of this.inbound.values()) c.abort();
    this.inbound.clear();
    for (const l of this.closeListeners.splice(0)) l(err);
  }

  private closedError(): ConnectionError {
    return new ConnectionError('CONNECTION_CLOSED', `connection closed${this.closeError ? `: ${this.closeError.message}` : ''}`);
  }

  private send(envelope: Envelope): Promise<void> {
    let frame: Buffer;
    try {
      frame = encodeFrame(envelope, this.maxFrameBytes);
    } catch (e) {
      // a rejection, not a throw: callers clean up in their catch handlers
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return this.enqueueWrite(frame);
  }

  private enqueueWrite(frame: Buffer): Promise<void> {
    const write = () =>
      new Promise<void>((resolve, reject) => {
        if (this.closed || this.output.destroyed) {
          reject(this.closedError());
          return;
        }
        this.stats.framesOut++;
        this.stats.bytesOut += frame.length;
        const ok = this.output.write(frame, (err) => {
          if (err) reject(err);
        });
        // Past the stream's mark `ok` is false and 'drain' will come; only past ours is it awaited.
        if (ok || this.output.writableLength <= this.maxBufferedBytes) resolve();
        else this.output.once('drain', () => resolve());
      });
    const next = this.writeChain.then(write, write);
    this.writeChain = next.catch(() => undefined);
    return next;
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.closed) return;
    this.stats.bytesIn += chunk.length;
    let messages: unknown[];
    try {
      messages = this.decoder.push(chunk);
    } catch (e) {
      this.close(e as Error);
      return;
    }
    for (const m of messages) {
      if (this.closed) return;
      this.stats.framesIn++;
      try {
        this.dispatch(m);
      } catch (e) {
        this.close(e as Error);
        return;
      }
    }
  };

  private readonly onEnd = (): void => {
    try {
      this.decoder.end();
      this.close();
    } catch (e) {
      this.close(e as Error);
    }
  };

  private dispatch(raw: unknown): void {
    const env = this.validate ? assertEnvelope(raw) : (raw as Envelope);
    switch (env.kind) {
      case 'response':
        this.handleResponse(env);
        return;
      case 'request':
        this.handleRequest(env.id, env.method, env.params);
        return;
      case 'notification':
        this.handleNotification(env.method, env.params);
        return;
    }
  }

  private handleResponse(env: Extract<Envelope, { kind: 'response' }>): void {
    const p = this.pending.get(env.id);
    if (!p) return; // late answer to a timed-out or cancelled request
    this.settle(env.id);
    if ('error' in env) {
      p.reject(new ConnectionError('REMOTE_ERROR', `${p.method} failed: ${env.error.message}`, env.error));
      return;
    }
    const spec = (METHODS as Record<string, { result?: TSchema }>)[p.method];
    let result = env.result;
    if (this.validate && spec?.result) {
      try {
        result = assertSchema(spec.result, env.result, `${p.method} result`);
      } catch (e) {
        p.reject(e); // already settled above, so close() would not reject it
        throw e;
      }
    }
    p.resolve(result);
  }

  private settle(id: RequestId): void {
    const p = this.pending.get(id);
    if (p?.timer) clearTimeout(p.timer);
    this.pending.delete(id);
  }

  private handleRequest(id: RequestId, method: string, params: unknown): void {
    const handler = this.requestHandlers.get(method);
    const spec = (METHODS as Record<string, { params: TSchema; type: string; direction: string }>)[method];
    if (!handler) {
      void this.respondError(id, { code: WireErrorCode.MethodNotFound, message: `method not found: ${method}` });
      return;
    }
    if (this.validate && spec) {
      try {
        params = assertSchema(spec.params, params ?? {}, `${method} params`);
      } catch (e) {
        void this.respondError(id, { code: WireErrorCode.InvalidParams, message: (e as Error).message });
        return;
      }
    }
    const controller = new AbortController();
    this.inbound.set(id, controller);
    Promise.resolve()
      .then(() => handler(params, { id, signal: controller.signal }))
      .then(
        (result) => {
          if (controller.signal.aborted && !this.closed) {
            return this.respondError(id, { code: WireErrorCode.Cancelled, message: `${method} was cancelled` });
          }
          // a result too large or not encodable still gets exactly one response
          return this.send({ kind: 'response', id, result: result ?? {} }).catch((e: unknown) =>
            this.respondError(id, {
              code: WireErrorCode.InternalError,
              message: `${method} result could not be sent: ${(e as Error).message}`,
            }),
          );
        },
        (err: unknown) => {
          const wire = controller.signal.aborted
            ? { code: WireErrorCode.Cancelled, message: `${method} was cancelled` }
            : wireErrorFrom(err);
          return this.respondError(id, wire);
        },
      )
      .catch(() => undefined)
      .finally(() => this.inbound.delete(id));
  }

  private respondError(id: RequestId, error: WireError): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.send({ kind: 'response', id, error }).catch(() => undefined);
  }

  private handleNotification(method: string, params: unknown): void {
    const spec = (METHODS as Record<string, { params: TSchema }>)[method];
    if (this.validate && spec) params = assertSchema(spec.params, params ?? {}, `${method} notification`);
    if (method === 'cancel') {
      const id = (params as { id?: RequestId } | undefined)?.id;
      if (id !== undefined) this.inbound.get(id)?.abort();
      return;
    }
    const handler = this.notificationHandlers.get(method);
    if (handler) handler(params);
    else if (this.validate && !spec) {
      throw new ProtocolError(ProtocolErrorCode.SchemaViolation, `unknown notification method "${method}"`);
    }
  }
}

export type { NotificationMethod, ParamsOf, RequestMethod, ResultOf };

export { WireException };
