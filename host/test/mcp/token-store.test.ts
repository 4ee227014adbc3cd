// The MCP token file on a real temporary folder: tokens shown once and stored as hashes, the file
// private and replaced atomically, changes by another process seen, a broken file a clear error.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, mcpTokensPath, TokenStore } from '../../src/mcp/token-store.js';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'travsr-mcp-tokens-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh folder and the token file path in it. */
function fresh(): { folder: string; file: string } {
  const folder = join(dir, `case-${++n}`);
  return { folder, file: join(folder, 'mcp-tokens.json') };
}

describe('TokenStore', () => {
  it('lives in <TRAVSR_HOME>/mcp-tokens.json', () => {
    expect(mcpTokensPath('/home/ada/.travsr')).toBe('/home/ada/.travsr/mcp-tokens.json');
    expect(mcpTokensPath()).toBe(join(process.env.TRAVSR_HOME!, 'mcp-tokens.json'));
    expect(TokenStore.load().path).toBe(join(process.env.TRAVSR_HOME!, 'mcp-tokens.json'));
  });

  it('treats a missing file as no tokens, without creating it', () => {
    const { file } = fresh();
    const store = TokenStore.load(file);
    expect(store.list()).toEqual([]);
    expect(store.policyFor('travsr_anything')).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('shows a new token once and keeps only its sha256, in a 0600 file', () => {
    const { folder, file } = fresh();
    const store = TokenStore.load(file);
    const { token, entry } = store.add({ name: 'ci', corpora: ['github.com/acme/api'], groups: ['eng'] });
    expect(token).toMatch(/^travsr_[A-Za-z0-9_-]{43}$/);
    expect(entry).toEqual({
      name: 'ci',
      sha256: hashToken(token),
      corpora: ['github.com/acme/api'],
      groups: ['eng'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice('travsr_'.length));
    expect(JSON.parse(text)).toEqual({ version: 1, tokens: [entry] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(['mcp-tokens.json']); // no temporary file left behind
    expect(store.add({ name: 'other', corpora: '*' }).token).not.toBe(token);
  });

  it('gives the policy of a presented token, and nothing for any other text', () => {
    const { file } = fresh();
    const store = TokenStore.load(file);
    const a = store.add({ name: 'a', corpora: ['x', 'y'], groups: ['g'] }).token;
    const b = store.add({ name: 'b', corpora: '*' }).token;
    expect(store.policyFor(a)).toEqual({ corpora: ['x', 'y'], groups: ['g'] });
    expect(store.policyFor(b)).toEqual({ corpora: '*', groups: [] });
    expect(store.authenticate(b)?.name).toBe('b');
    for (const other of [`${a}x`, a.slice(0, -1), '', hashToken(a), a.toUpperCase()]) expect(store.policyFor(other)).toBeUndefined();
  });

  it('sees tokens added and removed by another process without being reloaded', () => {
    const { file } = fresh();
    const server = TokenStore.load(file);
    const cli = TokenStore.load(file);
    const { token } = cli.add({ name: 'late', corpora: '*' });
    expect(server.policyFor(token)).toEqual({ corpora: '*', groups: [] });
    TokenStore.load(file).remove('late');
    expect(server.policyFor(token)).toBeUndefined();
    expect(server.list()).toEqual([]);
    // A store that wrote last still sees the other's additions before writing (nothing is lost).
    cli.add({ name: 'one', corpora: '*' });
    server.add({ name: 'two', corpora: '*' });
    expect(
      TokenStore.load(file)
        .list()
        .map((e) => e.name),
    ).toEqual(['one', 'two']);
  });

  it('removes a token by name and says which names exist when there is none', () => {
    const { file } = fresh();
    const store = TokenStore.load(file);
    const { token } = store.add({ name: 'gone', corpora: '*' });
    store.add({ name: 'kept', corpora: '*' });
    expect(store.remove('gone').name).toBe('gone');
    expect(store.policyFor(token)).toBeUndefined();
    expect(store.list().map((e) => e.name)).toEqual(['kept']);
    expect(() => store.remove('gone')).toThrow(
      expect.objectContaining({ code: 'MCP_TOKEN_NOT_FOUND', message: expect.stringContaining('the tokens are: kept') }),
    );
  });

  it('refuses a duplicate name, a bad name, a token that could read nothing and a group with a comma', () => {
    const { file } = fresh();
    const store = TokenStore.load(file);
    store.add({ name: 'ci', corpora: '*' });
    expect(() => store.add({ name: 'ci', corpora: '*' })).toThrow(
      expect.objectContaining({ code: 'MCP_TOKEN_EXISTS', message: expect.stringContaining('travsr mcp token remove ci') }),
    );
    for (const name of ['', 'has space', '-dash-first', 'x'.repeat(65), 'ü'])
      expect(() => store.add({ name, corpora: '*' })).toThrow(expect.objectContaining({ code: 'MCP_TOKEN_NAME_INVALID' }));
    expect(() => store.add({ name: 'none', corpora: [] })).toThrow(
      expect.objectContaining({ code: 'MCP_TOKEN_POLICY_INVALID', message: expect.stringContaining('--all-corpora') }),
    );
    expect(() => store.add({ name: 'star', corpora: ['*'] })).toThrow(expect.objectContaining({ code: 'MCP_TOKEN_POLICY_INVALID' }));
    expect(() => store.add({ name: 'g', corpora: '*', groups: ['a,b'] })).toThrow(
      expect.objectContaining({ code: 'MCP_TOKEN_POLICY_INVALID', message: expect.stringContaining('no comma') }),
    );
    expect(store.list().map((e) => e.name)).toEqual(['ci']);
  });

  it('reports a corrupt file by name and leaves it untouched', () => {
    const { folder, file } = fresh();
    TokenStore.load(file).add({ name: 'ci', corpora: '*' });
    const cases: [string, RegExp][] = [
      ['{"version": 1, "tokens": [', /it is not JSON/],
      ['[]', /expected an object with a "tokens" array/],
      ['{"version": 2, "tokens": []}', /expected "version": 1, found 2/],
      ['{"version": 1, "tokens": [{"name": "a", "sha256": "zz", "corpora": "*", "groups": [], "createdAt": ""}]}', /tokens\[0\]\.sha256/],
      [
        `{"version": 1, "tokens": [{"name": "a", "sha256": "${'0'.repeat(64)}", "corpora": "all", "groups": [], "createdAt": ""}]}`,
        /tokens\[0\]\.corpora/,
      ],
    ];
    for (const [text, why] of cases) {
      writeFileSync(join(folder, 'mcp-tokens.json'), text);
      expect(() => TokenStore.load(file)).toThrow(
        expect.objectContaining({ code: 'MCP_TOKENS_INVALID', path: file, message: expect.stringMatching(why) }),
      );
    }
    const broken = '{"version": 1, "tokens": [';
    writeFileSync(file, broken);
    expect(() => TokenStore.load(file)).toThrow(expect.objectContaining({ message: expect.stringContaining(file) }));
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('makes a running store fail closed when its file turns corrupt', () => {
    const { file } = fresh();
    const store = TokenStore.load(file);
    const { token } = store.add({ name: 'ci', corpora: '*' });
    writeFileSync(file, 'not json at all');
    expect(() => store.policyFor(token)).toThrow(expect.objectContaining({ code: 'MCP_TOKENS_INVALID' }));
  });
});
