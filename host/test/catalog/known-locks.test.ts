import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberLock, versionsLockedElsewhere } from '../../src/catalog/known-locks.js';
import { pluginsLockPath, writePluginsLock, type LockEntry } from '../../src/catalog/plugins-lock.js';

const entry = (version: string): LockEntry => ({
  version,
  constraint: `^${version}`,
  registry: 'builtin',
  sha256: 'a'.repeat(64),
  treeHash: `sha256:${'b'.repeat(64)}`,
});

/** A repository whose lock names `plugins` (id → version). */
function repoLocking(plugins: Record<string, string>): string {
  const path = pluginsLockPath(mkdtempSync(join(tmpdir(), 'travsr-known-lock-')));
  mkdirSync(join(path, '..'), { recursive: true });
  writePluginsLock(path, Object.fromEntries(Object.entries(plugins).map(([id, v]) => [id, entry(v)])));
  return path;
}

describe('known lock files', () => {
  let home: string;
  const saved = process.env.TRAVSR_HOME;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'travsr-known-home-'));
    process.env.TRAVSR_HOME = home;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TRAVSR_HOME;
    else process.env.TRAVSR_HOME = saved;
  });

  it('lists the versions the other remembered locks name, with the locks naming each', () => {
    const a = repoLocking({ 'example-lua': '0.1.0', 'lang-go': '0.1.0' });
    const b = repoLocking({ 'example-lua': '0.2.0' });
    const c = repoLocking({ 'example-lua': '0.1.0' });
    for (const lock of [a, b, c, a]) rememberLock(lock);
    expect(JSON.parse(readFileSync(join(home, 'known-locks.json'), 'utf8'))).toEqual([a, b, c].sort());
    const { locked, unreadable } = versionsLockedElsewhere(b);
    expect([...locked.keys()].sort()).toEqual(['example-lua@0.1.0', 'lang-go@0.1.0']);
    expect(locked.get('example-lua@0.1.0')!.sort()).toEqual([a, c].sort());
    expect(locked.get('lang-go@0.1.0')).toEqual([a]);
    expect(unreadable).toEqual([]);
  });

  it('forgets a lock file that is gone, and names one it cannot parse (spares nothing for it)', () => {
    const a = repoLocking({ 'example-lua': '0.1.0' });
    const gone = repoLocking({ 'example-lua': '0.3.0' });
    const broken = repoLocking({ 'example-lua': '0.4.0' });
    for (const lock of [a, gone, broken]) rememberLock(lock);
    rmSync(gone);
    writeFileSync(broken, 'lockfileVersion = [');
    const { locked, unreadable } = versionsLockedElsewhere();
    expect([...locked.keys()]).toEqual(['example-lua@0.1.0']);
    expect(unreadable).toEqual([broken]);
    expect(JSON.parse(readFileSync(join(home, 'known-locks.json'), 'utf8'))).toEqual([a, broken].sort());
  });

  it('an unreadable record is no record: nothing is spared, nothing throws', () => {
    writeFileSync(join(home, 'known-locks.json'), '{ not json');
    expect(versionsLockedElsewhere().locked.size).toBe(0);
    rememberLock(repoLocking({ 'example-lua': '0.1.0' }));
    expect(versionsLockedElsewhere().locked.size).toBe(1);
  });
});
