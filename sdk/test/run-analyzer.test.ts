import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WireErrorCode, type GraphFileParams } from '@travsr/protocol';
import { ConnectionError } from '@travsr/protocol/node';
import { SDK_VERSION } from '../src/index.js';
import type { PluginSession } from '../src/testing/session.js';
import { buildFixturePlugin, startFixture, type FixturePlugin } from './helpers.js';

const T = 10_000;
let plugin: FixturePlugin;
const sessions: PluginSession[] = [];

beforeAll(async () => {
  plugin = await buildFixturePlugin({
    'a.fx': 'def alpha\ncall beta\n',
    'b.fx': 'def beta\ncall gamma\ndef gamma\n',
    'throws.fx': 'def x\nthrow\n',
    'stray.fx': 'stray\n',
    'huge.fx': 'huge\n',
    'logs.fx': 'log hello-from-fixture\nconsole printed-by-console-log\ndef after_console\n',
    'slow.fx': 'slow 20000\n',
    'busy.fx': 'busy 25\ndef busy_one\n',
    'hang.fx': 'hang\n',
  });
});
afterAll(() => plugin.cleanup());
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.stop();
});

async function start(mode?: string): Promise<PluginSession> {
  const s = await startFixture(plugin, mode ? { mode } : {});
  sessions.push(s);
  return s;
}

async function ready(mode?: string): Promise<PluginSession> {
  const s = await start(mode);
  await s.handshake(T, 'corpus.example');
  return s;
}

async function wireError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ConnectionError && e.wire) return e.wire;
    throw e;
  }
  throw new Error('expected an error response');
}

function filesFor(s: PluginSession, id: number | string): GraphFileParams[] {
  return s.graphFiles.filter((g) => g.requestId === id);
}

describe('runAnalyzer: started by hand', () => {
  it('prints one line naming `travsr plugin test`, writes nothing on stdout and exits 1', async () => {
    const s = await startFixture(plugin, { cookie: false, connect: false });
    sessions.push(s);
    const exit = await s.waitExit(T);
    await s.settleStderr();
    expect(exit?.code).toBe(1);
    expect(s.rawStdoutBytes).toBe(0);
    const lines = s.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('fixture-analyzer@1.2.3 is a Travsr analyzer plugin');
    expect(lines[0]).toContain('travsr plugin test');
  });

  it('refuses an invalid definition with a clear message', async () => {
    const s = await start('bad-id');
    const exit = await s.waitExit(T);
    await s.settleStderr();
    expect(exit?.code).toBe(1);
    expect(s.stderr).toContain('invalid definition passed to runAnalyzer(): id "Not An Id"');
  });
});

describe('runAnalyzer: handshake', () => {
  it('answers hello with the plugin, the SDK and the capabilities', async () => {
    const s = await start();
    const hello = await s.hello(T);
    expect(hello).toEqual({
      protocolVersion: '1',
      plugin: { id: 'fixture-analyzer', version: '1.2.3' },
      sdk: { name: '@travsr/sdk', version: SDK_VERSION },
      capabilities: { phases: ['A'], cancellation: true, progress: true },
      maxFrameBytes: 16 * 1024 * 1024,
    });
  });

  it('picks the highest protocol version both sides speak, comparing numerically', async () => {
    const s = await start('multi-version');
    const hello = await s.request(
      'hello',
      { protocolVersions: ['2', '10', '7'], host: { name: 't', version: '0' }, maxFrameBytes: 1 << 20 },
      T,
    );
    expect(hello.protocolVersion).toBe('10');
  });

  it('refuses hello when no protocol version is shared', async () => {
    const s = await start();
    const err = await wireError(
      s.request('hello', { protocolVersions: ['7', '8'], host: { name: 't', version: '0' }, maxFrameBytes: 1 << 20 }, T),
    );
    expect(err.code).toBe(WireErrorCode.UnsupportedProtocolVersion);
    expect(err.message).toContain('speaks protocol version(s) 1 but the host offered 7, 8');
    // The session is still usable with a version it does speak.
    expect((await s.hello(T)).protocolVersion).toBe('1');
  });

  it('answers requests before hello and analyze before initialize with NotInitialized', async () => {
    const s = await start();
    expect((await wireError(s.request('ping', {}, T))).code).toBe(WireErrorCode.NotInitialized);
    await s.hello(T);
    const err = await wireError(s.request('analyze', { phase: 'A', files: [] }, T));
    expect(err.code).toBe(WireErrorCode.NotInitialized);
    expect(err.message).toContain('before initialize');
  });

  it('lowers its frame limit to the smaller side and exits 2 on a larger frame from the host', async () => {
    const s = await start('small-frames');
    const hello = await s.hello(T);
    expect(hello.maxFrameBytes).toBe(64 * 1024);
    expect(s.maxFrameBytes).toBe(64 * 1024);
    const frame = Buffer.alloc(8);
    frame.writeUInt32BE(64 * 1024 + 1, 0);
    await s.conn!.writeRaw(frame);
    const exit = await s.waitExit(T);
    await s.settleStderr();
    expect(exit?.code).toBe(2);
    const lines = s.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/protocol error on the host connection \(FRAME_TOO_LARGE\).*65537 bytes/);
  });
});

