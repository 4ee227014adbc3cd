import { describe, expect, it } from 'vitest';
import { normalizeRemote } from '../../src/workspace/corpus.js';

describe('normalizeRemote', () => {
  it.each([
    ['git@github.com:acme/app.git', 'github.com/acme/app'],
    ['https://github.com/acme/app.git', 'github.com/acme/app'],
    ['https://user@gitlab.example.org/group/sub/app/', 'gitlab.example.org/group/sub/app'],
    ['ssh://git@host.example:2222/a/b.git', 'host.example/a/b'],
    ['/srv/repos/app.git', 'app'],
    ['/work/main/.', 'main'],
    ['file:///srv/repos/x.git', 'x'],
  ])('%s → %s', (url, corpus) => {
    expect(normalizeRemote(url)).toBe(corpus);
  });
});
