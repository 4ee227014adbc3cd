import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRepoRoot } from '../../src/git/index.js';
import { initializedGitRoot } from '../../src/workspace/initialized-root.js';

// The root of an initialized repository, found without git, is the one git gives; anything git
// could answer differently is left to git (undefined).

const base = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-initialized-root-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function repo(name: string, initialized: boolean): string {
  const root = join(base, name);
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  if (initialized) mkdirSync(join(root, '.travsr'));
  return root;
}

describe.skipIf(process.platform === 'win32')('initializedGitRoot', () => {
  it('finds the top level git gives, from the root, a subdirectory or through a symbolic link', async () => {
    const root = repo('app', true);
    for (const dir of [root, join(root, 'src'), join(root, 'src', 'deep')]) {
      expect(initializedGitRoot(dir, {})).toBe(root);
      expect(initializedGitRoot(dir, {})).toBe(await findRepoRoot(dir));
    }
    const link = join(base, 'link-to-app');
    symlinkSync(root, link);
    expect(initializedGitRoot(join(link, 'src'), {})).toBe(await findRepoRoot(join(link, 'src')));
  });

  it('leaves it to git when the repository is not initialized, a nearer repository is not, or the ceiling is set', () => {
    const plain = repo('plain', false);
    expect(initializedGitRoot(join(plain, 'src'), {})).toBeUndefined();

    const outer = repo('outer', true);
    const inner = join(outer, 'vendor', 'lib'); // a nested repository (a submodule, say) without an index
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, '.git'), 'gitdir: ../../.git/modules/lib\n');
    expect(initializedGitRoot(inner, {})).toBeUndefined();
    expect(initializedGitRoot(join(outer, 'src'), { GIT_CEILING_DIRECTORIES: base })).toBeUndefined();

    expect(initializedGitRoot(base, {})).toBeUndefined(); // no .git above a temporary directory
  });
});
