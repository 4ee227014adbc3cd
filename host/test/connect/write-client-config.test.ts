// Real files in a temporary folder: what a user's configuration looks like before and after.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  lstatSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyServerChange, readClientConfig } from '../../src/connect/index.js';

const ENTRY = { command: '/usr/bin/node', args: ['/opt/travsr/bin/run.js', 'mcp', '--stdio', '--repo', '/work/repo'] };
const set = (entry: Record<string, unknown> = ENTRY, force = false) => ({ op: 'set' as const, name: 'travsr', entry, force });
const NOW = new Date('2026-03-04T05:06:07.089Z');
const STAMP = '2026-03-04T05-06-07-089Z';

let work: string;
let dir: string;
let file: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-connect-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeEach(() => {
  dir = mkdtempSync(join(work, 'case-'));
  file = join(dir, 'mcp.json');
});

const EXISTING = {
  theme: 'dark',
  numStartups: 42,
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada'] },
    remote: { type: 'http', url: 'https://example.org/mcp' },
  },
  projects: { '/work/repo': { mcpServers: { local: { command: 'x' } } } },
};

describe('applyServerChange', () => {
  it('adds the entry, keeps every other key and server in place, and backs the old file up', () => {
    const before = JSON.stringify(EXISTING, null, 4);
    writeFileSync(file, before);
    const r = applyServerChange(file, set(), { now: NOW });
    expect(r).toMatchObject({ action: 'added', changed: true, backup: `${file}.travsr-backup-${STAMP}` });
    const after = readFileSync(file, 'utf8');
    expect(after).toBe(JSON.stringify({ ...EXISTING, mcpServers: { ...EXISTING.mcpServers, travsr: ENTRY } }, null, 2) + '\n');
    expect(Object.keys(JSON.parse(after) as object)).toEqual(['theme', 'numStartups', 'mcpServers', 'projects']);
    expect(readFileSync(r.backup!, 'utf8')).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['mcp.json', `mcp.json.travsr-backup-${STAMP}`]);
  });

  it('creates the file and its folders when there is none, without a backup', () => {
    const nested = join(dir, 'a', 'b', '.mcp.json');
    const r = applyServerChange(nested, set());
    expect(r).toMatchObject({ action: 'added', backup: null });
    expect(JSON.parse(readFileSync(nested, 'utf8'))).toEqual({ mcpServers: { travsr: ENTRY } });
  });

  it('adds mcpServers at the end of a file that has none, and reads an empty file as {}', () => {
    writeFileSync(file, '{"theme": "light"}');
    applyServerChange(file, set());
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'light', mcpServers: { travsr: ENTRY } });
    writeFileSync(file, '  \n');
    expect(applyServerChange(file, set(), { now: NOW })).toMatchObject({ action: 'added', backup: `${file}.travsr-backup-${STAMP}` });
  });

  it('does nothing for an identical entry, whatever its key order: no write, no backup', () => {
    const text = `{"mcpServers": {"travsr": {"args": ${JSON.stringify(ENTRY.args)}, "command": "/usr/bin/node"}}}`;
    writeFileSync(file, text);
    const mtime = statSync(file).mtimeMs;
    expect(applyServerChange(file, set())).toMatchObject({ action: 'unchanged', changed: false, backup: null });
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });

  it('refuses to replace a different entry of the same name without force, and replaces it in place with force', () => {
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { a: { command: 'a' }, travsr: { command: 'travsr', args: ['old'] }, z: { command: 'z' } } }),
    );
    const before = readFileSync(file, 'utf8');
    expect(() => applyServerChange(file, set())).toThrow(
      expect.objectContaining({ code: 'CLIENT_CONFIG_CONFLICT', message: expect.stringMatching(/it runs travsr old.*--force.*--name/) }),
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['mcp.json']);

    const r = applyServerChange(file, set(ENTRY, true));
    expect(r).toMatchObject({ action: 'replaced', previous: { command: 'travsr', args: ['old'] } });
    expect(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: object }).mcpServers)).toEqual(['a', 'travsr', 'z']);
    expect(readFileSync(r.backup!, 'utf8')).toBe(before);
  });

  it('removes the entry (with a backup) and reports an absent one without writing', () => {
    writeFileSync(file, JSON.stringify({ mcpServers: { travsr: ENTRY, other: { command: 'o' } } }));
    const r = applyServerChange(file, { op: 'remove', name: 'travsr' });
    expect(r).toMatchObject({ action: 'removed', changed: true, previous: ENTRY });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: { other: { command: 'o' } } });
    expect(r.backup).toMatch(/mcp\.json\.travsr-backup-/);
    expect(applyServerChange(file, { op: 'remove', name: 'travsr' })).toMatchObject({ action: 'absent', changed: false, backup: null });
    expect(applyServerChange(join(dir, 'none.json'), { op: 'remove', name: 'travsr' })).toMatchObject({ action: 'absent' });
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('in a dry run returns the new text and the backup name, and writes nothing', () => {
    writeFileSync(file, '{"mcpServers": {}}');
    const r = applyServerChange(file, set(), { dryRun: true, now: NOW });
    expect(r).toMatchObject({ action: 'added', changed: true, backup: `${file}.travsr-backup-${STAMP}` });
    expect(JSON.parse(r.text!)).toEqual({ mcpServers: { travsr: ENTRY } });
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {}}');
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });

  it('never overwrites an earlier backup', () => {
    writeFileSync(file, '{}');
    applyServerChange(file, set(), { now: NOW });
    applyServerChange(file, { op: 'remove', name: 'travsr' }, { now: NOW });
    expect(readdirSync(dir).sort()).toEqual(['mcp.json', `mcp.json.travsr-backup-${STAMP}`, `mcp.json.travsr-backup-${STAMP}-2`]);
    expect(readFileSync(`${file}.travsr-backup-${STAMP}`, 'utf8')).toBe('{}');
  });

  it('keeps the permissions of a private file, writes through a symlink, keeps CRLF and drops a BOM', () => {
    writeFileSync(file, '{}');
    chmodSync(file, 0o600);
    applyServerChange(file, set());
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const real = join(dir, 'dotfiles', 'claude.json');
    mkdirSync(join(dir, 'dotfiles'));
    writeFileSync(real, '{"x": 1}');
    const link = join(dir, '.claude.json');
    symlinkSync(real, link);
    applyServerChange(link, set());
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ x: 1, mcpServers: { travsr: ENTRY } });

    writeFileSync(file, '\uFEFF{\r\n  "a": 1\r\n}\r\n');
    applyServerChange(file, set(), { now: NOW });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{\r\n  "a": 1,\r\n  "mcpServers": {\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });
});

