// Attacks that already held, kept from regressing: a hostile MCP client. The real
// `travsr mcp --http` serves two indexed repositories (corpora `alpha` and `beta`) on
// 127.0.0.1; the attacker holds a token for `alpha` only, tries every tool on `beta`, walks
// out of the repository with paths, rebinds DNS (a foreign Host or Origin), and floods the
// server with requests, bounded in count.
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { initCorpora, startMcpHttp } from '../helpers/mcp-http.js';
import { travsr, type CliProcess } from '../helpers/run-cli.js';

/** Only in beta's source: seeing it means beta leaked. */
const BETA_MARK = 'BETA_CONFIDENTIAL_31337';
/** Only in a file beside the repositories: seeing it means a path walked out. */
const OUTSIDE_MARK = 'OUTSIDE_SECRET_4242';

type ToolCall = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
/** Everything a tool answered, as one string to search. */
const answerOf = (r: ToolCall): string => JSON.stringify(r);

let parent: string;
let alpha: GitRepo;
let beta: GitRepo;
let server: CliProcess;
let base: string;
let port: number;
let alphaToken: string;
let allToken: string;
const clients: Client[] = [];

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'held-mcp', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolCall;

/**
 * One raw HTTP request (node:http, so that Host can be anything), answered with status and body.
 * `declaredBytes` sends only the headers of a body that long and waits for the answer: a server
 * refusing it by its Content-Length answers at once, and a client still writing the body would
 * race the server's closing of the connection (EPIPE, ECONNRESET).
 */
function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; declaredBytes?: number },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...opts.headers, ...(opts.declaredBytes ? { 'Content-Length': String(opts.declaredBytes) } : {}) };
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        // An event stream that was let through would never end: what arrived is enough.
        if (res.headers['content-type']?.includes('text/event-stream')) res.destroy();
      });
      res.on('close', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (opts.declaredBytes) req.flushHeaders();
    else req.end(opts.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'held-mcp', version: '1.0.0' } },
});
const postHeaders = (token: string, extra: Record<string, string> = {}) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  Authorization: `Bearer ${token}`,
  ...extra,
});

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'travsr-held-mcp-'));
  writeFileSync(join(parent, 'outside-secret.txt'), `${OUTSIDE_MARK}\n`);
  alpha = new GitRepo('travsr-held-mcp-alpha-');
  alpha.write({
    'billing.py': [
      'def compute_invoice(amount):',
      '    return round_total(amount)',
      '',
      'def round_total(x):',
      '    return round(x, 2)',
      '',
    ].join('\n'),
  });
  alpha.commit('alpha');
  beta = new GitRepo('travsr-held-mcp-beta-');
  beta.write({
    'payroll.py': [
      'def secret_payroll_formula(salary):',
      `    """${BETA_MARK}"""`,
      '    return salary * 31337',
      '',
      'def run_payroll():',
      '    return secret_payroll_formula(10)',
      '',
    ].join('\n'),
  });
  beta.commit('beta');
  await initCorpora([
    [alpha, 'alpha'],
    [beta, 'beta'],
  ]);
  const add = async (name: string, access: string[]) =>
    (JSON.parse((await travsr(['mcp', 'token', 'add', name, ...access, '--json'])).stdout) as { token: string }).token;
  alphaToken = await add('held-alpha-only', ['--corpus', 'alpha']);
  allToken = await add('held-all', ['--all-corpora']);
  ({ server, base } = await startMcpHttp([alpha.root, beta.root]));
  port = Number(new URL(base).port);
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  server?.kill('SIGTERM');
  await server;
  alpha?.dispose();
  beta?.dispose();
  if (parent) rmSync(parent, { recursive: true, force: true });
});

/** Arguments aimed at beta for every tool, built from each tool's own input schema. */
async function argumentsAimedAtBeta(client: Client): Promise<{ name: string; args: Record<string, unknown> }[]> {
  const aim: Record<string, unknown> = {
    symbol: 'secret_payroll_formula',
    query: 'salary payroll formula',
    path: 'payroll.py',
    from: 'run_payroll',
    to: 'secret_payroll_formula',
  };
  const { tools } = await client.listTools();
  const out: { name: string; args: Record<string, unknown> }[] = [];
  for (const t of tools) {
    const props = Object.keys(t.inputSchema.properties ?? {});
    const args = Object.fromEntries(props.filter((p) => p in aim).map((p) => [p, aim[p]]));
    out.push({ name: t.name, args });
    if (props.includes('corpus')) out.push({ name: t.name, args: { ...args, corpus: 'beta' } });
  }
  return out;
}

