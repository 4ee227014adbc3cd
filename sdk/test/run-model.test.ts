// runModel's session in process: a host-side Connection on one pair of streams, the model
// session on the other — the handshake, embed and score, the errors a host sees, shutdown.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { WireErrorCode } from '@travsr/protocol';
import { Connection } from '@travsr/protocol/node';
import { ModelSession, type ModelDefinition } from '../src/run-model.js';
import { exitCodeOnClose } from '../src/process-io.js';

const HELLO = { protocolVersions: ['1'], host: { name: 'test', version: '0' }, maxFrameBytes: 1 << 20 };
const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** A model session and the host's end of it. */
function connect(def: Partial<ModelDefinition>) {
  const toPlugin = new PassThrough();
  const toHost = new PassThrough();
  const exits: number[] = [];
  const stderr: string[] = [];
  const session = new ModelSession(
    { id: 'test-model', version: '1.0.0', ...def },
    { input: toPlugin, output: toHost, exit: (c) => exits.push(c), stderr: (l) => stderr.push(l) },
  );
  const ended = session.run();
  const host = new Connection(toHost, toPlugin, { role: 'host' });
  open.push(host);
  return { host, exits, stderr, ended, toPlugin };
}

async function wire(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  const e = (await p.then(
    () => undefined,
    (err: unknown) => err,
  )) as { wire?: { code: number; message: string } } | undefined;
  expect(e?.wire, 'expected an error answer').toBeDefined();
  return e!.wire!;
}

const embedder: Partial<ModelDefinition> = { embed: async (texts) => texts.map((t) => [t.length, 0]) };

describe('runModel (ModelSession)', () => {
  it('says it serves embed and no phase, loads on initialize, and embeds in order', async () => {
    let loaded = 0;
    const { host } = connect({ ...embedder, load: () => void loaded++ });
    const hello = await host.request('hello', HELLO);
    expect(hello.capabilities).toMatchObject({ phases: [], model: ['embed'] });
    expect(hello.plugin).toEqual({ id: 'test-model', version: '1.0.0' });
    expect(await host.request('initialize', { root: '/', corpus: '' })).toEqual({ languages: [] });
    expect(loaded).toBe(1);
    expect(await host.request('embed', { texts: ['ab', 'abcd'] })).toEqual({
      vectors: [
        [2, 0],
        [4, 0],
      ],
    });
    expect(await host.request('ping', { nonce: 7 })).toEqual({ nonce: 7 });
  });

  it('a cross-encoder scores; a method the model does not serve is refused', async () => {
    const { host } = connect({ score: async (q, c) => c.map((x) => (x.includes(q) ? 1 : 0)) });
    await host.request('hello', HELLO);
    await host.request('initialize', { root: '/', corpus: '' });
    expect(await host.request('score', { query: 'a', candidates: ['xa', 'y'] })).toEqual({ scores: [1, 0] });
    expect((await wire(host.request('embed', { texts: ['x'] }))).code).toBe(WireErrorCode.MethodNotFound);
  });

  it('refuses work before hello and before initialize', async () => {
    const { host } = connect(embedder);
    expect((await wire(host.request('embed', { texts: ['x'] }))).code).toBe(WireErrorCode.NotInitialized);
    await host.request('hello', HELLO);
    const e = await wire(host.request('embed', { texts: ['x'] }));
    expect(e.message).toMatch(/before initialize/);
    expect((await wire(host.request('hello', HELLO))).message).toMatch(/already answered/);
  });

  it('a model that cannot load fails initialize with its reason', async () => {
    const { host, stderr } = connect({ ...embedder, load: () => Promise.reject(new Error('model.onnx is corrupt')) });
    await host.request('hello', HELLO);
    const e = await wire(host.request('initialize', { root: '/', corpus: '' }));
    expect(e.message).toBe('test-model could not load its model: model.onnx is corrupt');
    expect(stderr.join('\n')).toContain('model.onnx is corrupt');
  });

  it('a hook that fails or miscounts answers an error and the session goes on', async () => {
    let calls = 0;
    const { host } = connect({
      embed: async (texts) => {
        calls++;
        if (calls === 1) throw new Error('out of memory');
        return calls === 2 ? [] : texts.map(() => [1]);
      },
    });
    await host.request('hello', HELLO);
    await host.request('initialize', { root: '/', corpus: '' });
    expect((await wire(host.request('embed', { texts: ['x'] }))).message).toBe('test-model embed failed: out of memory');
    expect((await wire(host.request('embed', { texts: ['x'] }))).message).toBe('test-model returned 0 vectors for 1 texts');
    expect(await host.request('embed', { texts: ['x'] })).toEqual({ vectors: [[1]] });
  });

  it('shutdown runs the hook, answers and exits 0', async () => {
    let down = 0;
    const a = connect({ ...embedder, shutdown: () => void down++ });
    await a.host.request('hello', HELLO);
    expect(await a.host.request('shutdown', {})).toEqual({});
    await a.ended;
    expect(down).toBe(1);
    expect(a.exits).toEqual([0]);
  });

  it('exits 0 when the host goes away', async () => {
    const b = connect(embedder);
    await b.host.request('hello', HELLO);
    b.toPlugin.end();
    await b.ended;
    expect(b.exits).toEqual([0]);
  });
});

describe('exitCodeOnClose', () => {
  it('2 after a protocol error (said), 0 when the host went away, nothing while shutting down', () => {
    const lines: string[] = [];
    const io = { stderr: (l: string) => lines.push(l) };
    expect(exitCodeOnClose(Object.assign(new Error('frame too large'), { code: 'FRAME_TOO_LARGE' }), false, 'm', io)).toBe(2);
    expect(lines[0]).toBe('m: protocol error on the host connection (FRAME_TOO_LARGE): frame too large; exiting');
    expect(exitCodeOnClose(undefined, false, 'm', io)).toBe(0);
    expect(exitCodeOnClose(undefined, true, 'm', io)).toBeUndefined();
  });
});
