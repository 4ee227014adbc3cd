import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import { describe, expect, it } from 'vitest';
import { installArtifact } from '../src/install.js';
import { packPlugin } from '../src/pack.js';
import { safeExtract } from '../src/safe-extract.js';
import { treeHash } from '../src/tree-hash.js';
import { sha256File } from '../src/verify.js';
import { tempDir, TYPE, writeTgz } from './tar-fixtures.js';

function tinyPlugin(): string {
  const dir = tempDir('travsr-tiny-');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(
    join(dir, 'travsr-plugin.json'),
    JSON.stringify({
      id: 'tiny',
      version: '1.0.0',
      languages: ['tiny'],
      extensions: ['.tiny'],
      entrypoint: { runtime: 'node', path: 'dist/main.js' },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false },
    }),
  );
  writeFileSync(join(dir, 'dist', 'main.js'), 'console.log("tiny")\n');
  return dir;
}

async function packedTiny(): Promise<{ file: string; expected: { sha256: string; size: number; treeHash: string } }> {
  const p = await packPlugin(tinyPlugin(), tempDir());
  return { file: p.file, expected: { sha256: p.sha256, size: p.size, treeHash: p.treeHash } };
}

describe('installArtifact', () => {
  it('installs, recognises an existing identical install, and repairs an edited one', async () => {
    const { file, expected } = await packedTiny();
    const dest = join(tempDir(), 'plugins', 'tiny', '1.0.0');
    expect(await installArtifact(file, dest, { ...expected, id: 'tiny', version: '1.0.0' })).toMatchObject({
      alreadyInstalled: false,
      replaced: false,
    });
    expect(await installArtifact(file, dest, expected)).toMatchObject({ alreadyInstalled: true, replaced: false });
    writeFileSync(join(dest, 'dist', 'main.js'), 'process.exit(1)\n');
    expect(await installArtifact(file, dest, expected)).toMatchObject({ alreadyInstalled: false, replaced: true });
    expect(readFileSync(join(dest, 'dist', 'main.js'), 'utf8')).toBe('console.log("tiny")\n');
    expect(readdirSync(join(dest, '..'))).toEqual(['1.0.0']);
  });

  it('installs nothing when the tree hash or the manifest is not what the registry promised', async () => {
    const { file, expected } = await packedTiny();
    const parent = join(tempDir(), 'plugins');
    const dest = join(parent, 'tiny');
    await expect(installArtifact(file, dest, { ...expected, treeHash: `sha256:${'0'.repeat(64)}` })).rejects.toMatchObject({
      code: 'ARTIFACT_TREE_MISMATCH',
    });
    await expect(installArtifact(file, dest, { ...expected, version: '2.0.0' })).rejects.toMatchObject({
      code: 'ARTIFACT_MANIFEST_MISMATCH',
      message: expect.stringMatching(/holds tiny@1.0.0, but the registry offered it as tiny@2.0.0/),
    });
    expect(readdirSync(parent)).toEqual([]);
  });

  it('leaves an existing install untouched when the new archive is malicious', async () => {
    const { file, expected } = await packedTiny();
    const parent = join(tempDir(), 'plugins');
    const dest = join(parent, 'tiny');
    await installArtifact(file, dest, expected);
    const before = await treeHash(dest);
    const evil = writeTgz(tempDir(), 'evil.tgz', [
      { path: 'package/travsr-plugin.json', data: '{}' },
      { path: 'package/dev', type: TYPE.char },
    ]);
    const { sha256, size } = await sha256File(evil);
    await expect(installArtifact(evil, dest, { sha256, size, treeHash: expected.treeHash })).rejects.toMatchObject({
      code: 'ARCHIVE_SPECIAL_FILE',
    });
    expect(await treeHash(dest)).toBe(before);
    expect(readdirSync(parent)).toEqual(['tiny']);
  });
});

describe('safeExtract on archives from other tools', () => {
  it('extracts a node-tar archive with long names and a large file within the limits', async () => {
    const src = join(tempDir(), 'package');
    const long = join(src, 'a'.repeat(120), 'b'.repeat(120));
    mkdirSync(long, { recursive: true });
    for (let i = 0; i < 300; i++) writeFileSync(join(long, `${'c'.repeat(80)}-${i}.txt`), `${i}\n`);
    writeFileSync(join(src, 'big.bin'), randomBytes(3 * 1024 * 1024));
    const file = join(tempDir(), 'other.tgz');
    await create({ gzip: true, file, cwd: join(src, '..') }, ['package']);
    const target = join(tempDir(), 'out');
    const result = await safeExtract(file, target, { maxBytes: 4 * 1024 * 1024, maxEntries: 400 });
    expect(result.bytes).toBe(3 * 1024 * 1024 + Array.from({ length: 300 }, (_, i) => `${i}\n`.length).reduce((a, b) => a + b, 0));
    expect(await treeHash(target)).toBe(await treeHash(src));
    expect(existsSync(join(target, 'a'.repeat(120), 'b'.repeat(120), `${'c'.repeat(80)}-299.txt`))).toBe(true);
  });
});