describe('runAnalyzer: analyze', () => {
  it('streams one complete graph/file per file, in order, and answers with matching counts', async () => {
    const s = await ready();
    const result = await s.request(
      'analyze',
      {
        phase: 'A',
        files: [
          { path: 'a.fx', language: 'fixture' },
          { path: 'b.fx', language: 'fixture' },
        ],
      },
      T,
    );
    const id = s.lastRequestId!;
    const files = filesFor(s, id);
    expect(files.map((f) => [f.path, f.status])).toEqual([
      ['a.fx', 'ok'],
      ['b.fx', 'ok'],
    ]);
    const b = files[1]!;
    expect(b.nodes.map((n) => n.vname)).toEqual([
      { corpus: 'corpus.example', root: '', path: 'b.fx', language: 'fixture', signature: '' },
      { corpus: 'corpus.example', root: '', path: 'b.fx', language: 'fixture', signature: 'beta' },
      { corpus: 'corpus.example', root: '', path: 'b.fx', language: 'fixture', signature: 'gamma' },
    ]);
    expect(b.edges.every((e) => e.kind === 'contains' && e.provenance === 'phase-a')).toBe(true);
    expect(b.refs).toEqual([
      { src: b.nodes[1]!.vname, kind: 'calls', name: 'gamma', range: { startLine: 2, startCol: 5, endLine: 2, endCol: 10 } },
    ]);
    expect(result).toEqual({ files: 2, failed: 0, nodes: 5, edges: 3 });
  });

  it('reports a throwing analyzer, a missing file and a path outside the root as failed, and goes on', async () => {
    const s = await ready();
    const result = await s.request(
      'analyze',
      {
        phase: 'A',
        files: [
          { path: 'throws.fx', language: 'fixture' },
          { path: 'nope/missing.fx', language: 'fixture' },
          { path: '../outside.fx', language: 'fixture' },
          { path: 'stray.fx', language: 'fixture' },
          { path: 'a.fx', language: 'fixture' },
        ],
      },
      T,
    );
    const id = s.lastRequestId!;
    const byPath = new Map(filesFor(s, id).map((f) => [f.path, f]));
    const code = (p: string) => [byPath.get(p)?.status, byPath.get(p)?.diagnostics[0]?.code];
    expect(code('throws.fx')).toEqual(['failed', 'ANALYZER_ERROR']);
    expect(byPath.get('throws.fx')!.diagnostics[0]!.message).toContain('fixture asked to throw in throws.fx');
    expect(code('nope/missing.fx')).toEqual(['failed', 'FILE_UNREADABLE']);
    expect(code('../outside.fx')).toEqual(['failed', 'PATH_OUTSIDE_ROOT']);
    expect(code('stray.fx')).toEqual(['failed', 'INVALID_ANALYZER_OUTPUT']);
    expect(byPath.get('stray.fx')!.diagnostics[0]!.message).toContain('"elsewhere.fx"');
    expect(code('a.fx')).toEqual(['ok', undefined]);
    expect(result.failed).toBe(4);
    await s.settleStderr();
    expect(s.stderr).toContain('analyzer threw on throws.fx: Error: fixture asked to throw');
  });

  it('fails a file whose graph does not fit in a frame, and keeps the session', async () => {
    const s = await start('small-frames');
    await s.handshake(T, 'c');
    const result = await s.request(
      'analyze',
      {
        phase: 'A',
        files: [
          { path: 'huge.fx', language: 'fixture' },
          { path: 'a.fx', language: 'fixture' },
        ],
      },
      T,
    );
    const id = s.lastRequestId!;
    const [huge, a] = filesFor(s, id);
    expect(huge?.status).toBe('failed');
    expect(huge?.diagnostics[0]?.code).toBe('FILE_GRAPH_TOO_LARGE');
    expect(a?.status).toBe('ok');
    expect(result).toMatchObject({ files: 2, failed: 1 });
  });

  it('answers ping while a long analysis runs', async () => {
    const s = await ready();
    const files = Array.from({ length: 60 }, () => ({ path: 'busy.fx', language: 'fixture' }));
    let analyzeDone = false;
    const analysis = s.request('analyze', { phase: 'A', files }, T).then((r) => {
      analyzeDone = true;
      return r;
    });
    const id = s.lastRequestId!;
    while (filesFor(s, id).length === 0) await new Promise((r) => setTimeout(r, 5));
    const pong = await s.request('ping', { nonce: 42 }, T);
    expect(pong).toEqual({ nonce: 42 });
    expect(analyzeDone).toBe(false);
    expect((await analysis).files).toBe(60);
  });

  it('sends progress at a bounded rate and a final count', async () => {
    const s = await ready();
    const files = Array.from({ length: 60 }, () => ({ path: 'busy.fx', language: 'fixture' }));
    const started = Date.now();
    await s.request('analyze', { phase: 'A', files }, T);
    const id = s.lastRequestId!;
    const elapsed = Date.now() - started;
    const progress = s.progress.filter((p) => p.requestId === id);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(Math.floor(elapsed / 250) + 1);
    expect(progress[progress.length - 1]).toEqual({ requestId: id, done: 60, total: 60 });
  });

  it('stops at cancel: answers Cancelled, sends nothing more for the request, still answers ping', async () => {
    const s = await ready();
    const files = Array.from({ length: 400 }, () => ({ path: 'busy.fx', language: 'fixture' }));
    const abort = new AbortController();
    const analysis = wireError(s.request('analyze', { phase: 'A', files }, T, abort.signal));
    const id = s.lastRequestId!;
    while (filesFor(s, id).length < 2) await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    const err = await analysis;
    expect(err.code).toBe(WireErrorCode.Cancelled);
    const sent = filesFor(s, id).length;
    expect(sent).toBeLessThan(400);
    await s.request('ping', {}, T);
    expect(filesFor(s, id).length).toBe(sent);
  });

  it('cancels an analyzer that is waiting (not computing) without waiting for it', async () => {
    const s = await ready();
    const abort = new AbortController();
    const started = Date.now();
    const analysis = wireError(s.request('analyze', { phase: 'A', files: [{ path: 'slow.fx', language: 'fixture' }] }, T, abort.signal));
    await new Promise((r) => setTimeout(r, 100));
    abort.abort();
    expect((await analysis).code).toBe(WireErrorCode.Cancelled);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a phase it does not run', async () => {
    const s = await ready();
    const err = await wireError(s.request('analyze', { phase: 'B', files: [] }, T));
    expect(err.code).toBe(WireErrorCode.InvalidParams);
    expect(err.message).toContain('does not run phase B');
  });

  it('turns ctx.log into log notifications and console.log into stderr, keeping stdout for frames', async () => {
    const s = await ready();
    await s.request('analyze', { phase: 'A', files: [{ path: 'logs.fx', language: 'fixture' }] }, T);
    const id = s.lastRequestId!;
    expect(s.logs).toContainEqual({ level: 'info', message: 'hello-from-fixture', data: { path: 'logs.fx' } });
    expect(filesFor(s, id)[0]?.nodes.map((n) => n.name)).toContain('after_console');
    await s.settleStderr();
    expect(s.stderr).toContain('printed-by-console-log');
  });
});

