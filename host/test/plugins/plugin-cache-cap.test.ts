import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyCacheDir, enforceCacheCap, measureCacheDir } from '../../src/plugins/plugin-cache-cap.js';

const scratch = mkdtempSync(join(tmpdir(), 'travsr-cache-cap-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const MiB = 1024 * 1024;

/** A cache directory with `files` of `bytes` each, some in a subdirectory. */
function cacheWith(name: string, files: number, bytes: number): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'sub'), { recursive: true, mode: 0o700 });
  for (let i = 0; i < files; i++) writeFileSync(join(dir, i % 2 ? 'sub' : '.', `f${i}`), Buffer.alloc(bytes));
  return dir;
}

describe('plugin cache size cap', () => {
  it('adds up file sizes under the directory, subdirectories included', async () => {
    const dir = cacheWith('small', 4, 1000);
    expect(measureCacheDir(dir, MiB)).toEqual({ bytes: 4000, entries: 5, over: false });
  });

  it('does not follow symbolic links the plugin left: a link to a large directory counts nothing and is never entered', async () => {
    const big = cacheWith('big-outside', 3, MiB);
    const dir = cacheWith('with-link', 1, 10);
    symlinkSync(big, join(dir, 'link'));
    expect(measureCacheDir(dir, MiB)).toMatchObject({ bytes: 10, over: false });
    // Emptying removes the link, not what it points at.
    await emptyCacheDir(dir);
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(big).sort()).toEqual(['f0', 'f2', 'sub']);
  });

  it('stops counting once past the cap or past the entry bound', async () => {
    const dir = cacheWith('many', 20, 100);
    expect(measureCacheDir(dir, 250)).toMatchObject({ over: true });
    expect(measureCacheDir(dir, 250).entries).toBeLessThan(21);
    expect(measureCacheDir(dir, MiB, 5)).toMatchObject({ over: true, entries: 6 });
  });

  it('empties a directory over the cap and keeps the directory itself and its mode', async () => {
    const dir = cacheWith('over', 3, MiB);
    const r = await enforceCacheCap(dir, 2);
    expect(r).toMatchObject({ emptied: true, over: true });
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('leaves a directory within the cap alone', async () => {
    const dir = cacheWith('under', 2, MiB);
    expect(await enforceCacheCap(dir, 3)).toMatchObject({ emptied: false, bytes: 2 * MiB });
    expect(readdirSync(dir).sort()).toEqual(['f0', 'sub']);
  });
});
