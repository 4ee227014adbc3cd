// An artifact's SBOM through publish, the signed version document and the client: published
// beside the artifact with its hash signed, refused when it was changed after signing.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryClient } from '../src/client.js';
import { parseVersionDocument } from '../src/documents.js';
import { generateSigningKey, TrustedKeys, trustedKeyOf } from '../src/keys.js';
import { packPlugin } from '../src/pack.js';
import { publishArtifact } from '../src/publish.js';
import { verifyRegistryDirectory } from '../src/registry-directory.js';
import { parseSha256Sums } from '../src/sha256-sums.js';
import { tempDir } from './tar-fixtures.js';

const key = generateSigningKey();
const trusted = new TrustedKeys([trustedKeyOf(key)]);
const clients: RegistryClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function plugin(id: string, version: string): string {
  const dir = tempDir('travsr-sbom-plugin-');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(
    join(dir, 'travsr-plugin.json'),
    JSON.stringify({
      id,
      version,
      languages: [id],
      extensions: [`.${id}`],
      entrypoint: { runtime: 'node', path: 'dist/main.js' },
      protocolVersions: ['1'],
      constraints: { network: false, ipc: 'none', hostApi: false },
    }),
  );
  writeFileSync(join(dir, 'dist', 'main.js'), 'console.log(1)\n');
  return dir;
}

function client(registry: string): RegistryClient {
  const c = new RegistryClient({ url: registry, trustedKeys: trusted, retries: 0 });
  clients.push(c);
  return c;
}

describe('publishing an artifact with its SBOM', () => {
  it('copies the SBOM packed beside the artifact into the registry, with its hash in the signed version document', async () => {
    const packed = await packPlugin(plugin('tiny', '1.0.0'), tempDir());
    const registry = tempDir('travsr-sbom-registry-');
    const result = await publishArtifact(registry, packed.file, key);
    expect(result.artifact.sbom).toEqual({
      file: 'artifacts/tiny-1.0.0-any.cdx.json',
      sha256: packed.sbom.sha256,
      size: readFileSync(packed.sbom.file).length,
      specVersion: '1.6',
      components: 0,
    });
    const doc = parseVersionDocument(readFileSync(join(registry, 'plugins/tiny/1.0.0.json')));
    expect(doc.artifacts[0]?.sbom?.sha256).toBe(packed.sbom.sha256);
    expect(readFileSync(join(registry, 'artifacts/tiny-1.0.0-any.cdx.json'))).toEqual(readFileSync(packed.sbom.file));
    const sums = parseSha256Sums(readFileSync(join(registry, 'SHA256SUMS'), 'utf8'));
    expect(sums.get('artifacts/tiny-1.0.0-any.cdx.json')).toBe(packed.sbom.sha256);

    const { artifact } = await client(registry).resolve('tiny', '^1');
    const fetched = await client(registry).sbom(artifact, { name: 'tiny', version: '1.0.0' });
    expect(fetched?.sha256).toBe(packed.sbom.sha256);
    expect(fetched?.bom.metadata.component).toMatchObject({ name: 'tiny', version: '1.0.0' });
  });

  it('refuses an SBOM altered after signing: the client, and a check of the registry directory', async () => {
    const packed = await packPlugin(plugin('tiny', '1.0.0'), tempDir());
    const registry = tempDir('travsr-sbom-registry-');
    await publishArtifact(registry, packed.file, key);
    const file = join(registry, 'artifacts/tiny-1.0.0-any.cdx.json');
    const bom = JSON.parse(readFileSync(file, 'utf8')) as { components: unknown[] };
    bom.components.push({ type: 'library', name: 'left-pad', version: '1.3.0' });
    writeFileSync(file, `${JSON.stringify(bom, null, 2)}\n`);

    const { artifact } = await client(registry).resolve('tiny', '^1');
    await expect(client(registry).sbom(artifact, { name: 'tiny', version: '1.0.0' })).rejects.toMatchObject({
      code: 'ARTIFACT_SBOM_MISMATCH',
      message: expect.stringContaining('changed after signing'),
    });
    await expect(verifyRegistryDirectory(registry, trusted)).rejects.toMatchObject({
      code: 'REGISTRY_TAMPERED',
      message: expect.stringContaining('tiny-1.0.0-any.cdx.json'),
    });
  });

  it('refuses an SBOM that describes another plugin, or is not CycloneDX, and changes nothing', async () => {
    const packed = await packPlugin(plugin('tiny', '1.0.0'), tempDir());
    const other = await packPlugin(plugin('other', '2.0.0'), tempDir());
    const registry = tempDir('travsr-sbom-registry-');
    await expect(publishArtifact(registry, packed.file, key, { sbom: other.sbom.file })).rejects.toMatchObject({
      code: 'SBOM_INVALID',
      message: expect.stringContaining('describes other@2.0.0, not tiny@1.0.0'),
    });
    writeFileSync(packed.sbom.file, '{"bomFormat":"SPDX"}');
    await expect(publishArtifact(registry, packed.file, key)).rejects.toMatchObject({
      code: 'SBOM_INVALID',
      message: expect.stringContaining('bomFormat is "SPDX"'),
    });
    await expect(publishArtifact(registry, packed.file, key, { sbom: join(registry, 'missing.cdx.json') })).rejects.toMatchObject({
      code: 'SBOM_INVALID',
    });
    expect(() => readFileSync(join(registry, 'SHA256SUMS'))).toThrow();
  });

  it('publishes without an SBOM when there is none beside the artifact, or when told not to', async () => {
    const packed = await packPlugin(plugin('tiny', '1.0.0'), tempDir());
    const registry = tempDir('travsr-sbom-registry-');
    const result = await publishArtifact(registry, packed.file, key, { sbom: false });
    expect(result.artifact.sbom).toBeUndefined();
    const { artifact } = await client(registry).resolve('tiny', '^1');
    expect(await client(registry).sbom(artifact, { name: 'tiny', version: '1.0.0' })).toBeUndefined();
  });

  it('rejects a version document whose SBOM record points elsewhere in the registry', () => {
    const doc = {
      formatVersion: 1,
      id: 'tiny',
      version: '1.0.0',
      protocolVersions: ['1'],
      languages: ['tiny'],
      tier: 'standard',
      manifest: {
        id: 'tiny',
        version: '1.0.0',
        languages: ['tiny'],
        extensions: ['.tiny'],
        entrypoint: { runtime: 'node', path: 'dist/main.js' },
        protocolVersions: ['1'],
        constraints: { network: false, ipc: 'none', hostApi: false },
      },
      artifacts: [
        {
          platform: 'any',
          file: 'artifacts/tiny-1.0.0-any.tgz',
          sha256: 'a'.repeat(64),
          size: 1,
          treeHash: `sha256:${'b'.repeat(64)}`,
          sbom: { file: 'index.json', sha256: 'c'.repeat(64), size: 1, specVersion: '1.6', components: 0 },
        },
      ],
      created: '2026-01-01T00:00:00Z',
    };
    expect(() => parseVersionDocument(JSON.stringify(doc))).toThrow(
      /\/artifacts\/0\/sbom\/file must be "artifacts\/tiny-1.0.0-any.cdx.json"/,
    );
  });
});