describe('runAnalyzer: whole-program hook', () => {
  it('streams what analyze() yields and reports files it skipped as failed', async () => {
    const s = await start('program');
    const { hello } = await s.handshake(T, 'c');
    expect(hello.capabilities.phases).toEqual(['A', 'B']);
    const result = await s.request(
      'analyze',
      {
        phase: 'B',
        files: [
          { path: 'a.fx', language: 'fixture' },
          { path: 'b.fx', language: 'fixture' },
          { path: 'skip-me.fx', language: 'fixture' },
        ],
      },
      T,
    );
    const id = s.lastRequestId!;
    const files = filesFor(s, id);
    expect(files.map((f) => [f.path, f.status, f.phase])).toEqual([
      ['b.fx', 'ok', 'B'],
      ['a.fx', 'ok', 'B'],
      ['skip-me.fx', 'failed', 'B'],
    ]);
    expect(files[2]!.diagnostics[0]!.code).toBe('NOT_REPORTED');
    // A Phase B request's builders give their edges (contains included) provenance phase-b.
    expect(files[0]!.edges.map((e) => e.provenance)).toEqual(['phase-b']);
    expect(files[0]!.nodes[1]!.skeleton).toBe(`${readFileSync(`${plugin.repo}/b.fx`, 'utf8').length} chars`);
    expect(result).toEqual({ files: 3, failed: 1, nodes: 4, edges: 2 });
  });
});

