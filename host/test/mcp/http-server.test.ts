// The MCP HTTP server on real sockets (127.0.0.1, port 0) with the real SDK clients. The Server each
// session gets is a small real SDK Server built here with one tool, `whoami`, answering the policy it
// was made for: a fixture for the transport, standing in for no product code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/log/logger.js';
import { isLoopbackHost, startMcpHttpServer, type McpHttpServer, type McpHttpServerOptions } from '../../src/mcp/http-server.js';
import { TokenStore } from '../../src/mcp/token-store.js';
import type { AccessPolicy } from '../../src/retrieval/access-policy.js';

let dir: string;
let tokens: TokenStore;
let tokenA: string;
let tokenB: string;
const policyA: AccessPolicy = { corpora: ['github.com/acme/api'], groups: ['eng'] };
const policyB: AccessPolicy = { corpora: '*', groups: [] };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'travsr-mcp-http-'));
  tokens = TokenStore.load(join(dir, 'mcp-tokens.json'));
  tokenA = tokens.add({ name: 'alice', ...policyA }).token;
  tokenB = tokens.add({ name: 'bob', ...policyB }).token;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Policies the factory was called with, in order. */
let made: AccessPolicy[] = [];
const running: McpHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const s of running.splice(0)) await s.close();
  made = [];
});

