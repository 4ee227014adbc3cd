// The extension → language contract with the host: the host picks the language of a file
// from the manifest (its well-known table for `.yml`, `.json`, …, else the manifest's first
// language); the plugin picks the format from the extension. They must agree.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '@travsr/protocol';
import { extensionLanguages } from '../../../host/src/indexer/walk/language-map.js';
import { EXTENSION_FORMATS, formatOf } from '../src/formats.js';

const manifest = JSON.parse(readFileSync(new URL('../travsr-plugin.json', import.meta.url), 'utf8')) as PluginManifest;

describe('extensions and languages', () => {
  it('claims exactly the extensions the format table reads', () => {
    expect([...manifest.extensions].sort()).toEqual(Object.keys(EXTENSION_FORMATS).sort());
  });

  it('reads each extension as the language the host assigns to it', () => {
    const host = extensionLanguages(manifest, {}, manifest.id);
    for (const extension of manifest.extensions) {
      expect(formatOf(`dir/file${extension}`, 'text', ''), extension).toBe(host.get(extension));
    }
    // The extensions the host does not know fall back to the first language: it must be XML.
    expect(host.get('.csproj')).toBe('xml');
    expect(host.get('.yml')).toBe('yaml');
  });

  it('prefers the extension, then the language, then the first character', () => {
    expect(formatOf('pom.xml', 'json', '{')).toBe('xml');
    expect(formatOf('a.b.JSON', 'xml', '<a/>')).toBe('json');
    expect(formatOf('settings', 'toml', '')).toBe('toml');
    expect(formatOf('data', 'text', '  <root/>')).toBe('xml');
    expect(formatOf('data', 'text', '[1]')).toBe('json');
    expect(formatOf('data', 'text', 'a: 1')).toBe('yaml');
  });
});
