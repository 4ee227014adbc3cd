import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFile, hashFiles } from '../../../src/indexer/walk/index.js';
import { makeTree } from './temp-tree.js';

const sha256sum = (path: string) => execFileSync('sha256sum', [path], { encoding: 'utf8' }).split(' ')[0];
const wcLines = (path: string) => Number(execFileSync('wc', ['-l', path], { encoding: 'utf8' }).trim().split(/\s+/)[0]);

/** Deterministic pseudo-random bytes with newlines, larger than one read chunk. */
function bigContent(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = 12345;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x % 61 === 0 ? 10 : 32 + (x % 90);
  }
  return out;
}

describe('hashFile', () => {
  it('matches sha256sum and counts lines, across read-chunk boundaries', async () => {
    const root = makeTree({
      'empty.txt': '',
      'one.txt': 'a\nb\nc\n',
      'unterminated.txt': 'a\nb\nc',
      'newline.txt': '\n',
      'big.bin': bigContent(3 * 256 * 1024 + 17),
    });
    for (const name of ['empty.txt', 'one.txt', 'unterminated.txt', 'newline.txt', 'big.bin']) {
      const path = join(root, name);
      const h = await hashFile(path);
      expect(h.sha256, name).toBe(sha256sum(path));
      expect(h.size, name).toBe(statSync(path).size);
    }
    expect(await hashFile(join(root, 'empty.txt'))).toEqual({
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 0,
      lines: 0,
    });
    expect((await hashFile(join(root, 'one.txt'))).lines).toBe(3);
    expect((await hashFile(join(root, 'unterminated.txt'))).lines).toBe(3);
    expect((await hashFile(join(root, 'newline.txt'))).lines).toBe(1);
    const big = join(root, 'big.bin');
    const lastIsNewline = bigContent(3 * 256 * 1024 + 17).at(-1) === 10;
    expect((await hashFile(big)).lines).toBe(wcLines(big) + (lastIsNewline ? 0 : 1));
  });

  it('a missing file or a FIFO is FILE_HASH_FAILED, and a FIFO does not hang', async () => {
    const root = makeTree({});
    await expect(hashFile(join(root, 'gone.lua'))).rejects.toMatchObject({
      code: 'FILE_HASH_FAILED',
      cause: expect.objectContaining({ code: 'ENOENT' }),
      message: expect.stringMatching(/^Cannot hash .*gone\.lua: ENOENT/),
    });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await expect(hashFile(join(root, 'pipe'))).rejects.toMatchObject({
      code: 'FILE_HASH_FAILED',
      message: expect.stringMatching(/not a regular file/),
    });
  });
});

describe('hashFiles', () => {
  it('keeps the input order and reports failures per file', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`d/f${i}.lua`, `print(${i})\n`.repeat(i)]));
    const root = makeTree(files);
    const paths = [...Object.keys(files), 'missing.lua', '../escape.lua', '/etc/passwd'];
    const results = await hashFiles(root, paths, { concurrency: 3 });
    expect(results.map((r) => r.path)).toEqual(paths);
    for (const r of results.slice(0, 40)) {
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.sha256).toBe(sha256sum(join(root, r.path)));
    }
    expect(results.slice(0, 40).map((r) => (r.ok ? r.lines : -1))).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(results.slice(40).map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([
      'FILE_HASH_FAILED',
      'WALK_PATH_OUTSIDE_ROOT',
      'WALK_PATH_OUTSIDE_ROOT',
    ]);
  });

  it('sees the content at the time of hashing', async () => {
    const root = makeTree({ 'a.lua': 'one' });
    const before = await hashFiles(root, ['a.lua']);
    writeFileSync(join(root, 'a.lua'), 'two');
    const after = await hashFiles(root, ['a.lua']);
    expect(before[0]).not.toEqual(after[0]);
  });

  it('an empty list is an empty result; a bad concurrency is refused', async () => {
    expect(await hashFiles('/nonexistent', [])).toEqual([]);
    await expect(hashFiles('.', ['a'], { concurrency: 0 })).rejects.toMatchObject({ code: 'WALK_INVALID_OPTION' });
  });
});
