import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRegistryIndex, parseVersionDocument } from '../src/documents.js';
import { installArtifact } from '../src/install.js';
import { generateSigningKey, TrustedKeys, trustedKeyOf, type SigningKey } from '../src/keys.js';
import { currentPlatform, selectArtifact } from '../src/layout.js';
import { packPlugin, type PackResult } from '../src/pack.js';
import { publishArtifact, signRegistry } from '../src/publish.js';
import { verifyRegistryDirectory } from '../src/registry-directory.js';
import { treeHash } from '../src/tree-hash.js';
import { verifyFileHash, verifyListedBytes, verifyRegistryDocument } from '../src/verify.js';
import { tempDir, writeTgz } from './tar-fixtures.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');

/** Snapshot of every file in a directory, to prove that a refused operation changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path.slice(dir.length + 1)] = readFileSync(path).toString('base64');
    }
  }
  return out;
}

function tinyPlugin(version: string, body = 'console.log("tiny")\n', description = `tiny ${version}`): string {
  const dir = tempDir('travsr-tiny-');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(
    join(dir, 'travsr-plugin.json'),
    JSON.stringify({
      id: 'tiny',
      version,
      description,
      languages: ['tiny'],
      extensions: ['.tiny'],
      entrypoint: { runtime: 'node', path: 'dist/main.js' },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false },
    }),
  );
  writeFileSync(join(dir, 'dist', 'main.js'), body);
  return dir;
}

/** What a client does with a registry directory: verify, then follow the documents to the artifact. */
function clientRead(registry: string, trusted: TrustedKeys, id: string) {
  const sums = verifyRegistryDocument(
    readFileSync(join(registry, 'SHA256SUMS'), 'utf8'),
    readFileSync(join(registry, 'SHA256SUMS.sig'), 'utf8'),
    trusted,
  );
  const indexBytes = readFileSync(join(registry, 'index.json'));
  verifyListedBytes(sums, 'index.json', indexBytes);
  const entry = parseRegistryIndex(indexBytes).plugins[id];
  if (!entry) throw new Error(`${id} not in index`);
  const docPath = `plugins/${id}/${entry.latest}.json`;
  const docBytes = readFileSync(join(registry, docPath));
  verifyListedBytes(sums, docPath, docBytes);
  const doc = parseVersionDocument(docBytes, docPath, { id, version: entry.latest });
  const artifact = selectArtifact(doc, currentPlatform() ?? 'any');
  if (!artifact) throw new Error('no artifact');
  return { sums, entry, doc, artifact };
}

