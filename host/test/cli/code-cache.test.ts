import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFileFor, requireWithCodeCache } from '../../src/cli/code-cache.js';

// A CommonJS bundle run from V8's code cache: the cache of exactly this build is used, another
// build's never, and nothing about the cache can fail the load.

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'travsr-code-cache-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A bundle whose functions are compiled lazily (so the cache saved after a call holds them). */
function bundle(dir: string, answer: number): string {
  const file = join(dir, 'entry.cjs');
  writeFileSync(
    file,
    `const path = require('node:path');\nfunction answer() { return ${answer}; }\nexports.answer = answer;\nexports.base = path.basename(__filename);\n`,
  );
  return file;
}

describe('requireWithCodeCache', () => {
  it('runs the bundle as require would, saves the cache once, and uses it on the next load', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir, 42);
    const first = requireWithCodeCache(file, { dir: cache });
    expect((first.exports.answer as () => number)()).toBe(42);
    expect(first.exports.base).toBe('entry.cjs');
    expect(first.cacheUsed).toBe(false);
    first.saveCache();
    expect(readdirSync(cache)).toEqual([cacheFileFor(file, cache)!.slice(cache.length + 1)]);

    const second = requireWithCodeCache(file, { dir: cache });
    expect(second.cacheUsed).toBe(true);
    expect((second.exports.answer as () => number)()).toBe(42);
  });

  it("never runs another build's cache: a rebuilt bundle of the same length compiles afresh and replaces the old cache", () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir, 42);
    requireWithCodeCache(file, { dir: cache }).saveCache();
    const old = readdirSync(cache);
    bundle(dir, 43); // same length: V8's own check alone would take the old code
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = requireWithCodeCache(file, { dir: cache });
    expect(rebuilt.cacheUsed).toBe(false);
    expect((rebuilt.exports.answer as () => number)()).toBe(43);
    rebuilt.saveCache();
    const now = readdirSync(cache);
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(old);
  });

  it('keeps a cache per variant: one command of a bundle never takes the cache of another', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir, 5);
    requireWithCodeCache(file, { dir: cache, variant: 'status' }).saveCache();
    requireWithCodeCache(file, { dir: cache, variant: 'hook-run' }).saveCache();
    expect(readdirSync(cache).sort()).toEqual(
      [cacheFileFor(file, cache, 'hook-run')!, cacheFileFor(file, cache, 'status')!].map((f) => f.slice(cache.length + 1)).sort(),
    );
    expect(cacheFileFor(file, cache, 'status')).toMatch(/entry\.cjs-status-[0-9a-f]{16}-[0-9a-f]{16}\.v8$/);
  });

  it('loads without a cache when it is corrupt, cannot be written, or is turned off', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir, 7);
    // (Within one process V8 compiles a source once, whatever data is offered later: the
    // corrupt cache is in place before this source is first loaded.)
    const cacheFile = cacheFileFor(file, cache)!;
    mkdirSync(cache);
    writeFileSync(cacheFile, 'not V8 code');
    const corrupt = requireWithCodeCache(file, { dir: cache });
    expect(corrupt.cacheUsed).toBe(false);
    expect((corrupt.exports.answer as () => number)()).toBe(7);
    corrupt.saveCache(); // replaced by a good one
    expect(statSync(cacheFile).size).toBeGreaterThan(100);

    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file where the cache directory should be');
    const unwritable = requireWithCodeCache(file, { dir: join(blocked, 'v8') });
    expect(() => unwritable.saveCache()).not.toThrow();
    expect((unwritable.exports.answer as () => number)()).toBe(7);

    const off = requireWithCodeCache(file, { dir: join(dir, 'off'), enabled: false });
    off.saveCache();
    expect(off.cacheUsed).toBe(false);
    expect(() => readdirSync(join(dir, 'off'))).toThrow();
  });

  it('keeps the cache private to the user', () => {
    if (process.platform === 'win32') return;
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir, 1);
    requireWithCodeCache(file, { dir: cache }).saveCache();
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(cacheFileFor(file, cache)!).mode & 0o777).toBe(0o600);
  });
});
