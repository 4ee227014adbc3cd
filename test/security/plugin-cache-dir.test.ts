// A plugin that asks for a cache (constraints.cache) gets one directory that survives its
// sessions, private to it and to one repository, and nothing else writable: the real CLI
// indexes with a real bwrap sandbox and the real plugin process (test/fixtures/plugins/cache-probe.ts),
// which reports what it read and what it could write. Travsr's home is under /var/tmp here, so
// the cache's parents inside the sandbox are not in the plugin's private /tmp.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginBundleOptions } from '@travsr/sdk/build';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const ESCAPE_FILE = 'cache-probe-escape.txt';

interface ProbeReport {
  cacheDir: string | null;
  previous?: number;
  wrote?: number;
  attempts: { target: string; dir: string; ok: boolean; code?: string }[];
}

let scratch: string;
let home: string;
let pluginRoot: string;
const repos: GitRepo[] = [];

/** A fixture plugin directory: the probe's bundle and a manifest with or without `constraints.cache`. */
function pluginDir(id: string, cache: boolean): string {
  const dir = join(pluginRoot, id);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(pluginRoot, 'main.js'), join(dir, 'main.js'));
  writeFileSync(
    join(dir, 'travsr-plugin.json'),
    JSON.stringify({
      id,
      version: '1.0.0',
      languages: ['text'],
      extensions: ['.txt'],
      entrypoint: { runtime: 'node', path: 'main.js', args: [id] },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false, ...(cache ? { cache: true } : {}) },
    }),
  );
  return dir;
}

/** Registers `id` (at `dir`) as the plugin of language `text` in the test home's lang.toml. */
function register(id: string, dir: string): void {
  writeFileSync(
    join(home, 'lang.toml'),
    `[languages.text]\nplugin = "${id}"\nallow_unsandboxed = false\n\n[plugins."${id}"]\nversion = "1.0.0"\ndir = "${dir}"\ntier = "standard"\nnetwork_allow = []\n`,
  );
}

/** Where the host keeps `id`'s cache for `repo`: <home>/cache/plugins/<id>/1.0.0/<sha256(realpath)[0:16]>. */
function expectedCacheDir(id: string, repo: GitRepo): string {
  const key = createHash('sha256').update(realpathSync(repo.root)).digest('hex').slice(0, 16);
  return join(home, 'cache', 'plugins', id, '1.0.0', key);
}

function newRepo(): GitRepo {
  const repo = new GitRepo('travsr-cache-repo-');
  repo.write({ 'notes.txt': 'hello cache\n' });
  repo.commit('notes');
  repos.push(repo);
  return repo;
}

/** Runs `travsr index --rebuild` (a fresh plugin session) and returns the probe's report. */
async function indexAndProbe(repo: GitRepo, env: Record<string, string> = {}): Promise<{ report: ProbeReport; stderr: string }> {
  const r = await travsr(['index', repo.root, '--rebuild'], { env: { TRAVSR_HOME: home, TRAVSR_LOG_LEVEL: 'info', ...env } });
  expect(r.code, r.stderr).toBe(0);
  const line = r.stderr.split('\n').find((l) => l.includes('CACHE-PROBE '));
  expect(line, r.stderr).toBeDefined();
  return { report: JSON.parse((line ?? '').slice((line ?? '').indexOf('CACHE-PROBE ') + 12)) as ProbeReport, stderr: r.stderr };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'travsr-cache-probe-'));
  pluginRoot = join(scratch, 'plugins');
  mkdirSync(pluginRoot);
  // Outside /tmp on purpose (see the header).
  home = realpathSync(mkdtempSync('/var/tmp/travsr-cache-home-'));
  await build(
    pluginBundleOptions(fileURLToPath(new URL('../fixtures/plugins/cache-probe.ts', import.meta.url)), join(pluginRoot, 'main.js'), {
      logLevel: 'silent',
    }),
  );
}, 120_000);

