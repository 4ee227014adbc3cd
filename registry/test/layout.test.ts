import { describe, expect, it } from 'vitest';
import { parseRegistryIndex, parseVersionDocument, serializeDocument } from '../src/documents.js';
import {
  artifactPath,
  assertPluginId,
  platformOfArtifactFile,
  sbomPath,
  selectArtifact,
  versionDocumentPath,
  type VersionDocument,
} from '../src/layout.js';

const SHA = 'a'.repeat(64);

function doc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const manifest = {
    id: 'acme/lua',
    version: '1.0.0',
    languages: ['lua'],
    extensions: ['.lua'],
    entrypoint: { runtime: 'node', path: 'dist/main.js' },
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false },
  };
  return {
    formatVersion: 1,
    id: 'acme/lua',
    version: '1.0.0',
    protocolVersions: ['1'],
    languages: ['lua'],
    tier: 'standard',
    manifest,
    artifacts: [{ platform: 'any', file: 'artifacts/acme~lua-1.0.0-any.tgz', sha256: SHA, size: 10, treeHash: `sha256:${SHA}` }],
    created: '2026-03-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('layout paths', () => {
  it('places documents and artifacts, writing a scope as ~', () => {
    expect(versionDocumentPath('example-lua', '0.1.0')).toBe('plugins/example-lua/0.1.0.json');
    expect(versionDocumentPath('acme/lua', '1.0.0-rc.1')).toBe('plugins/acme~lua/1.0.0-rc.1.json');
    expect(artifactPath('example-lua', '0.1.0', 'linux-x64')).toBe('artifacts/example-lua-0.1.0-linux-x64.tgz');
  });

  it("puts an artifact's SBOM beside it, and reads the platform back from an artifact's file name", () => {
    expect(sbomPath('acme/lua', '1.0.0', 'linux-x64')).toBe('artifacts/acme~lua-1.0.0-linux-x64.cdx.json');
    expect(platformOfArtifactFile('/out/lang-go-0.1.0-linux-arm64.tgz')).toBe('linux-arm64');
    expect(platformOfArtifactFile('lang-go-0.1.0-any.tgz')).toBe('any');
    expect(platformOfArtifactFile('C:\\out\\lang-go-0.1.0-win32-x64.tgz')).toBe('win32-x64');
    expect(platformOfArtifactFile('handmade.tgz')).toBe('any');
  });

  it('refuses ids, versions and platforms that could escape the layout', () => {
    for (const id of ['..', '../evil', 'a/../../b', '/abs', 'a/b/c', 'A', '.hidden', 'a\\b', '']) {
      expect(() => versionDocumentPath(id, '1.0.0'), id).toThrow(expect.objectContaining({ code: 'REGISTRY_ID_INVALID' }));
    }
    for (const version of ['../1.0.0', '1.0.0/../../x', '1.0', '1.0.0\n']) {
      expect(() => versionDocumentPath('x', version), version).toThrow(expect.objectContaining({ code: 'VERSION_INVALID' }));
    }
    expect(() => artifactPath('x', '1.0.0', '../any')).toThrow(expect.objectContaining({ code: 'REGISTRY_PLATFORM_INVALID' }));
    expect(assertPluginId('acme/lua')).toBe('acme/lua');
  });
});

describe('version documents', () => {
  it('parse and serialize round trip', () => {
    const parsed = parseVersionDocument(JSON.stringify(doc()), 'plugins/acme~lua/1.0.0.json', { id: 'acme/lua', version: '1.0.0' });
    expect(parsed.artifacts[0]?.file).toBe('artifacts/acme~lua-1.0.0-any.tgz');
    expect(parseVersionDocument(serializeDocument(parsed))).toEqual(parsed);
  });

  it('refuse an artifact file pointing anywhere but its layout place', () => {
    for (const file of ['../../../etc/passwd', 'artifacts/other-1.0.0-any.tgz', '/artifacts/acme~lua-1.0.0-any.tgz']) {
      const bad = doc({ artifacts: [{ platform: 'any', file, sha256: SHA, size: 1, treeHash: `sha256:${SHA}` }] });
      expect(() => parseVersionDocument(bad, 'doc')).toThrow(
        expect.objectContaining({
          code: 'REGISTRY_DOCUMENT_INVALID',
          message: expect.stringMatching(/\/artifacts\/0\/file must be "artifacts\/acme~lua-1.0.0-any.tgz"/),
        }),
      );
    }
  });

  it('refuse documents that disagree with their manifest, their path or the format', () => {
    const invalid: [Record<string, unknown>, RegExp][] = [
      [doc({ tier: 'elevated' }), /\/tier must be "standard"/],
      [doc({ languages: ['python'] }), /\/languages must equal/],
      [doc({ version: '2.0.0' }), /\/manifest is for acme\/lua@1.0.0, not acme\/lua@2.0.0/],
      [doc({ formatVersion: 2 }), /reads format 1/],
      [doc({ created: 'yesterday' }), /\/created must be an ISO 8601 UTC time/],
      [doc({ artifacts: [] }), /\/artifacts must be a non-empty array/],
      [doc({ manifest: { id: 'acme/lua' } }), /\/manifest is not a valid travsr-plugin.json/],
    ];
    for (const [value, message] of invalid) {
      expect(() => parseVersionDocument(value, 'doc')).toThrow(
        expect.objectContaining({ code: 'REGISTRY_DOCUMENT_INVALID', message: expect.stringMatching(message) }),
      );
    }
    expect(() => parseVersionDocument(doc(), 'doc', { id: 'acme/lua', version: '1.0.1' })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/fetched as acme\/lua@1.0.1/) }),
    );
    expect(() => parseVersionDocument('{', 'doc')).toThrow(expect.objectContaining({ message: expect.stringMatching(/is not JSON/) }));
  });

  it('selectArtifact prefers the platform build, then any', () => {
    const artifacts = [
      { platform: 'any', file: 'a', sha256: SHA, size: 1, treeHash: '' },
      { platform: 'linux-x64', file: 'b', sha256: SHA, size: 1, treeHash: '' },
    ] as VersionDocument['artifacts'];
    expect(selectArtifact({ artifacts }, 'linux-x64')?.file).toBe('b');
    expect(selectArtifact({ artifacts }, 'darwin-arm64')?.file).toBe('a');
    expect(selectArtifact({ artifacts: artifacts.slice(1) }, 'darwin-arm64')).toBeUndefined();
  });
});

describe('index.json', () => {
  it('validates versions, latest and ids', () => {
    const good = {
      formatVersion: 1,
      plugins: { 'acme/lua': { latest: '1.2.0', versions: ['1.0.0', '1.2.0'], languages: ['lua'], description: '' } },
    };
    expect(parseRegistryIndex(JSON.stringify(good)).plugins['acme/lua']?.latest).toBe('1.2.0');
    const bad: [unknown, RegExp][] = [
      [{ ...good, plugins: { '../x': good.plugins['acme/lua'] } }, /must be a plugin id/],
      [{ ...good, plugins: { x: { ...good.plugins['acme/lua'], versions: ['1.2.0', '1.0.0'] } } }, /must be ascending/],
      [{ ...good, plugins: { x: { ...good.plugins['acme/lua'], latest: '9.9.9' } } }, /must be one of the versions/],
    ];
    for (const [value, message] of bad) {
      expect(() => parseRegistryIndex(value)).toThrow(
        expect.objectContaining({ code: 'REGISTRY_DOCUMENT_INVALID', message: expect.stringMatching(message) }),
      );
    }
  });
});
