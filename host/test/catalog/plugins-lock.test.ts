import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { langErrorOf } from './lang-error.js';
import { pluginsLockPath, readPluginsLock, sameLockEntry, writePluginsLock, type LockEntry } from '../../src/catalog/plugins-lock.js';

const repo = () => mkdtempSync(join(tmpdir(), 'travsr-lock-'));

const LUA: LockEntry = {
  version: '0.1.0',
  constraint: '^0.1.0',
  registry: 'https://plugins.example.org',
  sha256: 'a'.repeat(64),
  treeHash: `sha256:${'b'.repeat(64)}`,
};
const SCOPED: LockEntry = {
  version: '2.0.0-rc.1',
  constraint: '2.0.0-rc.1',
  registry: 'builtin',
  sha256: 'c'.repeat(64),
  treeHash: `sha256:${'d'.repeat(64)}`,
};

/** A lock file with `body` below the format line. */
function lockWith(body: string): string {
  const path = pluginsLockPath(repo());
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `lockfileVersion = 1\n${body}`);
  return path;
}

const entryToml = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} = "${v}"`)
    .join('\n');

describe('plugins.lock', () => {
  it('lives at <repo>/.travsr/plugins.lock; a missing file is an empty lock', () => {
    const root = repo();
    expect(pluginsLockPath(root)).toBe(join(root, '.travsr', 'plugins.lock'));
    expect(readPluginsLock(pluginsLockPath(root))).toEqual({});
  });

  it('round-trips entries (scoped ids too), creating .travsr/, sorted by id, with the format version', () => {
    const path = pluginsLockPath(repo());
    writePluginsLock(path, { 'example-lua': LUA, 'acme/lua': SCOPED });
    expect(readPluginsLock(path)).toEqual({ 'acme/lua': SCOPED, 'example-lua': LUA });
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^# Travsr plugin lock/);
    expect(parse(text).lockfileVersion).toBe(1);
    expect(text.indexOf('acme/lua')).toBeLessThan(text.indexOf('example-lua'));
    // Writing what was read changes nothing: a stable diff.
    writePluginsLock(path, readPluginsLock(path));
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a TOML syntax error names file:line:column', () => {
    const path = lockWith('[plugins.example-lua]\nversion = "0.1.0\n');
    const e = langErrorOf(() => readPluginsLock(path));
    expect(e.code).toBe('LOCK_INVALID');
    expect(e.message).toMatch(new RegExp(`^${escape(path)}:3:\\d+: .*restore it from version control`));
  });

  it('an entry with a missing field names the line of the entry and the field', () => {
    const noSha: Record<string, string> = { ...LUA };
    delete noSha.sha256;
    const path = lockWith(`\n[plugins.example-lua]\n${entryToml(noSha)}\n`);
    const e = langErrorOf(() => readPluginsLock(path));
    expect(e.code).toBe('LOCK_INVALID');
    expect(e.message).toBe(
      `${path}:3: plugins."example-lua" needs a string "sha256"; fix the entry or remove it and run \`travsr lang install\``,
    );
  });

  it.each([
    ['version', { version: '1.0' }, /version "1\.0" is not a version/],
    ['constraint', { constraint: 'newest please' }, /constraint "newest please" is not a version range/],
    ['sha256', { sha256: 'A'.repeat(64) }, /sha256 is not 64 hex digits/],
    ['treeHash', { treeHash: 'b'.repeat(64) }, /treeHash is not sha256:<64 hex digits>/],
  ])('a malformed %s is refused', (_field, change, message) => {
    const path = lockWith(`[plugins.example-lua]\n${entryToml({ ...LUA, ...change })}\n`);
    const e = langErrorOf(() => readPluginsLock(path));
    expect(e.code).toBe('LOCK_INVALID');
    expect(e.message).toMatch(message);
  });

  it('an unknown lockfileVersion and a [plugins] that is not a table are refused', () => {
    const future = pluginsLockPath(repo());
    mkdirSync(join(future, '..'));
    writeFileSync(future, 'lockfileVersion = 2\n');
    expect(langErrorOf(() => readPluginsLock(future)).message).toMatch(/:1: lockfileVersion 2 is not supported \(this Travsr reads 1\)/);
    const flat = lockWith('plugins = "example-lua"\n');
    expect(langErrorOf(() => readPluginsLock(flat)).message).toMatch(/:2: \[plugins\] must be a table/);
  });

  it('a lock that cannot be read (here: a directory) is LOCK_INVALID, not an empty lock', () => {
    const path = pluginsLockPath(repo());
    mkdirSync(path, { recursive: true });
    const e = langErrorOf(() => readPluginsLock(path));
    expect(e.code).toBe('LOCK_INVALID');
    expect(e.message).toMatch(/^cannot read .*plugins\.lock: EISDIR.*check its permissions$/);
  });

  it('sameLockEntry compares what is pinned, not where it came from', () => {
    expect(sameLockEntry(LUA, { ...LUA, registry: 'builtin' })).toBe(true);
    expect(sameLockEntry(LUA, { ...LUA, version: '0.1.1' })).toBe(false);
    expect(sameLockEntry(LUA, { ...LUA, treeHash: SCOPED.treeHash })).toBe(false);
    expect(sameLockEntry(LUA, undefined)).toBe(false);
    expect(sameLockEntry(undefined, undefined)).toBe(true);
  });

  it('keeps an SBOM hash when there is one; it counts in sameLockEntry only when both entries have one', () => {
    const path = pluginsLockPath(repo());
    const withSbom = { ...LUA, sbomSha256: 'e'.repeat(64) };
    writePluginsLock(path, { lua: withSbom, scoped: SCOPED });
    expect(readPluginsLock(path)).toEqual({ lua: withSbom, scoped: SCOPED });
    expect(sameLockEntry(LUA, withSbom)).toBe(true);
    expect(sameLockEntry(withSbom, { ...withSbom, sbomSha256: 'f'.repeat(64) })).toBe(false);
    const bad = lockWith(
      `[plugins.lua]\n${entryToml({ version: '0.1.0', constraint: '^0.1.0', registry: 'builtin', sha256: 'a'.repeat(64), treeHash: LUA.treeHash, sbomSha256: 'xyz' })}\n`,
    );
    expect(langErrorOf(() => readPluginsLock(bad)).message).toMatch(/plugins\."lua"\.sbomSha256 is not 64 hex digits/);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
