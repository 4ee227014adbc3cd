import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
