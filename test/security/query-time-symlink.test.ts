// Finding 1 of issue 12: after indexing, a pull replaces an indexed file (or a directory)
// by a symbolic link to a secret outside the repository; `travsr ask` and MCP
// get_definition/get_context over HTTP must not print the secret. A file replaced by
// another regular file is shown marked stale.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { startMcpHttp } from '../helpers/mcp-http.js';
import { travsr, type CliProcess } from '../helpers/run-cli.js';

const SECRET_MARK = 'TRAVSR_TEST_SECRET_9c41';
// Several lines, so the indexed range 1-3 of gammaFn covers it.
const SECRET = `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET_MARK} line one\n${SECRET_MARK} line two\n${SECRET_MARK} line three\n-----END OPENSSH PRIVATE KEY-----\n`;

let repo: GitRepo;
let secrets: string;

beforeAll(async () => {
  secrets = mkdtempSync(join(tmpdir(), 'travsr-secrets-'));
  writeFileSync(join(secrets, 'id_rsa'), SECRET);
  mkdirSync(join(secrets, 'lib'));
  writeFileSync(join(secrets, 'lib', 'h.ts'), SECRET);
  repo = new GitRepo('travsr-symlink-attack-');
  repo.write({
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "nodenext" } }\n',
    'g.ts': 'export function gammaFn(): number {\n  return 1;\n}\n',
    'lib/h.ts': 'export function hotelFn(): number {\n  return 2;\n}\n',
    'e.ts': 'export function epsilonFn(): number {\n  return 3;\n}\n',
  });
  repo.commit('seed');
  expect((await travsr(['config', 'set', 'corpus', 'symlinked', '--repo', repo.root])).code).toBe(0);
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
  // The attack: `rm g.ts && ln -s ~/.ssh/id_rsa g.ts`, and the same for a whole directory.
  rmSync(join(repo.root, 'g.ts'));
  symlinkSync(join(secrets, 'id_rsa'), join(repo.root, 'g.ts'));
  rmSync(join(repo.root, 'lib'), { recursive: true });
  symlinkSync(join(secrets, 'lib'), join(repo.root, 'lib'));
  // Not an attack: an edit after indexing.
  writeFileSync(join(repo.root, 'e.ts'), '// edited\nexport function epsilonFn(): number {\n  return 30;\n}\n');
}, 180_000);

afterAll(() => {
  repo?.dispose();
  if (secrets) rmSync(secrets, { recursive: true, force: true });
});

describe('finding 1: Query-time reads follow symlinks out of the repository', () => {
  it('`travsr ask gammaFn` answers from the index without printing the linked file', async () => {
    const r = await travsr(['ask', 'gammaFn', '--repo', repo.root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/## g\.ts:1-3 function gammaFn/);
    expect(r.stdout).toMatch(/source not shown: g\.ts is a symbolic link/);
    expect(r.stdout + r.stderr).not.toContain(SECRET_MARK);
  });

  it('`travsr ask gammaFn --json` does not carry the linked file either', async () => {
    const r = await travsr(['ask', 'gammaFn', '--repo', repo.root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { nodes: { name: string }[] };
    expect(out.nodes.map((n) => n.name)).toContain('gammaFn');
    expect(r.stdout + r.stderr).not.toContain(SECRET_MARK);
  });

  it('a directory replaced by a link is not read through either', async () => {
    const r = await travsr(['ask', 'hotelFn', '--repo', repo.root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/lib\/h\.ts:1-3 function hotelFn/);
    expect(r.stdout).toMatch(/source not shown: the directory lib is a symbolic link/);
    expect(r.stdout + r.stderr).not.toContain(SECRET_MARK);
  });

  it('a file edited after indexing is shown marked stale', async () => {
    const r = await travsr(['ask', 'epsilonFn', '--repo', repo.root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/## e\.ts:1-3 function epsilonFn.*\n\(the file changed since it was indexed; lines may be off\)/);
  });

  describe('MCP over HTTP with a token scoped to the corpus', () => {
    let server: CliProcess;
    let client: Client;
    beforeAll(async () => {
      const add = await travsr(['mcp', 'token', 'add', 'symlinked-reader', '--corpus', 'symlinked', '--json']);
      expect(add.code, add.stderr).toBe(0);
      const token = (JSON.parse(add.stdout) as { token: string }).token;
      const started = await startMcpHttp([repo.root]);
      server = started.server;
      const base = started.base;
      client = new Client({ name: 'travsr-attack', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      server?.kill('SIGTERM');
      await server;
    });

    type ToolCall = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolCall;
    const everything = (r: ToolCall) => JSON.stringify(r);

    it('get_definition gives the stored definition and says why the source is withheld', async () => {
      const def = await call('get_definition', { symbol: 'gammaFn' });
      expect(def.isError).toBeFalsy();
      expect(everything(def)).not.toContain(SECRET_MARK);
      expect(def.structuredContent).toMatchObject({ definition: { name: 'gammaFn', path: 'g.ts' }, source: null });
      expect(def.content[0]!.text).toMatch(/source not shown: g\.ts is a symbolic link/);
      const viaDir = await call('get_definition', { symbol: 'hotelFn' });
      expect(everything(viaDir)).not.toContain(SECRET_MARK);
      expect(viaDir.structuredContent).toMatchObject({ definition: { name: 'hotelFn' }, source: null });
    });

    it('get_context does not return the linked files', async () => {
      for (const query of ['gammaFn', 'hotelFn', 'gammaFn hotelFn epsilonFn']) {
        const ctx = await call('get_context', { query, token_budget: 4000 });
        expect(ctx.isError).toBeFalsy();
        expect(everything(ctx)).not.toContain(SECRET_MARK);
      }
    });

    it('get_definition of a file edited after indexing is marked stale', async () => {
      const def = await call('get_definition', { symbol: 'epsilonFn' });
      expect(def.structuredContent).toMatchObject({ definition: { name: 'epsilonFn' }, stale: true });
      expect(def.content[0]!.text).toContain('(the file changed since it was indexed; lines may be off)');
    });
  });
});
