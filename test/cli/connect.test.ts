// The real `travsr connect` against temporary HOME and XDG folders and a temporary repository:
// what ends up in each client's configuration file, and what is left alone.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const ENTRY_SCRIPT = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-connect-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A repository folder and a home of its own (HOME, XDG_CONFIG_HOME), so no test sees another's files. */
function setup(name: string) {
  const repo = join(work, name, 'repo');
  const home = join(work, name, 'home');
  const xdg = join(work, name, 'xdg');
  mkdirSync(repo, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = { HOME: home, XDG_CONFIG_HOME: xdg, CLAUDE_CONFIG_DIR: '', TRAVSR_HOME: join(work, name, 'travsr-home') };
  const run = (...args: string[]) => travsr(['connect', ...args], { cwd: repo, env });
  return { repo, home, env, run, desktop: join(xdg, 'Claude', 'claude_desktop_config.json') };
}

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const backupsOf = (path: string) => readdirSync(dirname(path)).filter((f) => f.startsWith(`${path.split('/').pop()!}.travsr-backup-`));

describe('travsr connect', () => {
  it('adds travsr to Claude Desktop, keeping the other servers and keys and backing the file up', async () => {
    const t = setup('desktop');
    const original = `${JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] } }, globalShortcut: 'Ctrl+Space' }, null, 4)}\n`;
    write(t.desktop, original);

    const r = await t.run('claude-desktop');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Added "travsr" in Claude Desktop (user scope): ${t.desktop}`);
    const [backup] = backupsOf(t.desktop);
    expect(backup).toMatch(/^claude_desktop_config\.json\.travsr-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(r.stdout).toContain(`previous file backed up to ${join(dirname(t.desktop), backup!)}`);
    expect(readFileSync(join(dirname(t.desktop), backup!), 'utf8')).toBe(original);
    expect(r.stderr).toContain('has no Travsr index yet; run `travsr init');

    const text = readFileSync(t.desktop, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "mcpServers": {\n'); // rewritten with 2-space indentation
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] },
        travsr: {
          command: process.execPath,
          args: [ENTRY_SCRIPT, 'mcp', '--stdio', '--repo', t.repo],
          env: { TRAVSR_HOME: t.env.TRAVSR_HOME },
        },
      },
      globalShortcut: 'Ctrl+Space',
    });

    const again = await t.run('claude-desktop');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"travsr" is already connected to Claude Desktop');
    expect(backupsOf(t.desktop)).toHaveLength(1);
    expect(readFileSync(t.desktop, 'utf8')).toBe(text);
  });

  it('writes .mcp.json at the repository root for Claude Code, and ~/.claude.json with --scope user', async () => {
    const t = setup('claude-code');
    const r = await t.run('claude-code', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ client: 'claude-code', path: join(t.repo, '.mcp.json'), name: 'travsr', backup: null, changed: true });
    expect(out.entry).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [ENTRY_SCRIPT, 'mcp', '--stdio', '--repo', t.repo],
      env: { TRAVSR_HOME: t.env.TRAVSR_HOME },
    });
    expect(readJson(join(t.repo, '.mcp.json'))).toEqual({ mcpServers: { travsr: out.entry } });

    write(join(t.home, '.claude.json'), JSON.stringify({ numStartups: 7, projects: { '/x': { allowedTools: [] } } }));
    const user = await t.run('claude-code', '--scope', 'user', '--use-path', '--name', 'travsr-other');
    expect(user.code).toBe(0);
    expect(readJson(join(t.home, '.claude.json'))).toEqual({
      numStartups: 7,
      projects: { '/x': { allowedTools: [] } },
      mcpServers: {
        'travsr-other': {
          type: 'stdio',
          command: 'travsr',
          args: ['mcp', '--stdio', '--repo', t.repo],
          env: { TRAVSR_HOME: t.env.TRAVSR_HOME },
        },
      },
    });
  });

  it('leaves a file that is not valid JSON untouched and names file:line:col', async () => {
    const t = setup('invalid');
    const broken = '{\n  "mcpServers": {\n    "fs": { "command": "npx" },\n  }\n}\n';
    const file = join(t.repo, '.cursor', 'mcp.json');
    write(file, broken);
    const r = await t.run('cursor');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error [CLIENT_CONFIG_INVALID]: ${file}:4:3: not valid JSON (trailing comma before "}")`);
    expect(r.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(readdirSync(dirname(file))).toEqual(['mcp.json']);

    write(file, '{"mcpServers": ["fs"]}');
    const removal = await t.run('cursor', '--remove');
    expect(removal.code).toBe(1);
    expect(removal.stderr).toContain('"mcpServers" is an array, not an object of servers');
  });

  it('replaces a different entry of the same name only with --force', async () => {
    const t = setup('force');
    const file = join(t.home, '.cursor', 'mcp.json');
    const mine = JSON.stringify({
      mcpServers: { travsr: { command: 'travsr', args: ['mcp', '--repo', '/elsewhere'] }, other: { url: 'https://x' } },
    });
    write(file, mine);

    const refused = await t.run('cursor', '--scope', 'user');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Error \[CLIENT_CONFIG_CONFLICT\]: .*already has an MCP server "travsr" .*it runs travsr mcp --repo \/elsewhere.*--force/,
    );
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(backupsOf(file)).toEqual([]);

    const forced = await t.run('cursor', '--scope', 'user', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Replaced "travsr" in Cursor (user scope)');
    expect(readJson(file).mcpServers).toEqual({
      travsr: {
        command: process.execPath,
        args: [ENTRY_SCRIPT, 'mcp', '--stdio', '--repo', t.repo],
        env: { TRAVSR_HOME: t.env.TRAVSR_HOME },
      },
      other: { url: 'https://x' },
    });
    expect(backupsOf(file).map((b) => readFileSync(join(dirname(file), b), 'utf8'))).toEqual([mine]);
  });

  it('--remove takes the entry out, with a backup, and keeps the rest', async () => {
    const t = setup('remove');
    write(t.desktop, JSON.stringify({ mcpServers: { fs: { command: 'npx' } } }));
    expect((await t.run('claude-desktop')).code).toBe(0);
    const removed = await t.run('claude-desktop', '--remove');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed "travsr" from Claude Desktop (user scope): ${t.desktop}`);
    expect(readJson(t.desktop)).toEqual({ mcpServers: { fs: { command: 'npx' } } });
    expect(backupsOf(t.desktop)).toHaveLength(2);

    const again = await t.run('claude-desktop', '--remove');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"travsr" is not in');
    expect(backupsOf(t.desktop)).toHaveLength(2);
  });

  it('--dry-run prints the path and the resulting JSON and writes nothing', async () => {
    const t = setup('dry-run');
    const file = join(t.repo, '.mcp.json');
    const r = await t.run('claude-code', '--dry-run');
    expect(r.code).toBe(0);
    const [head, ...body] = r.stdout.split('\n');
    expect(head).toBe(`dry run: would write ${file}:`);
    expect(JSON.parse(body.join('\n')).mcpServers.travsr.args).toEqual([ENTRY_SCRIPT, 'mcp', '--stdio', '--repo', t.repo]);
    expect(existsSync(file)).toBe(false);

    write(file, '{"mcpServers": {}}');
    const json = JSON.parse((await t.run('claude-code', '--dry-run', '--json')).stdout);
    expect(json).toMatchObject({ path: file, changed: true, dryRun: true, backup: expect.stringContaining('.mcp.json.travsr-backup-') });
    expect(JSON.parse(json.text as string).mcpServers.travsr).toEqual(json.entry);
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {}}');
    expect(readdirSync(t.repo)).toEqual(['.mcp.json']);
  });

  it('without a client lists the clients, their files here and whether travsr is in them', async () => {
    const t = setup('list');
    await t.run('cursor');
    write(join(t.home, '.claude.json'), '{"mcpServers": {"fs": {"command": "npx"}}}');
    const r = await t.run();
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^claude-desktop +user\\* +${t.desktop} +no file$`));
    expect(lines[2]).toMatch(new RegExp(`^claude-code +user +${join(t.home, '.claude.json')} +no travsr server$`));
    expect(lines[3]).toMatch(new RegExp(`^cursor +project\\* +${join(t.repo, '.cursor', 'mcp.json')} +travsr → ${t.repo}$`));

    const json = JSON.parse((await t.run('--list', '--json')).stdout);
    expect(json).toHaveLength(5);
    expect(json.find((s: { client: string; scope: string }) => s.client === 'cursor' && s.scope === 'project')).toMatchObject({
      exists: true,
      servers: [{ name: 'travsr', repo: t.repo }],
    });
  });

  it('rejects a scope the client does not have', async () => {
    const t = setup('scope');
    const r = await t.run('claude-desktop', '--scope', 'project');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error [CLIENT_SCOPE_UNSUPPORTED]: Claude Desktop has no project-scope configuration; use --scope user');
  });
});