describe('runAnalyzer: phases a session cannot run', () => {
  it('answers initialize with the phases left and the reason, and refuses the other phase', async () => {
    const s = await start('no-tool');
    const { hello, initialize } = await s.handshake(T, 'c');
    expect(hello.capabilities.phases).toEqual(['A', 'B']);
    expect(initialize).toEqual({
      languages: ['fixture'],
      phases: ['A'],
      unavailable: [{ phase: 'B', reason: 'fixture-indexer is not on PATH' }],
    });
    const err = await wireError(s.request('analyze', { phase: 'B', files: [{ path: 'a.fx', language: 'fixture' }] }, T));
    expect(err.message).toMatch(/phase B/i);
  });

  it('fails the files a throwing whole-program hook did not report, with its message', async () => {
    const s = await start('program-throws');
    await s.handshake(T, 'c');
    const result = await s.request(
      'analyze',
      {
        phase: 'B',
        files: [
          { path: 'a.fx', language: 'fixture' },
          { path: 'b.fx', language: 'fixture' },
        ],
      },
      T,
    );
    const files = filesFor(s, s.lastRequestId!);
    expect(files.map((f) => [f.path, f.status])).toEqual([
      ['a.fx', 'ok'],
      ['b.fx', 'failed'],
    ]);
    expect(files[1]!.diagnostics[0]).toMatchObject({
      code: 'ANALYSIS_FAILED',
      message: 'the analysis stopped before this file: fixture-indexer exited with 1: no module here',
    });
    expect(result).toMatchObject({ files: 2, failed: 1 });
  });
});

describe('runAnalyzer: ending', () => {
  it('answers shutdown, then exits 0', async () => {
    const s = await ready();
    expect(await s.request('shutdown', {}, T)).toEqual({});
    const exit = await s.waitExit(T);
    expect(exit?.code).toBe(0);
  });

  it('exits 0 when the host closes stdin', async () => {
    const s = await ready();
    s.process.stdin.end();
    const exit = await s.waitExit(T);
    expect(exit?.code).toBe(0);
  });

  it('cancels a running analysis on shutdown and still answers both requests', async () => {
    const s = await ready();
    const files = Array.from({ length: 400 }, () => ({ path: 'busy.fx', language: 'fixture' }));
    const analysis = wireError(s.request('analyze', { phase: 'A', files }, T));
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.request('shutdown', {}, T)).toEqual({});
    expect((await analysis).code).toBe(WireErrorCode.Cancelled);
    expect((await s.waitExit(T))?.code).toBe(0);
  });
});
