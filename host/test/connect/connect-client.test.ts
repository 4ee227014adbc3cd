import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServerName, connectClient, listClientConfigs, type HostEnvironment } from '../../src/connect/index.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-connect-client-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function setup() {
  const root = mkdtempSync(join(work, 'case-'));
  const home = join(root, 'home');
  const host: HostEnvironment = { platform: 'linux', env: { HOME: home }, homedir: '/nonexistent' };
  const base = {
    host,
    remove: false,
    force: false,
    dryRun: false,
    usePath: false,
    execPath: '/usr/bin/node',
    entryScript: () => '/opt/travsr/bin/run.js',
  };
  return { root, home, host, base };
}

describe('connectClient', () => {
  it('connects two repositories to one client under two names', () => {
    const { root, home, base } = setup();
    const a = connectClient({ ...base, client: 'claude-desktop', name: 'travsr', repoRoot: join(root, 'api') });
    const b = connectClient({ ...base, client: 'claude-desktop', name: 'travsr-web', repoRoot: join(root, 'web') });
    expect(a.path).toBe(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(b).toMatchObject({ path: a.path, action: 'added', scope: 'user' });
    const servers = JSON.parse(readFileSync(a.path, 'utf8')).mcpServers;
    expect(servers['travsr'].args.at(-1)).toBe(join(root, 'api'));
    expect(servers['travsr-web'].args.at(-1)).toBe(join(root, 'web'));
  });

  it('defaults to the project file where the client has one', () => {
    const { root, base } = setup();
    const r = connectClient({ ...base, client: 'cursor', name: 'travsr', repoRoot: root });
    expect(r).toMatchObject({ scope: 'project', path: join(root, '.cursor', 'mcp.json') });
  });
});

describe('listClientConfigs', () => {
  it('reports each file: missing, with travsr servers and their repositories, or broken', () => {
    const { root, home, host, base } = setup();
    connectClient({ ...base, client: 'claude-code', name: 'travsr', repoRoot: root });
    mkdirSync(join(home, '.cursor'), { recursive: true });
    writeFileSync(join(home, '.cursor', 'mcp.json'), '{"mcpServers": {"fs": {"command": "npx"}},}');
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { fs: { command: 'npx' }, travsr: { url: 'https://x' } } }));

    const list = listClientConfigs({ name: 'travsr', repoRoot: root, host });
    expect(list.map((s) => [s.client, s.scope, s.default])).toEqual([
      ['claude-desktop', 'user', true],
      ['claude-code', 'project', true],
      ['claude-code', 'user', false],
      ['cursor', 'project', true],
      ['cursor', 'user', false],
    ]);
    const [desktop, codeProject, codeUser, cursorProject, cursorUser] = list;
    expect(desktop).toMatchObject({ exists: false, servers: [] });
    expect(codeProject).toMatchObject({ exists: true, servers: [{ name: 'travsr', repo: root }] });
    expect(codeUser).toMatchObject({ exists: true, servers: [{ name: 'travsr', repo: null }] });
    expect(cursorProject).toMatchObject({ exists: false });
    expect(cursorUser!.problem).toMatch(/mcp\.json:1:43: not valid JSON \(trailing comma/);
  });
});

describe('checkServerName', () => {
  it('accepts names every client takes and rejects the rest', () => {
    expect(checkServerName('travsr-api_2')).toBe('travsr-api_2');
    for (const bad of ['', 'has space', 'a/b', 'x'.repeat(65)])
      expect(() => checkServerName(bad)).toThrow(expect.objectContaining({ code: 'SERVER_NAME_INVALID' }));
  });
});