describe('a file travsr cannot use is left exactly as it was', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a trailing comma',
      '{\n  "mcpServers": {\n    "a": {"command": "a"},\n  }\n}\n',
      /mcp\.json:4:3: not valid JSON \(trailing comma before "}"\)/,
    ],
    ['a comment', '{\n  // servers\n  "mcpServers": {}\n}', /mcp\.json:2:3: not valid JSON \(.*comment/],
    ['an array at the top', '[]', /the top level is an array, not a JSON object/],
    ['mcpServers as a list', '{"mcpServers": [{"name": "a"}]}', /"mcpServers" is an array, not an object of servers/],
    ['mcpServers as null', '{"mcpServers": null}', /"mcpServers" is null/],
  ];
  for (const [what, text, message] of cases) {
    it(`with ${what}: CLIENT_CONFIG_INVALID, no write, no backup`, () => {
      writeFileSync(file, text);
      for (const change of [set(), { op: 'remove' as const, name: 'travsr' }])
        expect(() => applyServerChange(file, change)).toThrow(
          expect.objectContaining({ code: 'CLIENT_CONFIG_INVALID', message: expect.stringMatching(message) }),
        );
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(readdirSync(dir)).toEqual(['mcp.json']);
    });
  }

  it('with an integer JavaScript cannot keep: CLIENT_CONFIG_UNSUPPORTED', () => {
    const text = '{\n  "userId": 12345678901234567890\n}';
    writeFileSync(file, text);
    expect(() => applyServerChange(file, set())).toThrow(
      expect.objectContaining({
        code: 'CLIENT_CONFIG_UNSUPPORTED',
        message: expect.stringContaining('mcp.json:2:13: the number 12345678901234567890'),
      }),
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('a folder in place of the file is CLIENT_CONFIG_UNREADABLE', () => {
    mkdirSync(file);
    expect(() => readClientConfig(file)).toThrow(expect.objectContaining({ code: 'CLIENT_CONFIG_UNREADABLE' }));
  });
});
