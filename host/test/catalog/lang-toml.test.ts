import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLangToml, unsandboxedAllowed, writeLangToml } from '../../src/catalog/lang-toml.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'travsr-lang-')), 'lang.toml');

describe('lang.toml', () => {
  it('a missing file is an empty registry', () => {
    expect(readLangToml(tmp())).toEqual({ languages: {}, plugins: {} });
  });

  it('round-trips registrations and unsandboxed permissions', () => {
    const path = tmp();
    const reg = {
      languages: { go: { plugin: 'lang-go', allowUnsandboxed: false }, java: { allowUnsandboxed: true } },
      plugins: {
        'lang-go': { version: '0.1.0', dir: '/x/lang-go/0.1.0', treeHash: 'sha256:ab', tier: 'standard' as const, networkAllow: [] },
      },
    };
    writeLangToml(reg, path);
    expect(readLangToml(path)).toEqual(reg);
    expect(readFileSync(path, 'utf8')).toContain('allow_unsandboxed = true');
    expect(unsandboxedAllowed(reg, ['java'])).toBe(true);
    expect(unsandboxedAllowed(reg, ['go'])).toBe(false);
  });

  it('a broken file is a clear error naming file and line', () => {
    const path = tmp();
    writeFileSync(path, '[languages.go]\nplugin = "lang-go"\nallow_unsandboxed = tru\n');
    expect(() => readLangToml(path)).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: .*fix the file`));
  });

  it('a wrong shape is refused with the key named', () => {
    const path = tmp();
    writeFileSync(path, '[plugins.x]\nversion = "1.0.0"\ndir = "/d"\ntier = "root"\n');
    expect(() => readLangToml(path)).toThrow(/plugins\.x\.tier must be one of standard, native-ipc, elevated, unsandboxed/);
  });
});
