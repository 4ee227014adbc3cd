import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegistryIndex } from '@travsr/registry';
import { describe, expect, it } from 'vitest';
import { langErrorOf } from './lang-error.js';
import { isLocalTarget, pluginForName, splitRange } from '../../src/catalog/install-plugin.js';

const entry = (languages: string[]) => ({ latest: '0.1.0', versions: ['0.1.0'], languages, description: '' });

/** A registry where lua has two plugins, go one, and `typescript` is both a plugin id and a language. */
const INDEX: RegistryIndex = {
  formatVersion: 1,
  plugins: {
    'lang-lua': entry(['lua']),
    'example-lua': entry(['lua', 'luau']),
    'lang-go': entry(['go']),
    typescript: entry(['tsx']),
    'lang-typescript': entry(['typescript', 'javascript']),
  },
};

describe('pluginForName', () => {
  it('an id is taken as the plugin, with no language', () => {
    expect(pluginForName(INDEX, 'lang-go', {}, 'the registry R')).toEqual({ id: 'lang-go' });
    // An id wins over a language of the same name.
    expect(pluginForName(INDEX, 'typescript', {}, 'the registry R')).toEqual({ id: 'typescript' });
  });

  it('a language one plugin serves resolves to it, remembering the language asked for', () => {
    expect(pluginForName(INDEX, 'go', {}, 'the registry R')).toEqual({ id: 'lang-go', language: 'go' });
    expect(pluginForName(INDEX, 'luau', {}, 'the registry R')).toEqual({ id: 'example-lua', language: 'luau' });
  });

  it('a language several plugins serve is LANG_AMBIGUOUS, listing them sorted and how to choose', () => {
    const e = langErrorOf(() => pluginForName(INDEX, 'lua', {}, 'the registry R'));
    expect(e.code).toBe('LANG_AMBIGUOUS');
    expect(e.message).toBe(
      'several plugins in the registry R serve lua: example-lua, lang-lua; install one by id, or choose with `travsr config set plugins.prefer lua=<id>`',
    );
  });

  it('plugins.prefer chooses among the claimants, and only among them', () => {
    expect(pluginForName(INDEX, 'lua', { lua: 'lang-lua' }, 'R')).toEqual({ id: 'lang-lua', language: 'lua' });
    // Preferring a plugin that does not serve the language does not choose it.
    expect(langErrorOf(() => pluginForName(INDEX, 'lua', { lua: 'lang-go' }, 'R')).code).toBe('LANG_AMBIGUOUS');
    expect(pluginForName(INDEX, 'go', { go: 'lang-lua' }, 'R')).toEqual({ id: 'lang-go', language: 'go' });
  });

  it('a name that is neither an id nor a language is LANG_NOT_FOUND, naming the registry', () => {
    const e = langErrorOf(() => pluginForName(INDEX, 'cobol', {}, 'the built-in registry'));
    expect(e.code).toBe('LANG_NOT_FOUND');
    expect(e.message).toMatch(/^the built-in registry has no plugin with id "cobol" and none for language "cobol"; `travsr lang list`/);
  });
});

describe('splitRange', () => {
  it.each([
    ['lua', { name: 'lua' }],
    ['example-lua@^0.1.0', { name: 'example-lua', range: '^0.1.0' }],
    ['example-lua@0.1.1', { name: 'example-lua', range: '0.1.1' }],
    ['acme/lua', { name: 'acme/lua' }],
    ['acme/lua@>=1.0.0 <2.0.0', { name: 'acme/lua', range: '>=1.0.0 <2.0.0' }],
    // A leading @ is not a range separator.
    ['@acme', { name: '@acme' }],
  ])('%s', (arg, expected) => {
    expect(splitRange(arg)).toEqual(expected);
  });

  it('refuses an @ with no range after it, instead of locking the empty range', () => {
    const e = langErrorOf(() => splitRange('lua@ '));
    expect(e.code).toBe('LANG_ARGUMENT_INVALID');
    expect(e.message).toMatch(/"lua@ " has no version range after "@"; write lua/);
  });
});

describe('isLocalTarget', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'travsr-local-'));
  mkdirSync(join(cwd, 'my-plugin'));
  writeFileSync(join(cwd, 'my-plugin', 'travsr-plugin.json'), '{}');
  mkdirSync(join(cwd, 'lua'));
  writeFileSync(join(cwd, 'my-plugin-0.1.0.tgz'), '');
  writeFileSync(join(cwd, 'notes.txt'), '');

  it('a directory with a travsr-plugin.json, relative to cwd or absolute, is local', () => {
    expect(isLocalTarget('my-plugin', cwd)).toBe(true);
    expect(isLocalTarget('./my-plugin', cwd)).toBe(true);
    expect(isLocalTarget(join(cwd, 'my-plugin'), '/')).toBe(true);
  });

  it('an existing .tgz file is local', () => {
    expect(isLocalTarget('my-plugin-0.1.0.tgz', cwd)).toBe(true);
  });

  it('a directory without a manifest (a folder named like a language), another file or nothing is not', () => {
    expect(isLocalTarget('lua', cwd)).toBe(false);
    expect(isLocalTarget('notes.txt', cwd)).toBe(false);
    expect(isLocalTarget('go', cwd)).toBe(false);
    expect(isLocalTarget('my-plugin', join(cwd, 'lua'))).toBe(false);
  });
});