describe('pack → publish → verify → install (example-lua)', () => {
  let key: SigningKey;
  let trusted: TrustedKeys;
  let registry: string;
  let packed: PackResult;

  beforeAll(async () => {
    key = generateSigningKey();
    trusted = new TrustedKeys([trustedKeyOf(key)]);
    registry = join(tempDir(), 'registry');
    packed = await packPlugin(EXAMPLE_LUA, tempDir());
  });

  it('publishes into a new registry with the documented layout', async () => {
    const result = await publishArtifact(registry, packed.file, key, { now: new Date('2026-03-01T12:00:00Z') });
    expect(result).toMatchObject({ id: 'example-lua', version: '0.1.0', changed: true, versionDocument: 'plugins/example-lua/0.1.0.json' });
    expect(readdirSync(registry).sort()).toEqual(['SHA256SUMS', 'SHA256SUMS.sig', 'artifacts', 'index.json', 'plugins']);
    expect(readFileSync(join(registry, 'artifacts', 'example-lua-0.1.0-any.tgz')).equals(readFileSync(packed.file))).toBe(true);
    expect(JSON.parse(readFileSync(join(registry, 'index.json'), 'utf8'))).toEqual({
      formatVersion: 1,
      plugins: { 'example-lua': { latest: '0.1.0', versions: ['0.1.0'], languages: ['lua'], description: packed.manifest.description } },
    });
    const doc = JSON.parse(readFileSync(join(registry, 'plugins', 'example-lua', '0.1.0.json'), 'utf8'));
    expect(doc).toMatchObject({
      formatVersion: 1,
      id: 'example-lua',
      version: '0.1.0',
      protocolVersions: ['1'],
      languages: ['lua'],
      tier: 'standard',
      created: '2026-03-01T12:00:00.000Z',
      artifacts: [
        {
          platform: 'any',
          file: 'artifacts/example-lua-0.1.0-any.tgz',
          sha256: packed.sha256,
          size: packed.size,
          treeHash: packed.treeHash,
          sbom: { file: 'artifacts/example-lua-0.1.0-any.cdx.json', sha256: packed.sbom.sha256, specVersion: '1.6' },
        },
      ],
    });
    // The artifact, its SBOM, the version document and the index.
    expect(readFileSync(join(registry, 'SHA256SUMS'), 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('verifies and installs with the tree hash of the source directory', async () => {
    const { artifact, doc } = clientRead(registry, trusted, 'example-lua');
    const tgz = join(registry, artifact.file);
    await verifyFileHash(tgz, artifact.sha256, artifact.size);
    const dest = join(tempDir(), 'plugins', 'example-lua', '0.1.0');
    const installed = await installArtifact(tgz, dest, { ...artifact, id: doc.id, version: doc.version });
    expect(installed).toMatchObject({ alreadyInstalled: false, replaced: false, treeHash: packed.treeHash });
    expect(await treeHash(dest)).toBe(packed.treeHash);

    const source = join(tempDir(), 'source');
    cpSync(EXAMPLE_LUA, source, {
      recursive: true,
      filter: (src) =>
        !/[/\\](node_modules|\.git)$/.test(src) && ![join(EXAMPLE_LUA, 'test'), join(EXAMPLE_LUA, 'snapshots')].includes(src),
    });
    expect(await treeHash(dest)).toBe(await treeHash(source));
    expect(readdirSync(join(dest, '..'))).toEqual(['0.1.0']); // no temporary directories left
  });

  it('publishing the same artifact again changes nothing', async () => {
    const before = snapshot(registry);
    const again = await publishArtifact(registry, packed.file, key);
    expect(again.changed).toBe(false);
    expect(snapshot(registry)).toEqual(before);
  });

  it('a tampered artifact byte is refused by the client and by the next publish', async () => {
    const copy = join(tempDir(), 'registry');
    cpSync(registry, copy, { recursive: true });
    const { artifact } = clientRead(copy, trusted, 'example-lua');
    const tgz = join(copy, artifact.file);
    const bytes = readFileSync(tgz);
    bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
    writeFileSync(tgz, bytes);

    await expect(verifyFileHash(tgz, artifact.sha256, artifact.size)).rejects.toMatchObject({ code: 'ARTIFACT_HASH_MISMATCH' });
    const dest = join(tempDir(), 'example-lua');
    await expect(installArtifact(tgz, dest, artifact)).rejects.toMatchObject({ code: 'ARTIFACT_HASH_MISMATCH' });
    expect(existsSync(dest)).toBe(false);

    const before = snapshot(copy);
    await expect(publishArtifact(copy, (await packPlugin(tinyPlugin('1.0.0'), tempDir())).file, key)).rejects.toMatchObject({
      code: 'REGISTRY_TAMPERED',
      message: expect.stringMatching(/artifacts\/example-lua-0.1.0-any.tgz has SHA-256 [0-9a-f]+, not the signed/),
    });
    expect(snapshot(copy)).toEqual(before);
  });

  it('an edited SHA256SUMS fails its signature', () => {
    const copy = join(tempDir(), 'registry');
    cpSync(registry, copy, { recursive: true });
    const sums = readFileSync(join(copy, 'SHA256SUMS'), 'utf8');
    writeFileSync(join(copy, 'SHA256SUMS'), sums.replace(/^[0-9a-f]{64}/, 'f'.repeat(64)));
    expect(() => clientRead(copy, trusted, 'example-lua')).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
  });

  it('a registry re-signed by an unknown key is refused', () => {
    const copy = join(tempDir(), 'registry');
    cpSync(registry, copy, { recursive: true });
    const attacker = generateSigningKey();
    return signRegistry(copy, attacker, { trustedKeys: new TrustedKeys([trustedKeyOf(key)]) }).then(() => {
      expect(() => clientRead(copy, trusted, 'example-lua')).toThrow(expect.objectContaining({ code: 'KEY_UNKNOWN' }));
    });
  });
});

describe('publishArtifact', () => {
  it('refuses to change the bytes of a published version, and changes nothing', async () => {
    const key = generateSigningKey();
    const registry = join(tempDir(), 'registry');
    await publishArtifact(registry, (await packPlugin(tinyPlugin('1.0.0'), tempDir())).file, key);
    const before = snapshot(registry);
    const changed = await packPlugin(tinyPlugin('1.0.0', 'console.log("evil")\n'), tempDir());
    await expect(publishArtifact(registry, changed.file, key)).rejects.toMatchObject({
      code: 'REGISTRY_VERSION_EXISTS',
      message: expect.stringMatching(/tiny@1.0.0 is already published for any with different bytes.*bump the version/),
    });
    const otherManifest = await packPlugin(tinyPlugin('1.0.0', 'console.log("tiny")\n', 'different'), tempDir());
    await expect(publishArtifact(registry, otherManifest.file, key, { platform: 'linux-x64' })).rejects.toMatchObject({
      code: 'REGISTRY_VERSION_EXISTS',
      message: expect.stringMatching(/with a different travsr-plugin.json/),
    });
    expect(snapshot(registry)).toEqual(before);
  });

  it('adds versions and platforms, keeping the index sorted with the latest release', async () => {
    const key = generateSigningKey();
    const trusted = new TrustedKeys([trustedKeyOf(key)]);
    const registry = join(tempDir(), 'registry');
    for (const v of ['1.0.0', '1.10.0', '1.2.0', '2.0.0-rc.1'])
      await publishArtifact(registry, (await packPlugin(tinyPlugin(v), tempDir())).file, key);
    const linux = await packPlugin(tinyPlugin('1.10.0'), tempDir(), { platform: 'linux-x64' });
    expect(linux.file).toMatch(/tiny-1\.10\.0-linux-x64\.tgz$/);
    await publishArtifact(registry, linux.file, key);

    const { index } = await verifyRegistryDirectory(registry, trusted);
    expect(index.plugins.tiny).toEqual({
      latest: '1.10.0',
      versions: ['1.0.0', '1.2.0', '1.10.0', '2.0.0-rc.1'],
      languages: ['tiny'],
      description: 'tiny 1.10.0',
    });
    const doc = parseVersionDocument(readFileSync(join(registry, 'plugins', 'tiny', '1.10.0.json')));
    expect(doc.artifacts.map((a) => a.file)).toEqual(['artifacts/tiny-1.10.0-any.tgz', 'artifacts/tiny-1.10.0-linux-x64.tgz']);
  });

  it('refuses a malicious artifact and writes nothing into the registry', async () => {
    const key = generateSigningKey();
    const registry = join(tempDir(), 'registry');
    const evil = writeTgz(tempDir(), 'evil-1.0.0-any.tgz', [
      { path: 'package/travsr-plugin.json', data: '{}' },
      { path: 'package/../../evil', data: 'x' },
    ]);
    await expect(publishArtifact(registry, evil, key)).rejects.toMatchObject({ code: 'ARCHIVE_PATH_ESCAPE' });
    expect(readdirSync(registry)).toEqual([]);
  });

  it('refuses a registry signed by another key unless that key is trusted (rotation)', async () => {
    const oldKey = generateSigningKey();
    const newKey = generateSigningKey();
    const registry = join(tempDir(), 'registry');
    await publishArtifact(registry, (await packPlugin(tinyPlugin('1.0.0'), tempDir())).file, oldKey);
    const next = (await packPlugin(tinyPlugin('1.1.0'), tempDir())).file;
    await expect(publishArtifact(registry, next, newKey)).rejects.toMatchObject({
      code: 'KEY_UNKNOWN',
      message: expect.stringMatching(/to rotate the registry key/),
    });

    const rotatedAt = new Date('2026-04-01T00:00:00Z');
    await signRegistry(registry, newKey, { trustedKeys: new TrustedKeys([trustedKeyOf(oldKey), trustedKeyOf(newKey)]), now: rotatedAt });
    await publishArtifact(registry, next, newKey);

    // A client that still trusts only the old key is told about the unknown key…
    expect(() => clientRead(registry, new TrustedKeys([trustedKeyOf(oldKey)]), 'tiny')).toThrow(
      expect.objectContaining({ code: 'KEY_UNKNOWN' }),
    );
    // …and one that retired the old key and trusts the new one reads the new version.
    const rotated = new TrustedKeys([{ ...trustedKeyOf(oldKey), notAfter: rotatedAt.toISOString() }, trustedKeyOf(newKey)]);
    expect(clientRead(registry, rotated, 'tiny').doc.version).toBe('1.1.0');
  });

  it('refuses files the signature does not cover', async () => {
    const key = generateSigningKey();
    const registry = join(tempDir(), 'registry');
    await publishArtifact(registry, (await packPlugin(tinyPlugin('1.0.0'), tempDir())).file, key);
    writeFileSync(join(registry, 'artifacts', 'planted.tgz'), 'x');
    await expect(publishArtifact(registry, (await packPlugin(tinyPlugin('1.1.0'), tempDir())).file, key)).rejects.toMatchObject({
      code: 'REGISTRY_TAMPERED',
      message: expect.stringMatching(/artifacts\/planted.tgz is not listed/),
    });
  });

  it('refuses to run while another publish holds the lock', async () => {
    const key = generateSigningKey();
    const registry = join(tempDir(), 'registry');
    mkdirSync(registry);
    writeFileSync(join(registry, '.publish.lock'), '1\n');
    await expect(publishArtifact(registry, (await packPlugin(tinyPlugin('1.0.0'), tempDir())).file, key)).rejects.toMatchObject({
      code: 'REGISTRY_BUSY',
    });
  });
});
