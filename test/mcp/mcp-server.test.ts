// The MCP server end to end, with the real SDK client: two repositories indexed by the real
// plugins (corpora `alpha`, TypeScript, and `beta`, Python), served over stdio and over HTTP
// with bearer tokens scoped to corpora.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { initCorpora, startMcpHttp } from '../helpers/mcp-http.js';
import { travsr, type CliProcess } from '../helpers/run-cli.js';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
const TOOLS = [
  'get_context',
  'get_dependencies',
  'get_callers',
  'get_blast_radius',
  'get_execution_path',
  'get_index_status',
  'search_symbols',
  'get_definition',
  'get_file_outline',
];

let alpha: GitRepo;
let beta: GitRepo;

beforeAll(async () => {
  alpha = new GitRepo('travsr-mcp-alpha-');
  alpha.write({
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "nodenext" } }\n',
    'src/session.ts': [
      'import { sendRequest } from "./transport.js";',
      '',
      '/** Follows HTTP redirects until a final response. */',
      'export function resolveRedirects(url: string): string {',
      '  let current = url;',
      '  for (let i = 0; i < 5; i++) current = sendRequest(current);',
      '  return current;',
      '}',
      '',
      'export class Session {',
      '  get(url: string): string {',
      '    return resolveRedirects(url);',
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/transport.ts': [
      '/** Sends one request and returns the next location. */',
      'export function sendRequest(url: string): string {',
      '  return url + "/";',
      '}',
      '',
    ].join('\n'),
  });
  alpha.commit('alpha');
  beta = new GitRepo('travsr-mcp-beta-');
  beta.write({
    'payroll.py': [
      'def secret_payroll_formula(salary):',
      '    return salary * 3',
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
}, 180_000);

afterAll(() => {
  alpha?.dispose();
  beta?.dispose();
});

type ToolCall = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const textOf = (r: ToolCall) => r.content.map((c) => c.text ?? '').join('\n');
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolCall;

describe('MCP over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'travsr-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--stdio', '--repo', alpha.root],
        env: { TRAVSR_HOME: process.env.TRAVSR_HOME!, PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => client?.close());

  it('lists the nine tools with JSON input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const t of tools) expect(t.inputSchema.type).toBe('object');
  });

  it('answers every tool with text, structured content and a trace id', async () => {
    const ctx = await call(client, 'get_context', { query: 'how are redirects resolved', token_budget: 1000 });
    expect(ctx.isError).toBeFalsy();
    expect(textOf(ctx)).toMatch(/src\/session\.ts:4-8 function resolveRedirects/);
    expect(ctx.structuredContent!.tokens as number).toBeLessThanOrEqual(1000);
    expect(ctx.structuredContent!.trace_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(ctx)).toContain(`(trace ${String(ctx.structuredContent!.trace_id)})`);

    const callersOf = await call(client, 'get_callers', { symbol: 'resolveRedirects' });
    expect(textOf(callersOf)).toMatch(/calls method Session\.get\s+src\/session\.ts:11-13/);
    const deps = await call(client, 'get_dependencies', { symbol: 'resolveRedirects' });
    expect(textOf(deps)).toMatch(/calls function sendRequest\s+src\/transport\.ts:2-4/);
    const blast = await call(client, 'get_blast_radius', { symbol: 'src/transport.ts' });
    expect(textOf(blast)).toMatch(/Files affected:\n\s+src\/session\.ts/);
    const path = await call(client, 'get_execution_path', { from: 'Session.get', to: 'sendRequest' });
    expect(textOf(path)).toMatch(/Path from Session\.get to sendRequest \(2 hops, via calls\)/);
    const status = await call(client, 'get_index_status', {});
    expect(textOf(status)).toMatch(/^alpha: schema v\d+, 3 files/);
    expect(textOf(status)).toMatch(/typescript: 2 files, phase A\+B/);
    const search = await call(client, 'search_symbols', { query: 'send request' });
    expect(textOf(search)).toMatch(/^function sendRequest/);
    const def = await call(client, 'get_definition', { symbol: 'sendRequest' });
    expect(textOf(def)).toContain('return url + "/";');
    const outline = await call(client, 'get_file_outline', { path: 'src/session.ts' });
    expect(textOf(outline)).toMatch(
      /function resolveRedirects 4-8  export function resolveRedirects\(url: string\): string\nclass Session 10-14 .*\n\s+method get 11-13/,
    );
  });

  it('rejects bad arguments with an error that names them', async () => {
    const missing = await call(client, 'get_callers', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/INVALID_ARGUMENTS.*missing required argument symbol/);
    const wrong = await call(client, 'get_context', { query: 'x', token_budget: 'lots', colour: 'red' });
    expect(textOf(wrong)).toMatch(/token_budget must be integer/);
    expect(textOf(wrong)).toMatch(/unknown argument colour/);
    const unknown = await call(client, 'get_context', { query: 'x', corpus: 'gamma' });
    expect(textOf(unknown)).toMatch(/UNKNOWN_CORPUS/);
  });
});

