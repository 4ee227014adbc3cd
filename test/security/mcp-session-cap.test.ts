// Finding 6 of issue 12: one valid token could open MCP HTTP sessions without limit (25,000
// initialize requests grew the server from 0.31 to 1.05 GB), and idle sessions lived 30 minutes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp } from '../helpers/mcp-http.js';
import { travsr, type CliProcess } from '../helpers/run-cli.js';

const repo = mkdtempSync(join(tmpdir(), 'travsr-session-cap-'));
const servers: CliProcess[] = [];
let flooder: string;
let other: string;

beforeAll(async () => {
  writeFileSync(join(repo, 'main.lua'), 'local function greet() return "hi" end\nreturn greet\n');
  const init = await travsr(['init', repo, '--no-hook'], { env: { TRAVSR_CORPUS: 'cap' } });
  expect(init.code, init.stderr).toBe(0);
  const add = async (name: string) =>
    (JSON.parse((await travsr(['mcp', 'token', 'add', name, '--all-corpora', '--json'])).stdout) as { token: string }).token;
  flooder = await add('flooder');
  other = await add('other');
}, 120_000);
afterAll(async () => {
  for (const s of servers) s.kill('SIGTERM');
  await Promise.all(servers);
  rmSync(repo, { recursive: true, force: true });
});

/** Starts the real `travsr mcp --http` and resolves with its base URL. */
async function startServer(flags: string[]): Promise<string> {
  const { server, base } = await startMcpHttp([repo], { args: flags });
  servers.push(server);
  return base;
}

/** One raw initialize, as a flooding client sends it. */
async function initialize(base: string, token: string) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
    }),
  });
  const text = await res.text();
  return { status: res.status, session: res.headers.get('mcp-session-id'), text, retryAfter: res.headers.get('retry-after') };
}

/** Polls `attempt` until it returns true (for what the server notices asynchronously). */
async function eventually(attempt: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await attempt()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never happened: ${what}`);
}

describe('finding 6: No cap on MCP HTTP sessions per token', () => {
  it('one token is capped, another token still works, the server has an overall cap, and an ended session frees its slot', async () => {
    const base = await startServer(['--max-sessions-per-token', '3', '--max-sessions', '5']);
    const results = [];
    for (let i = 0; i < 3 + 5; i++) results.push(await initialize(base, flooder));
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.slice(0, 3).every((r) => r.session !== null)).toBe(true);
    for (const r of results.slice(3)) {
      expect(r.status).toBe(429);
      expect(r.session).toBeNull();
      expect(r.retryAfter).toMatch(/^\d+$/);
      const body = JSON.parse(r.text) as { jsonrpc: string; id: null; error: { code: number; message: string } };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toMatch(
        /^Too Many Requests: token "flooder" already has 3 open MCP sessions, the most one token may hold\. End the sessions you no longer use \(DELETE \/mcp/,
      );
    }
    // The older SSE transport counts against the same cap.
    const sse = await fetch(`${base}/sse`, { headers: { Authorization: `Bearer ${flooder}` } });
    expect(sse.status).toBe(429);
    await sse.body?.cancel();

    // Another token is not locked out: the real SDK client connects and calls a tool.
    const client = new Client({ name: 'travsr-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${other}` } } }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // 3 + 1 open; one more fills the server, the next is refused for the server as a whole.
    expect((await initialize(base, other)).status).toBe(200);
    const full = await initialize(base, other);
    expect(full.status).toBe(503);
    expect(full.text).toMatch(/already has 5 open sessions, its limit for all tokens together.*--max-sessions/);
    await client.close();

    // A session the client ends gives its slot back.
    const ended = await fetch(`${base}/mcp`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${flooder}`, 'Mcp-Session-Id': results[0]!.session! },
    });
    expect(ended.status).toBe(200);
    expect((await initialize(base, flooder)).status).toBe(200);
    expect((await initialize(base, flooder)).status).toBe(429);
  });

  it('an SSE stream that closes and a Streamable HTTP session left idle free their slots', async () => {
    const base = await startServer(['--max-sessions-per-token', '1', '--session-idle', '3']);
    const abort = new AbortController();
    const stream = await fetch(`${base}/sse`, { headers: { Authorization: `Bearer ${other}` }, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect((await initialize(base, other)).status).toBe(429);
    abort.abort();
    await eventually(async () => (await initialize(base, other)).status === 200, 'a slot after the SSE stream closed');

    // The session just opened is never used again: the idle sweep closes it and frees the slot.
    expect((await initialize(base, other)).status).toBe(429);
    await eventually(async () => (await initialize(base, other)).status === 200, 'a slot after the idle session was closed');
  });
});
