import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeRemote, originUrlFromConfig } from '../../src/workspace/corpus.js';

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

describe('originUrlFromConfig', () => {
  const repoWith = (config: string) => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-corpus-')));
    execFileSync('git', ['init', '-q', root]);
    appendFileSync(join(root, '.git', 'config'), config);
    return root;
  };
  const gitSays = (root: string) => {
    try {
      return execFileSync('git', ['-C', root, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  };

  it('reads the origin url as git does, from a plain config', () => {
    for (const config of [
      '[remote "origin"]\n\turl = git@github.com:acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
      '[remote "upstream"]\n\turl = https://x.example/up.git\n[remote "origin"]\n  URL=https://github.com/acme/app\n',
    ]) {
      const root = repoWith(config);
      expect(originUrlFromConfig(root)).toBe(gitSays(root));
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves to git what the file alone does not decide', () => {
    for (const config of [
      '', // no origin here: the user's config could have one
      '[include]\n\tpath = other.config\n[remote "origin"]\n\turl = a\n',
      '[remote "origin"]\n\turl = "quoted value"\n',
      '[remote "origin"]\n\turl = a\n\turl = b\n',
      '[remote.origin]\n\turl = a\n',
    ]) {
      const root = repoWith(config);
      expect(originUrlFromConfig(root), config).toBeUndefined();
      rmSync(root, { recursive: true, force: true });
    }
    expect(originUrlFromConfig(join(tmpdir(), 'travsr-no-such-repo'))).toBeUndefined();
  });
});