function whoamiServer(policy: AccessPolicy): Server {
  made.push(policy);
  const server = new Server({ name: 'fixture', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'whoami', description: 'the policy of this session', inputSchema: { type: 'object' as const, properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text' as const, text: JSON.stringify(policy) }] }));
  return server;
}

async function start(over: Partial<McpHttpServerOptions> = {}): Promise<McpHttpServer> {
  const s = await startMcpHttpServer({ factory: whoamiServer, host: '127.0.0.1', port: 0, tokens, ...over });
  running.push(s);
  return s;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function streamableClient(s: McpHttpServer, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: bearer(token) } });
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function sseClient(s: McpHttpServer, token: string) {
  const transport = new SSEClientTransport(new URL(s.sseUrl), { requestInit: { headers: bearer(token) } });
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function whoami(client: Client): Promise<unknown> {
  const r = await client.callTool({ name: 'whoami', arguments: {} });
  const content = r.content as { type: string; text: string }[];
  return JSON.parse(content[0]!.text);
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** One raw HTTP request (node:http, so Host can be set), with the body read as text. */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

/** Opens a raw HTTP+SSE stream and returns the endpoint path the server announced, and a way to hang up. */
async function rawSseEndpoint(s: McpHttpServer, token: string): Promise<{ endpoint: string; hangUp: () => void }> {
  const abort = new AbortController();
  const res = await fetch(s.sseUrl, { headers: { ...bearer(token), Accept: 'text/event-stream' }, signal: abort.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const m = /event: endpoint\ndata: (\S+)\n\n/.exec(text);
    if (m) return { endpoint: m[1]!, hangUp: () => abort.abort() };
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before the endpoint event: ${text}`);
    text += value;
  }
}

describe('startMcpHttpServer', () => {
  it('lists tools and calls one over Streamable HTTP, in a session bound to the policy of its token', async () => {
    const s = await start();
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/mcp`);
    const { client, transport } = await streamableClient(s, tokenA);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['whoami']);
    expect(await whoami(client)).toEqual(policyA);
    expect(made).toEqual([policyA]);
  });

  it('lists tools and calls one over the deprecated HTTP+SSE transport', async () => {
    const s = await start();
    const { client } = await sseClient(s, tokenB);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
    expect(await whoami(client)).toEqual(policyB);
    expect(made).toEqual([policyB]);
  });

  it('gives each session its own Server with the policy of the token that opened it', async () => {
    const s = await start();
    const a = await streamableClient(s, tokenA);
    const b = await streamableClient(s, tokenB);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect(await whoami(a.client)).toEqual(policyA);
    expect(await whoami(b.client)).toEqual(policyB);
    expect(made).toEqual([policyA, policyB]);
  });

  it('answers GET /healthz with 200 "ok" without a token', async () => {
    const s = await start();
    const r = await raw(`http://127.0.0.1:${s.port}/healthz`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('ok');
  });

  it('refuses a request without a token: 401, WWW-Authenticate: Bearer, and a body saying how to get one', async () => {
    const s = await start();
    for (const r of [await postJson(s.url, initialize), await raw(s.sseUrl, { headers: { Accept: 'text/event-stream' } })]) {
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer /);
      const body = JSON.parse(r.text);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toContain('has no Authorization header');
      expect(body.error.message).toContain('travsr mcp token add');
    }
    const basic = await postJson(s.url, initialize, { Authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(JSON.parse(basic.text).error.message).toContain('not `Bearer <token>`');
    const client = new Client({ name: 'test', version: '0.0.0' });
    // The SDK client shows the user what to do.
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(s.url)))).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('travsr mcp token add'),
    });
    expect(made).toEqual([]);
  });

  it('refuses an unknown token with 401 and error="invalid_token"', async () => {
    const s = await start();
    const wrong = `${tokenA.slice(0, -1)}${tokenA.endsWith('A') ? 'B' : 'A'}`;
    const r = await postJson(s.url, initialize, bearer(wrong));
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="travsr", error="invalid_token"');
    expect(JSON.parse(r.text).error.message).toMatch(/not one this server knows.*travsr mcp token add/);
    const client = new Client({ name: 'test', version: '0.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: bearer(wrong) } })),
    ).rejects.toMatchObject({ code: 401 });
    await expect(
      new Client({ name: 'test', version: '0.0.0' }).connect(
        new SSEClientTransport(new URL(s.sseUrl), { requestInit: { headers: bearer(wrong) } }),
      ),
    ).rejects.toMatchObject({ code: 401 });
    expect(made).toEqual([]);
  });

  it("refuses token B on token A's Streamable HTTP session with 403, and keeps serving A", async () => {
    const s = await start();
    const a = await streamableClient(s, tokenA);
    const headers = { 'Mcp-Session-Id': a.transport.sessionId!, 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION };
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };
    const r = await postJson(s.url, list, { ...headers, ...bearer(tokenB) });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.text).error.message).toContain('opened with a different token');
    const del = await raw(s.url, { method: 'DELETE', headers: { ...headers, ...bearer(tokenB) } });
    expect(del.status).toBe(403);
    expect(await whoami(a.client)).toEqual(policyA);
  });

  it("refuses token B on token A's HTTP+SSE session with 403", async () => {
    const s = await start();
    const { endpoint, hangUp } = await rawSseEndpoint(s, tokenA);
    try {
      expect(endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
      const url = `http://127.0.0.1:${s.port}${endpoint}`;
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const asB = await postJson(url, ping, bearer(tokenB));
      expect(asB.status).toBe(403);
      expect(JSON.parse(asB.text).error.message).toContain('opened with a different token');
      const asA = await postJson(url, ping, bearer(tokenA));
      expect(asA.status).toBe(202);
    } finally {
      hangUp();
    }
  });

  it('answers 404 for a session it does not have, on both transports', async () => {
    const s = await start();
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const r = await postJson(s.url, list, { ...bearer(tokenA), 'Mcp-Session-Id': '00000000-0000-0000-0000-000000000000' });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text).error.code).toBe(-32001);
    const m = await postJson(`http://127.0.0.1:${s.port}/messages?sessionId=nope`, list, bearer(tokenA));
    expect(m.status).toBe(404);
    const noSession = await postJson(s.url, list, bearer(tokenA));
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.text).error.message).toContain('initialize');
  });

  it('closes a session whose client went away without DELETE once idle, and keeps one in use', async () => {
    const s = await start({ sessionIdleMs: 200 });
    const idle = await streamableClient(s, tokenA);
    const busy = await streamableClient(s, tokenA);
    const gone = idle.transport.sessionId!;
    await idle.transport.close(); // hangs up its streams, never says DELETE
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      expect(await whoami(busy.client)).toMatchObject({ corpora: expect.anything() as unknown });
    }
    const r = await postJson(s.url, list, { ...bearer(tokenA), 'Mcp-Session-Id': gone });
    expect(r.status).toBe(404);
    expect(await whoami(busy.client)).toMatchObject({ corpora: expect.anything() as unknown });
  });

  it('ends a session on DELETE', async () => {
    const s = await start();
    const { client, transport } = await streamableClient(s, tokenA);
    const id = transport.sessionId!;
    await transport.terminateSession();
    const r = await postJson(s.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...bearer(tokenA), 'Mcp-Session-Id': id });
    expect(r.status).toBe(404);
    await expect(client.listTools()).rejects.toThrow();
  });

  it('refuses a token removed while the server runs, from its next request', async () => {
    const file = join(dir, 'revocable.json');
    const store = TokenStore.load(file);
    const { token } = store.add({ name: 'temp', corpora: '*' });
    const s = await start({ tokens: store });
    const { client } = await streamableClient(s, token);
    await client.listTools();
    TokenStore.load(file).remove('temp'); // as `travsr mcp token remove temp` does, from another process
    await expect(client.listTools()).rejects.toMatchObject({ code: 401, message: expect.stringContaining('may have been removed') });
  });

  it('refuses every request, saying which file, when the token file turns corrupt while serving', async () => {
    const file = join(dir, 'corruptible.json');
    const store = TokenStore.load(file);
    const { token } = store.add({ name: 'ci', corpora: '*' });
    const s = await start({ tokens: store });
    writeFileSync(file, '{ not json');
    const r = await postJson(s.url, initialize, bearer(token));
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text).error.message).toContain(`the MCP token file ${file} is not valid`);
    expect(made).toEqual([]);
  });

  it('answers 413 to a body over the limit, declared or streamed, and 415 to a body that is not JSON', async () => {
    const s = await start({ maxBodyBytes: 1024 });
    const big = { ...initialize, params: { ...initialize.params, padding: 'x'.repeat(2048) } };
    const declared = await postJson(s.url, big, bearer(tokenA));
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.text).error.message).toContain('at most 1024 bytes');
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(
        s.url,
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', ...bearer(tokenA) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('x'.repeat(800));
      req.end('x'.repeat(800));
    });
    expect(streamed).toBe(413);
    const text = await raw(s.url, { method: 'POST', headers: { 'Content-Type': 'text/plain', ...bearer(tokenA) }, body: 'hi' });
    expect(text.status).toBe(415);
    expect(made).toEqual([]);
    // The server still works after refusing.
    const { client } = await streamableClient(s, tokenA);
    expect(await whoami(client)).toEqual(policyA);
  });

  it('refuses a Host or Origin that does not name the loopback server (DNS rebinding), on every route', async () => {
    const s = await start({ allowedOrigins: ['https://app.example'] });
    const evilHost = { Host: `evil.example:${s.port}` };
    for (const r of [
      await postJson(s.url, initialize, { ...evilHost, ...bearer(tokenA) }),
      await raw(s.sseUrl, { headers: { ...evilHost, ...bearer(tokenA), Accept: 'text/event-stream' } }),
    ]) {
      expect(r.status).toBe(403);
      expect(JSON.parse(r.text).error.message).toContain('DNS-rebinding');
    }
    const evilOrigin = await postJson(s.url, initialize, { Origin: 'http://evil.example', ...bearer(tokenA) });
    expect(evilOrigin.status).toBe(403);
    expect(JSON.parse(evilOrigin.text).error.message).toContain('Origin http://evil.example is not allowed');
    for (const origin of ['https://app.example', `http://localhost:${s.port}`]) {
      const ok = await postJson(s.url, initialize, { Origin: origin, Host: `localhost:${s.port}`, ...bearer(tokenA) });
      expect(ok.status).toBe(200);
    }
    expect(made).toEqual([policyA, policyA]);
  });

  it('close() ends every session and stops listening', async () => {
    const s = await startMcpHttpServer({ factory: whoamiServer, host: '127.0.0.1', port: 0, tokens });
    const a = await streamableClient(s, tokenA);
    const b = await sseClient(s, tokenB);
    await a.client.listTools();
    await b.client.listTools();
    await s.close();
    await expect(a.client.listTools()).rejects.toThrow();
    await expect(b.client.listTools()).rejects.toThrow();
    await expect(raw(`http://127.0.0.1:${s.port}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
    await s.close(); // a second close is harmless
  });

  it('serves without tokens on loopback, with full access', async () => {
    const s = await start({ tokens: undefined });
    const { client } = await streamableClient(s, 'ignored');
    expect(await whoami(client)).toEqual({ corpora: '*', groups: [] });
    const c = new Client({ name: 'test', version: '0.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(s.url)));
    clients.push(c);
    expect(await whoami(c)).toEqual({ corpora: '*', groups: [] });
  });

  it('refuses to listen beyond loopback without tokens', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      await expect(startMcpHttpServer({ factory: whoamiServer, host, port: 0, tokens: undefined })).rejects.toMatchObject({
        code: 'MCP_AUTH_REQUIRED',
        message: expect.stringContaining('without authentication'),
      });
    }
  });

  it('says so when the port is taken, and warns when there are no tokens yet', async () => {
    const s = await start();
    await expect(startMcpHttpServer({ factory: whoamiServer, host: '127.0.0.1', port: s.port, tokens })).rejects.toMatchObject({
      code: 'MCP_LISTEN_FAILED',
      message: expect.stringContaining('the address is in use'),
    });
    const logger = new MemoryLogger();
    await start({ tokens: TokenStore.load(join(dir, 'empty.json')), logger });
    expect(logger.text()).toContain('no MCP tokens in');
  });
});

describe('isLoopbackHost', () => {
  it('accepts only addresses that cannot be reached from another machine', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.3.2.1', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.0.2.10', 'localhost.evil.example', '127.0.0.1.nip.io', 'example.com', ''])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});
