import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  pluginCacheDir,
  pluginCacheRoot,
  pluginCacheTree,
  pluginVersionCacheTree,
  preparePluginCacheDir,
  repoCacheKey,
} from '../../src/paths/plugin-cache-dir.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-cache-paths-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const env = { TRAVSR_HOME: join(scratch, 'home') };

describe('plugin cache paths', () => {
  it('names a repository by 16 hex digits of the SHA-256 of its real path', () => {
    // printf /home/ann/src/app | sha256sum | cut -c1-16
    expect(repoCacheKey('/home/ann/src/app')).toBe('2e6fdb5bf6c92f7b');
    expect(repoCacheKey('/home/ann/src/app')).toBe(repoCacheKey('/home/ann/src/app'));
    expect(repoCacheKey('/home/ann/src/app')).not.toBe(repoCacheKey('/home/ann/src/app2'));
  });

  it('lays caches out as <TRAVSR_HOME>/cache/plugins/<id>/<version>/<repo key>, scoped ids one level deeper', () => {
    expect(pluginCacheRoot(env)).toBe(join(scratch, 'home', 'cache', 'plugins'));
    expect(pluginCacheTree('acme/lang-lua', env)).toBe(join(scratch, 'home', 'cache', 'plugins', 'acme', 'lang-lua'));
    expect(pluginVersionCacheTree('lang-python', '0.3.0', env)).toBe(join(scratch, 'home', 'cache', 'plugins', 'lang-python', '0.3.0'));
    expect(pluginCacheDir({ id: 'lang-python', version: '0.3.0' }, '/r', env)).toBe(
      join(scratch, 'home', 'cache', 'plugins', 'lang-python', '0.3.0', repoCacheKey('/r')),
    );
    // An upgrade gets a directory of its own.
    expect(pluginCacheDir({ id: 'lang-python', version: '0.4.0' }, '/r', env)).not.toBe(
      pluginCacheDir({ id: 'lang-python', version: '0.3.0' }, '/r', env),
    );
  });

  it('creates the directory mode 0700 (and cache/ 0700), the same one for every spelling of the repository', async () => {
    const repo = join(scratch, 'repo');
    mkdirSync(repo);
    symlinkSync(repo, join(scratch, 'repo-link'));
    const plugin = { id: 'lang-python', version: '0.3.0' };
    const dir = await preparePluginCacheDir(plugin, repo, env);
    expect(dir).toBe(pluginCacheDir(plugin, repo, env));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(scratch, 'home', 'cache')).mode & 0o777).toBe(0o700);
    writeFileSync(join(dir, 'kept'), 'x');
    expect(await preparePluginCacheDir(plugin, join(scratch, 'repo-link'), env)).toBe(dir);
    expect(statSync(join(dir, 'kept')).isFile()).toBe(true);
  });

  it('replaces a symbolic link planted where the directory goes, so the directory bound writable is always its own', async () => {
    const repo = join(scratch, 'repo2');
    mkdirSync(repo);
    const elsewhere = join(scratch, 'elsewhere');
    mkdirSync(elsewhere);
    const plugin = { id: 'lang-go', version: '1.0.0' };
    const path = pluginCacheDir(plugin, repo, env);
    mkdirSync(join(path, '..'), { recursive: true });
    symlinkSync(elsewhere, path);
    const dir = await preparePluginCacheDir(plugin, repo, env);
    expect(dir).toBe(path);
    expect(lstatSync(dir).isDirectory()).toBe(true);
    expect(lstatSync(elsewhere).isDirectory()).toBe(true);
  });
});