describe('MCP over HTTP with bearer tokens', () => {
  let server: CliProcess;
  let base: string;
  let alphaToken: string;
  let allToken: string;
  beforeAll(async () => {
    const add = async (name: string, access: string[]) =>
      (JSON.parse((await travsr(['mcp', 'token', 'add', name, ...access, '--json'])).stdout) as { token: string }).token;
    alphaToken = await add('alpha-reader', ['--corpus', 'alpha']);
    allToken = await add('admin', ['--all-corpora']);
    ({ server, base } = await startMcpHttp([alpha.root, beta.root]));
  }, 60_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server;
  });

  const connect = async (token: string, transport: 'streamable' | 'sse' = 'streamable') => {
    const client = new Client({ name: 'travsr-test', version: '1.0.0' });
    const headers = { Authorization: `Bearer ${token}` };
    await client.connect(
      transport === 'streamable'
        ? new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } })
        : new SSEClientTransport(new URL(`${base}/sse`), {
            requestInit: { headers },
            eventSourceInit: { fetch: (u, i) => fetch(u, { ...i, headers: { ...(i?.headers as Record<string, string>), ...headers } }) },
          }),
    );
    return client;
  };

  it('serves both corpora to a token that may read both, over Streamable HTTP and SSE', async () => {
    for (const transport of ['streamable', 'sse'] as const) {
      const client = await connect(allToken, transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS);
      const status = textOf(await call(client, 'get_index_status', {}));
      expect(status).toMatch(/^alpha: /m);
      expect(status).toMatch(/^beta: /m);
      expect(textOf(await call(client, 'search_symbols', { query: 'secret payroll' }))).toMatch(/function payroll\.secret_payroll_formula/);
      await client.close();
    }
  });

  it('refuses a missing or unknown token', async () => {
    await expect(connect('travsr_not-a-real-token')).rejects.toThrow(/401|Unauthorized|token/i);
    const r = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
  });

  it('never shows a corpus the token may not read: no node, no count, the same error as a missing corpus', async () => {
    const client = await connect(alphaToken);
    const status = await call(client, 'get_index_status', {});
    expect(textOf(status)).toMatch(/^alpha: /);
    expect(textOf(status)).not.toMatch(/beta/);
    expect((status.structuredContent!.corpora as unknown[]).length).toBe(1);
    const ctx = await call(client, 'get_context', { query: 'secret payroll formula salary' });
    const answer: Record<string, unknown> = { ...ctx.structuredContent! };
    delete answer.query; // the question itself names payroll
    expect(JSON.stringify(answer)).not.toMatch(/payroll|beta/i);
    expect(textOf(ctx).split('\n').slice(1).join('\n')).not.toMatch(/payroll|beta/i);
    expect(textOf(await call(client, 'search_symbols', { query: 'secret_payroll_formula' }))).toMatch(/^No symbol matches/);
    expect(textOf(await call(client, 'get_callers', { symbol: 'secret_payroll_formula' }))).toMatch(/^No symbol matches/);
    expect(textOf(await call(client, 'get_file_outline', { path: 'payroll.py' }))).toMatch(/not in the index \(or not visible to you\)/);
    const hidden = textOf(await call(client, 'get_context', { query: 'x', corpus: 'beta' }));
    const absent = textOf(await call(client, 'get_context', { query: 'x', corpus: 'nope' }));
    expect(hidden.replace(/beta/g, 'C').replace(/trace [0-9a-f-]+/, '')).toBe(absent.replace(/nope/g, 'C').replace(/trace [0-9a-f-]+/, ''));
    await client.close();
  });
});
