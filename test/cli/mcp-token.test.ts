// The real `travsr mcp token` commands, each case with its own TRAVSR_HOME: a token is printed once
// and stored as a hash, list never shows a token or a whole hash, remove revokes, errors are clear.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../host/src/mcp/token-store.js';
import { travsr } from '../helpers/run-cli.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-mcp-token-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function home(name: string) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  return { file: join(dir, 'mcp-tokens.json'), run: (args: string[]) => travsr(['mcp', 'token', ...args], { env: { TRAVSR_HOME: dir } }) };
}

const TOKEN_RE = /travsr_[A-Za-z0-9_-]{43}/g;

describe('travsr mcp token', () => {
  it('add prints the token once, says it will not be shown again, and stores only its hash', async () => {
    const h = home('add');
    const r = await h.run(['add', 'alice', '--corpus', 'github.com/acme/api', '--corpus', 'github.com/acme/web', '--group', 'eng']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const tokens = r.stdout.match(TOKEN_RE) ?? [];
    expect(tokens).toHaveLength(1);
    const token = tokens[0]!;
    expect(r.stdout).toContain(`Created MCP token "alice" (corpora github.com/acme/api, github.com/acme/web; groups eng)`);
    expect(r.stdout).toContain('This token will not be shown again');
    expect(r.stdout).toContain(h.file);

    const text = readFileSync(h.file, 'utf8');
    expect(text).not.toContain(token);
    expect(JSON.parse(text).tokens).toEqual([
      {
        name: 'alice',
        sha256: hashToken(token),
        corpora: ['github.com/acme/api', 'github.com/acme/web'],
        groups: ['eng'],
        createdAt: expect.any(String),
      },
    ]);
    expect(statSync(h.file).mode & 0o777).toBe(0o600);
  });

  it('add --all-corpora --json gives the token in JSON', async () => {
    const h = home('add-json');
    const r = await h.run(['add', 'admin', '--all-corpora', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { token: string; sha256: string };
    expect(out).toMatchObject({ name: 'admin', corpora: '*', groups: [], file: h.file, shownOnce: true });
    expect(out.token).toMatch(/^travsr_[A-Za-z0-9_-]{43}$/);
    expect(out.sha256).toBe(hashToken(out.token));
  });

  it('list shows names, access and a hash prefix, never a token or a whole hash', async () => {
    const h = home('list');
    const empty = await h.run(['list']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe(`no MCP tokens in ${h.file}; create one with \`travsr mcp token add <name> --corpus <corpus>\``);
    type Added = { token: string; sha256: string; createdAt: string };
    const a = JSON.parse((await h.run(['add', 'alice', '--corpus', 'api', '--group', 'eng', '--json'])).stdout) as Added;
    const b = JSON.parse((await h.run(['add', 'bob', '--all-corpora', '--json'])).stdout) as Added;

    const r = await h.run(['list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+CREATED\s+SHA256\s+ACCESS$/);
    expect(lines[1]).toMatch(new RegExp(`^alice\\s+${a.createdAt}\\s+${a.sha256.slice(0, 12)}…\\s+api; groups eng$`));
    expect(lines[2]).toMatch(new RegExp(`^bob\\s+${b.createdAt}\\s+${b.sha256.slice(0, 12)}…\\s+all corpora$`));
    expect(lines[3]).toBe(`(2 tokens, in ${h.file})`);

    const json = await h.run(['list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      file: h.file,
      tokens: [
        { name: 'alice', corpora: ['api'], groups: ['eng'], createdAt: a.createdAt, sha256Prefix: a.sha256.slice(0, 12) },
        { name: 'bob', corpora: '*', groups: [], createdAt: b.createdAt, sha256Prefix: b.sha256.slice(0, 12) },
      ],
    });
    for (const out of [r.stdout, json.stdout])
      for (const secret of [a.token, b.token, a.sha256, b.sha256]) expect(out).not.toContain(secret);
  });

  it('remove deletes a token; an unknown name is an error naming the tokens there are', async () => {
    const h = home('remove');
    await h.run(['add', 'alice', '--all-corpora']);
    await h.run(['add', 'bob', '--all-corpora']);
    const r = await h.run(['remove', 'alice']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Removed MCP token "alice" from ${h.file}; clients using it are refused from their next request`);
    expect(JSON.parse(readFileSync(h.file, 'utf8')).tokens.map((t: { name: string }) => t.name)).toEqual(['bob']);
    const again = await h.run(['remove', 'alice']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `Error [MCP_TOKEN_NOT_FOUND]: no token named "alice" in ${h.file}; the tokens are: bob (see \`travsr mcp token list\`)`,
    );
  });

  it('add refuses a missing corpus choice, a duplicate and a bad name, and changes nothing', async () => {
    const h = home('refusals');
    await h.run(['add', 'ci', '--corpus', 'api']);
    const before = readFileSync(h.file, 'utf8');

    const none = await h.run(['add', 'x']);
    expect(none.code).toBe(2);
    // oclif wraps usage errors at the terminal width, prefixing each line with ›.
    expect(none.stderr.replace(/\s*›\s*/g, ' ')).toContain(
      'say which corpora the token may read: --corpus <corpus> (repeatable) or --all-corpora',
    );
    const both = await h.run(['add', 'x', '--corpus', 'api', '--all-corpora']);
    expect(both.code).toBe(2);
    const dup = await h.run(['add', 'ci', '--all-corpora']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/^Error \[MCP_TOKEN_EXISTS\]: a token named "ci" already exists in .*; .*travsr mcp token remove ci/);
    const bad = await h.run(['add', 'no spaces', '--all-corpora']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error \[MCP_TOKEN_NAME_INVALID\]/);
    for (const r of [none, both, dup, bad]) expect(r.stdout).not.toMatch(TOKEN_RE);
    expect(readFileSync(h.file, 'utf8')).toBe(before);
  });

  it('a corrupt token file is an error naming the file, and is left as it was', async () => {
    const h = home('corrupt');
    writeFileSync(h.file, '{"version": 1, "tokens": [');
    for (const args of [['list'], ['add', 'x', '--all-corpora'], ['remove', 'x']]) {
      const r = await h.run(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^Error \\[MCP_TOKENS_INVALID\\]: the MCP token file ${h.file} is not valid: it is not JSON`));
    }
    expect(readFileSync(h.file, 'utf8')).toBe('{"version": 1, "tokens": [');
  });
});