describe('held: a token for corpus alpha reads nothing of corpus beta, by any tool', () => {
  it('every tool, with and without corpus: "beta", answers without a trace of beta', async () => {
    const attacker = await connect(alphaToken);
    const calls = await argumentsAimedAtBeta(attacker);
    expect(new Set(calls.map((c) => c.name)).size).toBe(9);
    for (const c of calls) {
      const answer = answerOf(await call(attacker, c.name, c.args));
      expect(answer, `${c.name} ${JSON.stringify(c.args)}`).not.toContain(BETA_MARK);
      expect(answer, c.name).not.toContain('31337');
      expect(answer, c.name).not.toContain(beta.root);
      expect(answer, c.name).not.toMatch(/payroll\.py:\d/); // a location in beta
    }
  });

  it('asking for beta by name gets the same answer as asking for a corpus that does not exist', async () => {
    const attacker = await connect(alphaToken);
    const normalise = (s: string, corpus: string) => s.replaceAll(corpus, 'C').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'T');
    for (const c of (await argumentsAimedAtBeta(attacker)).filter((x) => x.args['corpus'] === 'beta')) {
      const hidden = answerOf(await call(attacker, c.name, c.args));
      const absent = answerOf(await call(attacker, c.name, { ...c.args, corpus: 'no-such-corpus' }));
      expect(normalise(hidden, 'beta'), c.name).toBe(normalise(absent, 'no-such-corpus'));
    }
  });

  it('the same calls with a token for both corpora do show beta (the attack above is aimed right)', async () => {
    const admin = await connect(allToken);
    const def = answerOf(await call(admin, 'get_definition', { symbol: 'secret_payroll_formula', corpus: 'beta' }));
    expect(def).toContain(BETA_MARK);
  });
});

describe('held: paths that walk out of the repository', () => {
  const walks = [
    '../outside-secret.txt',
    'x/../../outside-secret.txt',
    '%2e%2e/outside-secret.txt',
    '..\\outside-secret.txt',
    '/etc/passwd',
    '../../../../../../../../etc/passwd',
    'billing.py/../../outside-secret.txt',
  ];

  it('get_file_outline and get_definition answer "not in the index" and read nothing outside, even for a token that reads everything', async () => {
    const admin = await connect(allToken);
    const absolute = join(parent, 'outside-secret.txt');
    for (const path of [...walks, absolute]) {
      for (const [tool, args] of [
        ['get_file_outline', { path }],
        ['get_file_outline', { path, corpus: 'alpha' }],
        ['get_definition', { symbol: path }],
      ] as const) {
        const answer = answerOf(await call(admin, tool, args));
        expect(answer, `${tool} ${path}`).not.toContain(OUTSIDE_MARK);
        expect(answer, `${tool} ${path}`).not.toMatch(/root:.*:0:0:/);
      }
    }
    // The tools still answer for a path that is in the index.
    expect(answerOf(await call(admin, 'get_file_outline', { path: 'billing.py', corpus: 'alpha' }))).toContain('compute_invoice');
  });
});

describe('held: DNS rebinding (a page on another origin reaching the loopback server)', () => {
  it('refuses a foreign Host or Origin with 403 on every route, even with a valid token', async () => {
    const foreignHosts = [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`];
    for (const host of foreignHosts) {
      const post = await raw('/mcp', { method: 'POST', headers: postHeaders(allToken, { Host: host }), body: initialize });
      expect(post.status, host).toBe(403);
      expect(post.body, host).toContain('DNS-rebinding');
      const sse = await raw('/sse', { headers: { Host: host, Authorization: `Bearer ${allToken}`, Accept: 'text/event-stream' } });
      expect(sse.status, host).toBe(403);
    }
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null']) {
      const r = await raw('/mcp', { method: 'POST', headers: postHeaders(allToken, { Origin: origin }), body: initialize });
      expect(r.status, origin).toBe(403);
    }
  });

  it('answers the same request from the loopback origin (the refusal is about the origin)', async () => {
    const ok = await raw('/mcp', {
      method: 'POST',
      headers: postHeaders(allToken, { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` }),
      body: initialize,
    });
    expect(ok.status).toBe(200);
  });
});

describe('held: a flood of requests', () => {
  it('200 concurrent tool calls on one session: every one answered, and the server keeps serving others', async () => {
    const flooder = await connect(alphaToken);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        call(flooder, i % 2 === 0 ? 'search_symbols' : 'get_callers', i % 2 === 0 ? { query: `invoice ${i}` } : { symbol: 'round_total' }),
      ),
    );
    // Each call gets an answer (a hung one would time the test out): a result, or a clear refusal.
    let answered = 0;
    for (const r of results) {
      if (r.status === 'fulfilled') {
        answered++;
        expect(r.value.content.length).toBeGreaterThan(0);
      } else {
        expect(String(r.reason)).toMatch(/[A-Z_]{4,}|429|503|busy|timed out/i);
      }
    }
    expect(answered).toBeGreaterThan(0);

    const health = await raw('/healthz', {});
    expect(health).toEqual({ status: 200, body: 'ok' });
    const other = await connect(allToken);
    expect(answerOf(await call(other, 'get_callers', { symbol: 'round_total', corpus: 'alpha' }))).toContain('compute_invoice');
  });

  it('500 requests without a valid token and oversized bodies are refused (401, 413) without taking the server down', async () => {
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 10; batch++) {
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          raw('/mcp', { method: 'POST', headers: postHeaders(`travsr_forged-${batch}-${i}`), body: initialize }),
        ),
      );
      for (const r of rs) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    expect([...statuses]).toEqual([[401, 500]]);
    const big = await raw('/mcp', { method: 'POST', headers: postHeaders(allToken), declaredBytes: 8 * 1024 * 1024 });
    expect(big.status).toBe(413);
    expect(await raw('/healthz', {})).toEqual({ status: 200, body: 'ok' });
  });
});
