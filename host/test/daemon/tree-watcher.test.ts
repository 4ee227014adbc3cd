import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TreeWatcher, type WatchMode } from '../../src/daemon/tree-watcher.js';

/** A tree and a watcher over it that collects what it reports. */
function setup(files: Record<string, string>, opts: { maxDirectories?: number; scanIntervalMs?: number; exclude?: string[] } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'travsr-watch-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [p, t] of Object.entries(files)) write(p, t);
  const seen = new Set<string>();
  const modes: { mode: WatchMode; note: string | undefined }[] = [];
  const watcher = new TreeWatcher(root, {
    maxDirectories: opts.maxDirectories ?? 1000,
    scanIntervalMs: opts.scanIntervalMs ?? 100,
    ...(opts.exclude ? { exclude: opts.exclude } : {}),
    onChange: (paths) => paths.forEach((p) => seen.add(p)),
    onMode: (mode, note) => modes.push({ mode, note }),
  });
  cleanups.push(() => {
    watcher.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, write, seen, modes, watcher };
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Waits until `check` holds (the OS reports asynchronously), at most 10 s. */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the watcher');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('TreeWatcher', () => {
  it('reports edited and new files, and the files of a new directory', async () => {
    const t = setup({ 'src/a.py': 'a', 'README.md': 'r' });
    await t.watcher.start();
    expect(t.watcher.mode).toBe('watching');
    expect(t.watcher.watchedDirectories).toBe(2);
    t.write('src/a.py', 'changed');
    t.write('src/new.py', 'new');
    await until(() => t.seen.has('src/a.py') && t.seen.has('src/new.py'));
    t.write('pkg/deep/mod.py', 'm');
    await until(() => t.seen.has('pkg/deep/mod.py'));
    await until(() => t.watcher.watchedDirectories === 4);
    t.write('pkg/deep/later.py', 'l');
    await until(() => t.seen.has('pkg/deep/later.py'));
  });

  it('watches nothing the indexer leaves out: ignored and vendored directories, .git', async () => {
    const t = setup(
      { '.gitignore': 'build/\n', 'build/out.py': 'o', 'node_modules/x/i.js': 'i', '.git/HEAD': 'h', 'src/a.py': 'a' },
      { exclude: ['gen/'] },
    );
    mkdirSync(join(t.root, 'gen'));
    await t.watcher.start();
    expect(t.watcher.watchedDirectories).toBe(2); // the root and src/
    t.write('build/out.py', 'again');
    t.write('node_modules/x/i.js', 'again');
    t.write('gen/g.py', 'g');
    t.write('src/a.py', 'edit'); // the marker: events arrive in order per directory
    await until(() => t.seen.has('src/a.py'));
    await new Promise((r) => setTimeout(r, 200));
    expect([...t.seen].filter((p) => p.startsWith('build/') || p.startsWith('node_modules/') || p.startsWith('gen/'))).toEqual([]);
  });

  it('scans instead of watching a tree larger than maxDirectories, and says why', async () => {
    const t = setup({ 'a/1.py': '1', 'b/2.py': '2', 'c/3.py': '3' }, { maxDirectories: 2, scanIntervalMs: 100 });
    await t.watcher.start();
    expect(t.watcher.mode).toBe('scanning');
    expect(t.watcher.watchedDirectories).toBe(0);
    expect(t.watcher.note).toMatch(/4 directories to watch, more than daemon.maxWatchedDirectories \(2\)/);
    expect(t.modes.map((m) => m.mode)).toEqual(['scanning']);
    t.write('b/2.py', 'two, longer');
    t.write('c/new.py', 'n');
    rmSync(join(t.root, 'a/1.py'));
    await until(() => t.seen.has('b/2.py') && t.seen.has('c/new.py') && t.seen.has('a/1.py'));
  });
});

/** Whether this machine lets an unprivileged user namespace lower its own inotify limit (Linux ≥ 5.11). */
const canLimitWatches =
  process.platform === 'linux' &&
  spawnSync('unshare', ['-Ur', 'sh', '-c', 'echo 5 > /proc/sys/user/max_inotify_watches'], { stdio: 'ignore' }).status === 0;

describe('TreeWatcher at the OS limit', () => {
  // The watcher runs (from the build) in a user namespace whose inotify limit is 3 watches: the
  // kernel refuses the fourth with ENOSPC, as it does when fs.inotify.max_user_watches is used up.
  it.skipIf(!canLimitWatches)('falls back to scanning when the OS refuses a watch, says why, and still sees changes', () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-watch-limit-'));
    for (const d of ['a', 'b', 'c', 'd']) {
      mkdirSync(join(root, d));
      writeFileSync(join(root, d, 'f.py'), d);
    }
    const watcher = fileURLToPath(new URL('../../dist/daemon/tree-watcher.js', import.meta.url));
    const script = `
      const { TreeWatcher } = await import(${JSON.stringify(watcher)});
      const { writeFileSync } = await import('node:fs');
      const seen = new Set();
      const w = new TreeWatcher(${JSON.stringify(root)}, { maxDirectories: 1000, scanIntervalMs: 100, onChange: (p) => p.forEach((x) => seen.add(x)) });
      await w.start();
      console.log(JSON.stringify({ mode: w.mode, note: w.note, watched: w.watchedDirectories }));
      writeFileSync(${JSON.stringify(join(root, 'c', 'g.py'))}, 'new');
      const end = Date.now() + 20000;
      while (!seen.has('c/g.py') && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ seen: [...seen] }));
      w.close();`;
    try {
      const r = spawnSync(
        'unshare',
        [
          '-Ur',
          'sh',
          '-c',
          `echo 3 > /proc/sys/user/max_inotify_watches && exec "$0" --input-type=module -e "$1"`,
          process.execPath,
          script,
        ],
        {
          encoding: 'utf8',
          timeout: 40_000,
        },
      );
      expect(r.status, r.stderr).toBe(0);
      const [first, second] = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(first).toMatchObject({ mode: 'scanning', watched: 0 });
      expect(first!.note).toMatch(/refused another file watch \(ENOSPC.*max_user_watches/);
      expect(second!.seen).toContain('c/g.py');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
