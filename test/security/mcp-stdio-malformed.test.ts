// Finding 10 of issue 12: MCP over stdio ignored an unparsable line without a JSON-RPC parse error,
// and on a line over 10 MiB the server exited 0 without a word.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
const repo = mkdtempSync(join(tmpdir(), 'travsr-stdio-'));

beforeAll(async () => {
  writeFileSync(join(repo, 'main.lua'), 'local function greet() return "hi" end\nreturn greet\n');
  const init = await travsr(['init', repo, '--no-hook'], { env: { TRAVSR_CORPUS: 'stdio' } });
  expect(init.code, init.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(repo, { recursive: true, force: true }));

interface Reply {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: { tools?: unknown[]; serverInfo?: { name: string } };
  error?: { code: number; message: string };
}

/** `travsr mcp --stdio`, with a reader of the JSON-RPC lines it writes. */
function startStdio() {
  const server = execa(process.execPath, [BIN, 'mcp', '--stdio', '--repo', repo], {
    env: { TRAVSR_HOME: process.env.TRAVSR_HOME! },
    reject: false,
    stdin: 'pipe',
    buffer: false,
  });
  const replies: Reply[] = [];
  const waiting: ((r: Reply) => void)[] = [];
  let out = '';
  let err = '';
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) !== -1) {
      const reply = JSON.parse(out.slice(0, nl)) as Reply;
      out = out.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(reply);
      else replies.push(reply);
    }
  });
  server.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const exited = server.then((r) => r);
  return {
    server,
    send: (line: string) => void server.stdin.write(line),
    stderr: () => err,
    // A reply, or a failure naming what happened instead (the server ended, or stayed silent).
    next: () =>
      replies.length > 0
        ? Promise.resolve(replies.shift()!)
        : Promise.race([
            new Promise<Reply>((resolve) => waiting.push(resolve)),
            exited.then((r) => Promise.reject(new Error(`the server exited with code ${String(r.exitCode)} and no reply; stderr: ${err}`))),
            new Promise<Reply>((_, reject) => setTimeout(() => reject(new Error(`no reply; stderr: ${err}`)), 30_000).unref()),
          ]),
  };
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

describe('finding 10: MCP stdio ignores unparsable lines without a JSON-RPC parse error and exits 0 silently on a line over 10 MiB', () => {
  it('answers an unparsable line with a parse error, a non-JSON-RPC line with invalid request, and keeps serving', async () => {
    const s = startStdio();
    s.send('{this is not json\n');
    const parse = await s.next();
    expect(parse).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(parse.error!.message).toMatch(/^Parse error: line 1 is not valid JSON .*send one JSON-RPC message per line$/);

    s.send(`${initialize}\n`);
    expect(await s.next()).toMatchObject({ id: 1, result: { serverInfo: { name: 'travsr' } } });

    s.send('{"id": 7, "hello": "world"}\n');
    const invalid = await s.next();
    expect(invalid).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(invalid.error!.message).toMatch(/^Invalid Request: line 3 is JSON but not a JSON-RPC 2\.0 message/);

    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    const tools = await s.next();
    expect(tools.id).toBe(2);
    expect(tools.result!.tools!.length).toBeGreaterThan(0);
    expect(s.stderr()).toMatch(/travsr mcp: Parse error: line 1/);
    s.server.stdin.end();
    expect((await s.server).exitCode).toBe(0);
  });

  it('refuses a line over 10 MiB with a JSON-RPC error and a line on stderr, and serves the next line', async () => {
    const s = startStdio();
    s.send(`${initialize}\n`);
    expect((await s.next()).id).toBe(1);
    // 10 MiB + 1 KiB of one message, written in 1 MiB pieces.
    const piece = 'x'.repeat(1024 * 1024);
    s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_symbols","arguments":{"query":"`);
    for (let i = 0; i < 10; i++) s.send(piece);
    s.send(`${'x'.repeat(1024)}"}}}\n`);
    const tooLong = await s.next();
    expect(tooLong).toMatchObject({ id: null, error: { code: -32600 } });
    expect(tooLong.error!.message).toMatch(
      /^Invalid Request: line 2 is longer than 10485760 bytes, the most one message may have; it was discarded/,
    );
    expect(s.stderr()).toMatch(/travsr mcp: Invalid Request: line 2 is longer than 10485760 bytes/);

    s.send('{"jsonrpc":"2.0","id":4,"method":"tools/list"}\n');
    const tools = await s.next();
    expect(tools.id).toBe(4);
    expect(tools.result!.tools!.length).toBeGreaterThan(0);
    s.server.stdin.end();
    expect((await s.server).exitCode).toBe(0);
  });
});
