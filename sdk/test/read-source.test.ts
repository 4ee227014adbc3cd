import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSourceFile } from '../src/read-source.js';

const root = mkdtempSync(join(tmpdir(), 'travsr-read-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.runIf(sep === '/')('readSourceFile on POSIX', () => {
  it('reads a file whose name holds a backslash, not the file the backslash would name as a separator', async () => {
    mkdirSync(join(root, 'back'));
    writeFileSync(join(root, 'back\\slash.ts'), 'the backslash file');
    writeFileSync(join(root, 'back', 'slash.ts'), 'the nested file');
    const file = await readSourceFile(root, { path: 'back\\slash.ts', language: 'typescript' }, 1024);
    expect(file.text).toBe('the backslash file');
    expect(file.path).toBe('back\\slash.ts');
  });

  it('still refuses paths that leave the root', async () => {
    await expect(readSourceFile(root, { path: '../outside.ts', language: 'typescript' }, 1024)).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
  });
});

describe.runIf(sep === '/')('readSourceFile: what it reads and what it refuses', () => {
  it('reads a file whole, bytes and text alike (empty, small, and larger than any first guess)', async () => {
    const big = 'x = 1\n'.repeat(200_000);
    writeFileSync(join(root, 'empty.py'), '');
    writeFileSync(join(root, 'big.py'), big);
    writeFileSync(join(root, 'utf8.py'), 'name = "naïve ünïcode"\n');
    expect((await readSourceFile(root, { path: 'empty.py', language: 'python' }, 1 << 20)).text).toBe('');
    const read = await readSourceFile(root, { path: 'big.py', language: 'python' }, 10 << 20);
    expect(read.text).toBe(big);
    expect(read.bytes.byteLength).toBe(big.length);
    expect(read.absolutePath).toBe(join(root, 'big.py'));
    expect((await readSourceFile(root, { path: 'utf8.py', language: 'python' }, 1024)).text).toBe('name = "naïve ünïcode"\n');
  });

  it('refuses a file over the limit before reading it, and a missing one, with their codes', async () => {
    writeFileSync(join(root, 'over.py'), 'y = 2\n'.repeat(100));
    await expect(readSourceFile(root, { path: 'over.py', language: 'python' }, 599)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    await expect(readSourceFile(root, { path: 'absent.py', language: 'python' }, 1024)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      message: expect.stringContaining('no such file'),
    });
  });

  it('refuses a directory and a FIFO without waiting for a writer', async () => {
    mkdirSync(join(root, 'dir.py'));
    await expect(readSourceFile(root, { path: 'dir.py', language: 'python' }, 1024)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
    execFileSync('mkfifo', [join(root, 'pipe.py')]);
    await expect(readSourceFile(root, { path: 'pipe.py', language: 'python' }, 1024)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      message: expect.stringContaining('not a regular file'),
    });
  });

  it('refuses a link that leads outside the root, and reads one that stays inside', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'travsr-read-source-outside-'));
    try {
      writeFileSync(join(outside, 'secret.py'), 'token = "s3cret"\n');
      symlinkSync(join(outside, 'secret.py'), join(root, 'leak.py'));
      await expect(readSourceFile(root, { path: 'leak.py', language: 'python' }, 1024)).rejects.toMatchObject({
        code: 'PATH_OUTSIDE_ROOT',
      });
      writeFileSync(join(root, 'target.py'), 'ok = True\n');
      symlinkSync('target.py', join(root, 'alias.py'));
      expect((await readSourceFile(root, { path: 'alias.py', language: 'python' }, 1024)).text).toBe('ok = True\n');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
