import { PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection, type ConnectionOptions } from '../../src/node/connection.js';
import { encodeFrame, FrameDecoder } from '../../src/frame/codec.js';
import { WireErrorCode, WireException } from '../../src/errors.js';
import type { HelloResult } from '../../src/schema/messages.js';

const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** A host and a plugin connection joined by two in-memory pipes. */
function pair(hostOptions: Partial<ConnectionOptions> = {}, pluginOptions: Partial<ConnectionOptions> = {}) {
  const toPlugin = new PassThrough();
  const toHost = new PassThrough();
  const host = new Connection(toHost, toPlugin, { role: 'host', ...hostOptions });
  const plugin = new Connection(toPlugin, toHost, { role: 'plugin', ...pluginOptions });
  open.push(host, plugin);
  return { host, plugin, toPlugin, toHost };
}

/** A host connection whose peer is the test: it reads the host's frames and writes raw bytes. */
function hostWithRawPeer(options: Partial<ConnectionOptions> = {}) {
  const toPlugin = new PassThrough();
  const toHost = new PassThrough();
  const host = new Connection(toHost, toPlugin, { role: 'host', ...options });
  open.push(host);
  const decoder = new FrameDecoder();
  const received: Record<string, unknown>[] = [];
  toPlugin.on('data', (chunk: Buffer) => received.push(...(decoder.push(chunk) as Record<string, unknown>[])));
  const send = (message: unknown) => toHost.write(encodeFrame(message));
  return { host, received, send, toHost };
}

/** Resolves with the error the connection closed with (undefined for a clean close). */
const closed = (c: Connection) => new Promise<Error | undefined>((resolve) => c.onClose(resolve));

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await sleep(5);
  }
  throw new Error(`timed out waiting for ${what}`);
};

const HELLO_PARAMS = { protocolVersions: ['1'], host: { name: 'travsr', version: '0.1.0' }, maxFrameBytes: 16777216 };
const HELLO_RESULT: HelloResult = {
  protocolVersion: '1',
  plugin: { id: 'example-python', version: '1.2.0' },
  sdk: { name: 'test', version: '0.0.0' },
  capabilities: { phases: ['A'], cancellation: true, progress: true },
  maxFrameBytes: 65536,
};

