import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileDigests, treeEntries, treeHash, verifyTreeHash } from '../src/tree-hash.js';

function plugin(): string {
  const dir = mkdtempSync(join(tmpdir(), 'travsr-tree-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'travsr-plugin.json'), '{"id":"x"}');
  writeFileSync(join(dir, 'dist', 'main.js'), 'console.log(1)\n');
  writeFileSync(join(dir, 'dist', 'grammar.wasm'), Buffer.from([0, 97, 115, 109]));
  return dir;
}

describe('treeHash', () => {
  it('is the same for two copies of the same tree, whatever their location', async () => {
    expect(await treeHash(plugin())).toBe(await treeHash(plugin()));
    expect(await treeHash(plugin())).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changes on an edit, an added file, a rename, a mode change and a symlink target', async () => {
    const seen = new Set<string>();
    const dir = plugin();
    seen.add(await treeHash(dir));
    writeFileSync(join(dir, 'dist', 'main.js'), 'console.log(2)\n');
    seen.add(await treeHash(dir));
    writeFileSync(join(dir, 'extra.txt'), '');
    seen.add(await treeHash(dir));
    renameSync(join(dir, 'extra.txt'), join(dir, 'extra2.txt'));
    seen.add(await treeHash(dir));
    chmodSync(join(dir, 'dist', 'main.js'), 0o755);
    seen.add(await treeHash(dir));
    symlinkSync('dist/main.js', join(dir, 'link'));
    seen.add(await treeHash(dir));
    expect(seen.size).toBe(6);
  });

  it('sees an edit that keeps the size and puts the mtime back (files are not re-read only while their stat is unchanged)', async () => {
    const dir = plugin();
    const main = join(dir, 'dist', 'main.js');
    utimesSync(main, 1_700_000_000, 1_700_000_000);
    const before = await treeHash(dir);
    expect(await treeHash(dir)).toBe(before);
    writeFileSync(main, 'console.log(9)\n'); // same length
    utimesSync(main, 1_700_000_000, 1_700_000_000);
    expect(statSync(main).mtimeMs).toBe(1_700_000_000_000);
    expect(await treeHash(dir)).not.toBe(before);
  });

  it('keeps digests in a memo that survives JSON: a saved memo answers, an edited file is read again, a removed one forgotten', async () => {
    const dir = plugin();
    const first = new FileDigests();
    const hash = await treeHash(dir, first);
    expect(first.changed).toBe(true);
    const saved = JSON.parse(JSON.stringify(first)) as Record<string, { stat: string; sha256: string }>;
    expect(Object.keys(saved).sort()).toEqual(['dist/grammar.wasm', 'dist/main.js', 'travsr-plugin.json'].map((p) => join(dir, p)));
    // Proof that a saved digest is what answers while the stat holds: a forged one is believed…
    const main = join(dir, 'dist', 'main.js');
    const forged = FileDigests.from({ ...saved, [main]: { ...saved[main]!, sha256: '0'.repeat(64) } });
    expect(await treeHash(dir, forged)).not.toBe(hash);
    expect(forged.changed).toBe(false);
    // …and a write (new ctime) makes the file be read again.
    const again = FileDigests.from(saved);
    expect(again.recorded(main, statSync(main))).toBe(saved[main]!.sha256);
    writeFileSync(main, 'console.log(1)\n'); // same content, rewritten
    expect(again.recorded(main, statSync(main))).toBeUndefined();
    expect(await treeHash(dir, again)).toBe(hash);
    expect(again.changed).toBe(true);
    renameSync(join(dir, 'dist', 'grammar.wasm'), join(dir, 'grammar.wasm'));
    await treeHash(dir, again);
    expect(Object.keys(again.toJSON())).not.toContain(join(dir, 'dist', 'grammar.wasm'));
    expect(FileDigests.from({ x: { stat: 1, sha256: 'no' }, y: null }).toJSON()).toEqual({});
  });

  it('lists entries in path order with their types', async () => {
    const dir = plugin();
    symlinkSync('main.js', join(dir, 'dist', 'alias.js'));
    const entries = await treeEntries(dir);
    expect(entries.map((e) => `${e.type} ${e.path}`)).toEqual([
      'symlink dist/alias.js',
      'file dist/grammar.wasm',
      'file dist/main.js',
      'file travsr-plugin.json',
    ]);
  });

  it('refuses special files', async () => {
    const dir = plugin();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await expect(treeHash(dir)).rejects.toMatchObject({
      code: 'TREE_UNSUPPORTED_ENTRY',
      message: expect.stringMatching(/pipe is not a regular file/),
    });
  });

  it('verifyTreeHash names the directory and says what to do on a mismatch', async () => {
    const dir = plugin();
    const recorded = await treeHash(dir);
    await expect(verifyTreeHash(dir, recorded)).resolves.toBeUndefined();
    writeFileSync(join(dir, 'dist', 'main.js'), 'process.exit(0)\n');
    await expect(verifyTreeHash(dir, recorded)).rejects.toMatchObject({
      code: 'TREE_HASH_MISMATCH',
      message: expect.stringMatching(/changed since they were installed .*reinstall the plugin/),
    });
  });
});
