import { describe, expect, it } from 'vitest';
import { filesOfManifest, languageOfFiles } from '../src/index.js';

describe('languageOfFiles', () => {
  const languageOf = languageOfFiles({ '.c': 'c', '.h': 'c', '.cpp': 'cpp', '.d.ts': 'dts', '.ts': 'ts', Rakefile: 'ruby' });

  it('matches exact names, then the longest extension, case-insensitively', () => {
    expect(languageOf('src/ring.h')).toBe('c');
    expect(languageOf('src/Geo.CPP')).toBe('cpp');
    expect(languageOf('types/x.d.ts')).toBe('dts');
    expect(languageOf('Rakefile')).toBe('ruby');
    expect(languageOf('README.md')).toBeUndefined();
  });
});

describe('filesOfManifest', () => {
  it('maps every extension of a single-language manifest to its language', () => {
    expect(filesOfManifest({ languages: ['ruby'], extensions: ['.rb', 'Gemfile'] })).toEqual({ '.rb': 'ruby', Gemfile: 'ruby' });
  });

  it('refuses a multi-language manifest', () => {
    expect(() => filesOfManifest({ languages: ['c', 'cpp'], extensions: ['.c'] })).toThrow(/2 languages/);
  });
});