afterAll(() => {
  for (const r of repos) r.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('plugin cache directory: private, persistent, nothing else writable', () => {
  it('gives the plugin its own directory (mode 0700) whose files are still there in the next session', async () => {
    register('cache-probe', pluginDir('cache-probe', true));
    const repo = newRepo();
    const init = await travsr(['init', repo.root, '--no-hook'], { env: { TRAVSR_HOME: home } });
    expect(init.code, init.stderr).toBe(0);
    const dir = expectedCacheDir('cache-probe', repo);

    const first = await indexAndProbe(repo);
    expect(first.report).toMatchObject({ cacheDir: dir, wrote: first.report.previous! + 1 });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const second = await indexAndProbe(repo);
    expect(second.report).toMatchObject({ cacheDir: dir, previous: first.report.wrote, wrote: first.report.wrote! + 1 });
    expect(readFileSync(join(dir, 'sessions.txt'), 'utf8')).toBe(String(second.report.wrote));
  }, 240_000);

  it('lets it write nowhere else: not the repository, not the cache’s parent, not another repository’s cache, not $HOME or Travsr’s home', async () => {
    register('cache-probe', pluginDir('cache-probe', true));
    const other = newRepo();
    const repo = newRepo();
    for (const r of [other, repo]) expect((await travsr(['init', r.root, '--no-hook'], { env: { TRAVSR_HOME: home } })).code).toBe(0);
    await indexAndProbe(other);
    const otherCache = expectedCacheDir('cache-probe', other);
    expect(existsSync(join(otherCache, 'sessions.txt'))).toBe(true);

    const targets = ['@root', '@parent', otherCache, homedir(), home, realpathSync(repo.root)];
    const { report } = await indexAndProbe(repo, { TRAVSR_PLUGINS_OPTIONS: `cache-probe.targets=${targets.join(':')}` });
    expect(report.cacheDir).toBe(expectedCacheDir('cache-probe', repo));
    expect(report.attempts.map((a) => a.target)).toEqual(targets);
    // The repository's host path is under /tmp, where a write lands in the plugin's private
    // tmpfs; that one is checked on the host only, below.
    for (const a of report.attempts.slice(0, -1))
      expect(a, `${a.target} (${a.dir}) was writable inside the sandbox`).toMatchObject({ ok: false });
    // And on the host, nothing arrived anywhere.
    for (const dir of [repo.root, dirname(expectedCacheDir('cache-probe', repo)), otherCache, homedir(), home])
      expect(existsSync(join(dir, ESCAPE_FILE)), dir).toBe(false);
    expect(readdirSync(otherCache).sort()).toEqual(['sessions.txt']);
  }, 240_000);

  it('gives a plugin that does not ask for a cache no cacheDir, and creates nothing for it', async () => {
    register('no-cache-probe', pluginDir('no-cache-probe', false));
    const repo = newRepo();
    expect((await travsr(['init', repo.root, '--no-hook'], { env: { TRAVSR_HOME: home } })).code).toBe(0);
    const { report } = await indexAndProbe(repo, { TRAVSR_PLUGINS_OPTIONS: 'no-cache-probe.targets=@root' });
    expect(report.cacheDir).toBeNull();
    expect(report.attempts).toMatchObject([{ target: '@root', ok: false }]);
    expect(existsSync(join(home, 'cache', 'plugins', 'no-cache-probe'))).toBe(false);
  }, 240_000);

  it('empties a cache that grew past plugins.cacheMax after the session, and says so', async () => {
    register('cache-probe', pluginDir('cache-probe', true));
    const repo = newRepo();
    expect((await travsr(['init', repo.root, '--no-hook'], { env: { TRAVSR_HOME: home } })).code).toBe(0);
    const dir = expectedCacheDir('cache-probe', repo);
    // 2 MiB within the default cap (512 MiB): kept.
    await indexAndProbe(repo, { TRAVSR_PLUGINS_OPTIONS: 'cache-probe.fillKiB=2048' });
    expect(statSync(join(dir, 'fill.bin')).size).toBe(2 * 1024 * 1024);
    // The same 2 MiB past a cap of 1 MiB: emptied once the plugin has exited, the directory kept.
    const { stderr } = await indexAndProbe(repo, { TRAVSR_PLUGINS_OPTIONS: 'cache-probe.fillKiB=2048', TRAVSR_PLUGINS_CACHE_MAX: '1' });
    expect(stderr).toContain(`emptied its cache ${dir}`);
    expect(readdirSync(dir)).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // The next session starts from an empty cache.
    expect((await indexAndProbe(repo)).report.previous).toBe(0);
  }, 240_000);

  it('a repository’s own config cannot raise plugins.cacheMax above the user’s', async () => {
    register('cache-probe', pluginDir('cache-probe', true));
    const repo = newRepo();
    expect((await travsr(['init', repo.root, '--no-hook'], { env: { TRAVSR_HOME: home } })).code).toBe(0);
    writeFileSync(join(home, 'config.toml'), '[plugins]\ncacheMax = 1\n');
    writeFileSync(join(repo.root, '.travsr', 'config.toml'), '[plugins]\ncacheMax = 100000\n');
    try {
      const { stderr } = await indexAndProbe(repo, { TRAVSR_PLUGINS_OPTIONS: 'cache-probe.fillKiB=2048' });
      expect(stderr).toContain('plugins.cacheMax');
      expect(readdirSync(expectedCacheDir('cache-probe', repo))).toEqual([]);
    } finally {
      rmSync(join(home, 'config.toml'), { force: true });
    }
  }, 240_000);

  it('`travsr lang remove` deletes the plugin’s caches, every version and repository', async () => {
    register('cache-probe', pluginDir('cache-probe', true));
    const repo = newRepo();
    expect((await travsr(['init', repo.root, '--no-hook'], { env: { TRAVSR_HOME: home } })).code).toBe(0);
    await indexAndProbe(repo);
    const tree = join(home, 'cache', 'plugins', 'cache-probe');
    expect(existsSync(expectedCacheDir('cache-probe', repo))).toBe(true);
    const r = await travsr(['lang', 'remove', 'cache-probe', '--repo', repo.root], { env: { TRAVSR_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`deleted cache ${tree}`);
    expect(existsSync(tree)).toBe(false);
    // The plugin's own files (a directory outside ~/.travsr/plugins) are not Travsr's to delete.
    expect(existsSync(join(pluginRoot, 'cache-probe', 'main.js'))).toBe(true);
  }, 240_000);
});
