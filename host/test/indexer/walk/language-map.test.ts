import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extensionLanguages, LanguageMap, type LanguagePlugin } from '../../../src/indexer/walk/index.js';

const plugin = (id: string, languages: string[], extensions: string[], extra: Partial<LanguagePlugin> = {}): LanguagePlugin => ({
  id,
  manifest: { languages, extensions },
  ...extra,
});

describe('LanguageMap', () => {
  it('reads a real manifest', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../../plugins/example-lua/travsr-plugin.json', import.meta.url), 'utf8'));
    const map = LanguageMap.fromPlugins([{ id: 'example-lua', manifest }]);
    expect(map.match('src/init.lua')).toEqual({
      language: 'lua',
      plugin: 'example-lua',
      candidates: ['example-lua'],
      rule: 'extension .lua → example-lua: only claimant',
    });
    expect(map.match('src/init.py')).toBeUndefined();
    expect(map.match('lua')).toBeUndefined();
    expect(map.match('dir.lua/README')).toBeUndefined();
  });

  it('an exact file name beats an extension, and file names are case-sensitive', () => {
    const map = LanguageMap.fromPlugins([plugin('text', ['text'], ['.txt']), plugin('cmake', ['cmake'], ['CMakeLists.txt', 'Dockerfile'])]);
    expect(map.match('src/CMakeLists.txt')).toMatchObject({ plugin: 'cmake', rule: 'file name CMakeLists.txt → cmake: only claimant' });
    expect(map.match('cmakelists.txt')).toMatchObject({ plugin: 'text', rule: 'extension .txt → text: only claimant' });
    expect(map.match('Dockerfile')?.plugin).toBe('cmake');
    expect(map.match('dockerfile')).toBeUndefined();
    expect(map.match('Dockerfile.dev')).toBeUndefined();
  });

  it('extensions compare case-insensitively, on either side', () => {
    const map = LanguageMap.fromPlugins([plugin('lua', ['lua'], ['.LUA'])]);
    expect(map.match('A.lua')?.plugin).toBe('lua');
    expect(map.match('B.LuA')?.plugin).toBe('lua');
    expect(map.match('B.LuA')?.rule).toBe('extension .lua → lua: only claimant');
  });

  it('the longest claimed extension wins, and the rule says over which', () => {
    const map = LanguageMap.fromPlugins([
      plugin('lang-typescript', ['typescript'], ['.ts']),
      plugin('dts', ['typescript'], ['.d.ts']),
      plugin('lua', ['lua'], ['.lua']),
      plugin('busted', ['lua'], ['.test.lua']),
    ]);
    expect(map.match('types/index.d.ts')).toEqual({
      language: 'typescript',
      plugin: 'dts',
      candidates: ['dts'],
      rule: 'extension .d.ts (longest claimed, over .ts) → dts: only claimant',
    });
    expect(map.match('index.ts')?.plugin).toBe('lang-typescript');
    expect(map.match('a.b.d.ts')?.plugin).toBe('dts');
    expect(map.match('spec/x.TEST.lua')?.rule).toBe('extension .test.lua (longest claimed, over .lua) → busted: only claimant');
    expect(map.match('x.lua')?.plugin).toBe('lua');
    expect(map.match('.test.lua')?.plugin).toBe('busted');
  });

  it('two plugins claiming .lua: registration order decides, unless prefer names one', () => {
    const plugins = [plugin('lua-basic', ['lua'], ['.lua']), plugin('lua-fast', ['lua'], ['.lua'])];
    expect(LanguageMap.fromPlugins(plugins).match('a.lua')).toEqual({
      language: 'lua',
      plugin: 'lua-basic',
      candidates: ['lua-basic', 'lua-fast'],
      rule: 'extension .lua → lua-basic: registered first (over lua-fast)',
    });
    expect(LanguageMap.fromPlugins([...plugins].reverse()).match('a.lua')?.plugin).toBe('lua-fast');
    expect(LanguageMap.fromPlugins(plugins, { prefer: { lua: 'lua-fast' } }).match('a.lua')).toEqual({
      language: 'lua',
      plugin: 'lua-fast',
      candidates: ['lua-basic', 'lua-fast'],
      rule: 'extension .lua → lua-fast: preferred plugin for lua (over lua-basic)',
    });
    expect(LanguageMap.fromPlugins(plugins, { prefer: { lua: 'lua-gone' } }).match('a.lua')?.rule).toBe(
      'extension .lua → lua-basic: registered first (over lua-fast); the preference (lua: lua-gone) names no plugin that claims .lua',
    );
    // A preference for another language does not move .lua.
    expect(LanguageMap.fromPlugins(plugins, { prefer: { python: 'lua-fast' } }).match('a.lua')?.plugin).toBe('lua-basic');
  });

  it('when claimants map a key to different languages, each preference counts for its own language', () => {
    const plugins = [plugin('clang', ['c'], ['.h', '.c']), plugin('cpp', ['cpp'], ['.h', '.cpp'])];
    expect(LanguageMap.fromPlugins(plugins).match('x.h')).toMatchObject({ plugin: 'clang', language: 'c' });
    expect(LanguageMap.fromPlugins(plugins, { prefer: { cpp: 'cpp' } }).match('x.h')).toMatchObject({ plugin: 'cpp', language: 'cpp' });
    expect(LanguageMap.fromPlugins(plugins, { prefer: { c: 'cpp' } }).match('x.h')).toMatchObject({ plugin: 'clang', language: 'c' });
  });

  it('refuses a plugin registered twice', () => {
    expect(() => LanguageMap.fromPlugins([plugin('a', ['lua'], ['.lua']), plugin('a', ['lua'], ['.lua'])])).toThrow(
      expect.objectContaining({ code: 'LANGUAGE_MAP_INVALID', message: expect.stringMatching(/Plugin a is registered twice/) }),
    );
  });

  it('a plugin with several languages maps each extension through its explicit table', () => {
    const map = LanguageMap.fromPlugins([
      plugin('web', ['typescript', 'javascript'], ['.ts', '.js', '.vue'], { extensionLanguages: { '.VUE': 'javascript' } }),
    ]);
    expect(map.match('a.vue')?.language).toBe('javascript');
    expect(map.match('a.js')?.language).toBe('javascript');
    expect(map.match('a.ts')?.language).toBe('typescript');
  });
});