describe('Connection', () => {
  it('answers a request with the handler result, validated on both sides', async () => {
    const { host, plugin } = pair();
    let seen: unknown;
    plugin.onRequest('hello', (params) => {
      seen = params;
      return HELLO_RESULT;
    });
    await expect(host.request('hello', HELLO_PARAMS)).resolves.toEqual(HELLO_RESULT);
    expect(seen).toEqual(HELLO_PARAMS);
    expect(host.stats.framesOut).toBe(1);
    expect(host.stats.framesIn).toBe(1);
    expect(plugin.stats.bytesIn).toBe(host.stats.bytesOut);
  });

  it('gives each request its own id and tells the caller which one (for graph/file requestId)', async () => {
    const { host, received, send } = hostWithRawPeer();
    const ids: unknown[] = [];
    const a = host.request('ping', {}, { onId: (id) => ids.push(id) });
    const b = host.request('ping', {}, { onId: (id) => ids.push(id) });
    await until(() => received.length === 2, 'two requests');
    expect(received.map((m) => m.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(2);
    // answered out of order: each promise gets its own answer
    send({ kind: 'response', id: ids[1], result: { nonce: 2 } });
    send({ kind: 'response', id: ids[0], result: { nonce: 1 } });
    await expect(a).resolves.toEqual({ nonce: 1 });
    await expect(b).resolves.toEqual({ nonce: 2 });
  });

  it('rejects with REMOTE_ERROR carrying the wire error a handler throws', async () => {
    const { host, plugin } = pair();
    plugin.onRequest('analyze', () => {
      throw new WireException(WireErrorCode.AnalysisFailed, 'grammar failed to load', { grammar: 'python' });
    });
    await expect(host.request('analyze', { phase: 'A', files: [] })).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      wire: { code: -32003, message: 'grammar failed to load', data: { grammar: 'python' } },
    });
    plugin.onRequest('ping', () => {
      throw new Error('boom');
    });
    await expect(host.request('ping', {})).rejects.toMatchObject({ wire: { code: WireErrorCode.InternalError, message: 'boom' } });
  });

  it('times out a request, sends cancel for it and ignores the late answer', async () => {
    const { host, received, send } = hostWithRawPeer();
    const started = host.request('analyze', { phase: 'A', files: [] }, { timeoutMs: 30 });
    await expect(started).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', message: 'analyze got no answer within 30 ms' });
    await until(() => received.length === 2, 'cancel');
    const [request, cancel] = received;
    expect(cancel).toEqual({ kind: 'notification', method: 'cancel', params: { id: request!.id } });
    // the answer arrives after all: dropped, and the connection stays usable
    send({ kind: 'response', id: request!.id, error: { code: WireErrorCode.Cancelled, message: 'analyze was cancelled' } });
    const ping = host.request('ping', { nonce: 5 });
    await until(() => received.length === 3, 'ping');
    send({ kind: 'response', id: received[2]!.id, result: { nonce: 5 } });
    await expect(ping).resolves.toEqual({ nonce: 5 });
    expect(host.isClosed).toBe(false);
  });

  it('answers a cancelled request with a Cancelled error: still exactly one response', async () => {
    const { host, plugin } = pair();
    let aborted = false;
    plugin.onRequest('analyze', async (_params, ctx) => {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = true;
      return { files: 0, failed: 0, nodes: 0, edges: 0 }; // a result after cancel is replaced by the error
    });
    const controller = new AbortController();
    const pending = host.request('analyze', { phase: 'A', files: [] }, { signal: controller.signal });
    await sleep(10);
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      wire: { code: WireErrorCode.Cancelled, message: 'analyze was cancelled' },
    });
    expect(aborted).toBe(true);
  });

  it('sends cancel at once for a signal that is already aborted', async () => {
    const { host, received } = hostWithRawPeer();
    void host.request('ping', {}, { signal: AbortSignal.abort() }).catch(() => undefined);
    await until(() => received.length === 2, 'request and cancel');
    expect(received.map((m) => m.method)).toEqual(['ping', 'cancel']);
  });

  it('sends no cancel when the signal aborts after the answer arrived', async () => {
    const { host, received, send } = hostWithRawPeer();
    const controller = new AbortController();
    const pending = host.request('ping', {}, { signal: controller.signal });
    await until(() => received.length === 1, 'request');
    send({ kind: 'response', id: received[0]!.id, result: {} });
    await pending;
    controller.abort();
    await sleep(20);
    expect(received).toHaveLength(1);
  });

  it('answers an unknown method with MethodNotFound and keeps going', async () => {
    const { host, plugin } = pair();
    await expect(host.request('ping', {})).rejects.toMatchObject({
      wire: { code: WireErrorCode.MethodNotFound, message: 'method not found: ping' },
    });
    expect(plugin.isClosed).toBe(false);
  });

  it('answers invalid params with InvalidParams naming the path, without calling the handler', async () => {
    const { host, plugin } = pair();
    let called = false;
    plugin.onRequest('analyze', () => {
      called = true;
      return { files: 0, failed: 0, nodes: 0, edges: 0 };
    });
    // @ts-expect-error -- invalid on purpose: the connection must refuse it at run time
    await expect(host.request('analyze', { phase: 'C', files: [] })).rejects.toMatchObject({
      wire: { code: WireErrorCode.InvalidParams, message: expect.stringContaining('analyze params failed validation: /phase') },
    });
    expect(called).toBe(false);
    expect(plugin.isClosed).toBe(false);
  });

  it('closes with SCHEMA_VIOLATION on a notification that fails its schema, rejecting what is pending', async () => {
    const { host, plugin } = pair();
    const received: unknown[] = [];
    host.onNotification('graph/file', (p) => received.push(p));
    const pending = host.request('ping', {});
    const ended = closed(host);
    const node = { vname: { corpus: '', root: '', path: 'a.py', language: 'python', signature: 'f' }, kind: 'widget', name: 'f' };
    await plugin.notify('graph/file', {
      requestId: 1,
      path: 'a.py',
      language: 'python',
      phase: 'A',
      status: 'ok',
      // @ts-expect-error -- invalid on purpose: the connection must refuse it at run time
      nodes: [node],
      edges: [],
      diagnostics: [],
    });
    const err = await ended;
    expect(err).toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringContaining('graph/file notification failed validation: /nodes/0/kind'),
    });
    expect(received).toEqual([]);
    await expect(pending).rejects.toBe(err);
    expect(host.error).toBe(err);
    await expect(host.request('ping', {})).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringContaining('graph/file notification failed validation'),
    });
  });

  it('closes with SCHEMA_VIOLATION on an unknown notification method', async () => {
    const { host, send } = hostWithRawPeer();
    const ended = closed(host);
    send({ kind: 'notification', method: 'telemetry', params: {} });
    await expect(ended).resolves.toMatchObject({ code: 'SCHEMA_VIOLATION', message: 'unknown notification method "telemetry"' });
  });

  it('closes with SCHEMA_VIOLATION on a cancel notification with invalid params', async () => {
    const { host, send } = hostWithRawPeer();
    const ended = closed(host);
    send({ kind: 'notification', method: 'cancel', params: { id: { nested: true } } });
    await expect(ended).resolves.toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringContaining('cancel notification failed validation'),
    });
  });

  it('closes with SCHEMA_VIOLATION on an envelope that fails the schema', async () => {
    const { host, send } = hostWithRawPeer();
    const ended = closed(host);
    send({ kind: 'response', id: 1, result: {}, error: { code: 1, message: 'both' } });
    await expect(ended).resolves.toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringMatching(/^frame envelope failed validation/),
    });
  });

  it('rejects the request and closes when a result fails its schema', async () => {
    const { host, received, send } = hostWithRawPeer();
    const pending = host.request('analyze', { phase: 'A', files: [] });
    const ended = closed(host);
    await until(() => received.length === 1, 'request');
    send({ kind: 'response', id: received[0]!.id, result: { files: 'many' } });
    await expect(pending).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringContaining('analyze result failed validation'),
    });
    await expect(ended).resolves.toMatchObject({ code: 'SCHEMA_VIOLATION' });
  });

  it.each([
    ['garbage bytes', Buffer.from('00000003c1c1c1', 'hex'), 'FRAME_UNDECODABLE'],
    ['an oversized length prefix', Buffer.from('7fffffff', 'hex'), 'FRAME_TOO_LARGE'],
    ['an empty frame', Buffer.from('00000000', 'hex'), 'FRAME_EMPTY'],
    ['an extension type', Buffer.from('00000003d40100', 'hex'), 'FRAME_UNSUPPORTED_TYPE'],
  ])('closes with a ProtocolError on %s', async (_what, bytes, code) => {
    const { host, plugin } = pair();
    const pending = host.request('ping', {});
    const ended = closed(host);
    await plugin.writeRaw(bytes);
    await expect(ended).resolves.toMatchObject({ name: 'ProtocolError', code });
    await expect(pending).rejects.toMatchObject({ code });
  });

  it('closes with FRAME_TRUNCATED when the stream ends inside a frame, and cleanly otherwise', async () => {
    const a = hostWithRawPeer();
    const endedA = closed(a.host);
    a.toHost.end(Buffer.from('000000', 'hex'));
    await expect(endedA).resolves.toMatchObject({ code: 'FRAME_TRUNCATED' });

    const b = hostWithRawPeer();
    const pending = b.host.request('ping', {});
    const endedB = closed(b.host);
    b.toHost.end();
    await expect(endedB).resolves.toBeUndefined();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('enforces a lowered frame limit after hello in both directions', async () => {
    const { host, plugin } = pair();
    host.setMaxFrameBytes(65536);
    plugin.onRequest('initialize', () => ({
      languages: ['x'.repeat(63)].concat(Array.from({ length: 2000 }, (_, i) => `lang${i}`)).slice(0, 256),
    }));
    // outbound: refused locally, nothing pending is left behind
    await expect(host.request('initialize', { root: '/repo', corpus: 'x'.repeat(70000) })).rejects.toMatchObject({
      code: 'FRAME_TOO_LARGE',
    });
    await expect(host.notify('log', { level: 'info', message: 'x'.repeat(70000) })).rejects.toMatchObject({ code: 'FRAME_TOO_LARGE' });
    // inbound: a frame over the limit ends the connection
    const ended = closed(host);
    await plugin.notify('log', { level: 'info', message: 'y'.repeat(70000) });
    await expect(ended).resolves.toMatchObject({ code: 'FRAME_TOO_LARGE' });
  });

  it('answers with an InternalError when a result is too large to send, so the request still gets one response', async () => {
    const { host, plugin } = pair({}, { maxFrameBytes: 1024 });
    plugin.onRequest('initialize', () => ({ languages: Array.from({ length: 100 }, (_, i) => `language-${i}`) }));
    await expect(host.request('initialize', { root: '/repo', corpus: '' }, { timeoutMs: 2000 })).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      wire: { code: WireErrorCode.InternalError, message: expect.stringContaining('initialize result could not be sent') },
    });
  });

  it('does not send cancel later for a request that could not be sent', async () => {
    const { host, received } = hostWithRawPeer({ maxFrameBytes: 65536 });
    await expect(host.request('initialize', { root: '/r', corpus: 'x'.repeat(70000) }, { timeoutMs: 20 })).rejects.toMatchObject({
      code: 'FRAME_TOO_LARGE',
    });
    await sleep(60);
    expect(received).toEqual([]);
  });

  it('with nothing allowed to wait in the stream, waits for drain on a slow writable: one frame in flight at a time, in order', async () => {
    const chunks: Buffer[] = [];
    const callbacks: (() => void)[] = [];
    const lengthAtWrite: number[] = [];
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, callback) {
        chunks.push(chunk);
        callbacks.push(() => callback()); // completes only when the test says so
      },
    });
    const write = slow.write.bind(slow) as (chunk: Buffer, cb?: (err?: Error | null) => void) => boolean;
    (slow as { write: typeof write }).write = (chunk, cb) => {
      lengthAtWrite.push(slow.writableLength);
      return write(chunk, cb);
    };
    const conn = new Connection(new PassThrough(), slow, { role: 'plugin', maxBufferedBytes: 0 });
    open.push(conn);
    const done: boolean[] = [];
    const sent = Array.from({ length: 4 }, (_, i) =>
      conn.notify('log', { level: 'info', message: `line ${i} ${'x'.repeat(100)}` }).then(() => (done[i] = true)),
    );
    await until(() => chunks.length === 1, 'first frame');
    await sleep(20);
    // the first frame filled the 64-byte buffer: nothing else is written and its promise waits for drain
    expect(chunks).toHaveLength(1);
    expect(done).toEqual([]);
    for (let i = 1; i <= 4; i++) {
      callbacks[i - 1]!();
      await until(() => done[i - 1] === true, `drain ${i}`);
      if (i < 4) await until(() => chunks.length === i + 1, `frame ${i + 1}`);
    }
    await Promise.all(sent);
    // every frame was handed over only once the previous one had drained
    expect(lengthAtWrite).toEqual([0, 0, 0, 0]);
    const decoder = new FrameDecoder();
    const lines = chunks.flatMap((c) => decoder.push(c)).map((m) => (m as { params: { message: string } }).params.message.slice(0, 6));
    expect(lines).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
  });

  it('lets frames wait in the stream up to maxBufferedBytes, then waits for the reader', async () => {
    const chunks: Buffer[] = [];
    const callbacks: (() => void)[] = [];
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, callback) {
        chunks.push(chunk);
        callbacks.push(() => callback());
      },
    });
    // Each frame is 170 bytes: two fit under 400 bytes waiting, the third goes past.
    const conn = new Connection(new PassThrough(), slow, { role: 'plugin', maxBufferedBytes: 400 });
    open.push(conn);
    const done: boolean[] = [];
    const sent = Array.from({ length: 4 }, (_, i) =>
      conn.notify('log', { level: 'info', message: `line ${i} ${'x'.repeat(100)}` }).then(() => (done[i] = true)),
    );
    await until(() => done[1] === true, 'two frames handed over without the reader');
    await sleep(20);
    expect(done).toEqual([true, true]); // the third is handed over, its promise waits: past the limit
    expect(slow.writableLength).toBeGreaterThan(400);
    while (callbacks.length > 0 || done.length < 4) {
      callbacks.shift()?.();
      await sleep(1);
    }
    await Promise.all(sent);
    const decoder = new FrameDecoder();
    const lines = chunks.flatMap((c) => decoder.push(c)).map((m) => (m as { params: { message: string } }).params.message.slice(0, 6));
    expect(lines).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
  });

  it('close() rejects pending requests with CONNECTION_CLOSED, close(err) with err, and aborts inbound handlers', async () => {
    const { host, plugin } = pair();
    let aborted = false;
    plugin.onRequest(
      'analyze',
      // @ts-expect-error -- invalid on purpose: the connection must refuse it at run time
      (_p, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve((aborted = true)))),
    );
    const a = host.request('analyze', { phase: 'A', files: [] });
    await sleep(10);
    host.close();
    await expect(a).rejects.toMatchObject({ code: 'CONNECTION_CLOSED', message: 'connection closed' });
    plugin.close();
    expect(aborted).toBe(true);

    const second = pair();
    const b = second.host.request('ping', {});
    const boom = new Error('plugin process exited with code 3');
    second.host.close(boom);
    await expect(b).rejects.toBe(boom);
    await expect(second.host.request('ping', {})).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: 'connection closed: plugin process exited with code 3',
    });
    await expect(second.host.notify('log', { level: 'info', message: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('calls onClose listeners once, including those added after the close', async () => {
    const { host } = pair();
    const calls: (Error | undefined)[] = [];
    host.onClose((e) => calls.push(e));
    host.close();
    host.close(new Error('again'));
    host.onClose((e) => calls.push(e));
    expect(calls).toEqual([undefined, undefined]);
  });

  it('skips validation when asked to (for trusted in-process peers and benchmarks)', async () => {
    const { host, plugin } = pair({ validate: false }, { validate: false });
    const got: unknown[] = [];
    host.onNotification('progress', (p) => got.push(p));
    // @ts-expect-error -- invalid on purpose: the connection must refuse it at run time
    await plugin.notify('progress', { requestId: 1, done: -5, total: 'lots' });
    await until(() => got.length === 1, 'notification');
    expect(got).toEqual([{ requestId: 1, done: -5, total: 'lots' }]);
  });
});