describe('extensionLanguages', () => {
  it('one language takes every extension', () => {
    expect(extensionLanguages({ languages: ['python'], extensions: ['.py', '.js', 'SConstruct'] })).toEqual(
      new Map([
        ['.py', 'python'],
        ['.js', 'python'],
        ['SConstruct', 'python'],
      ]),
    );
  });

  it('several languages: explicit table, then well-known extensions, then the first language', () => {
    const manifest = {
      languages: ['typescript', 'javascript', 'json'],
      extensions: ['.ts', '.TSX', '.d.ts', '.js', '.mjs', '.jsx', '.json', '.weird', '.py', 'Dockerfile'],
    };
    expect(Object.fromEntries(extensionLanguages(manifest))).toEqual({
      '.ts': 'typescript',
      '.tsx': 'typescript',
      '.d.ts': 'typescript',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.jsx': 'javascript',
      '.json': 'json',
      '.weird': 'typescript',
      '.py': 'typescript',
      Dockerfile: 'typescript',
    });
    expect(extensionLanguages(manifest, { '.weird': 'json', '.TS': 'javascript' }).get('.weird')).toBe('json');
    expect(extensionLanguages(manifest, { '.weird': 'json', '.TS': 'javascript' }).get('.ts')).toBe('javascript');
  });

  it('refuses a table that names an undeclared extension or language, and a bare dot', () => {
    const manifest = { languages: ['c', 'cpp'], extensions: ['.c', '.h'] };
    expect(() => extensionLanguages(manifest, { '.hpp': 'cpp' }, 'clang')).toThrow(
      'clang: the extension table names .hpp, which its manifest does not declare in "extensions"; add it there or drop it from the table.',
    );
    expect(() => extensionLanguages(manifest, { '.h': 'objc' }, 'clang')).toThrow(
      'clang: the extension table maps .h to objc, which its manifest does not declare in "languages" (c, cpp).',
    );
    expect(() => extensionLanguages({ languages: ['c'], extensions: ['.'] }, {}, 'clang')).toThrow(
      expect.objectContaining({ code: 'LANGUAGE_MAP_INVALID' }),
    );
  });
});
