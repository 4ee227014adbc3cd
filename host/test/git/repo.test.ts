import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepoRoot, gitCommonDir, gitDir, headCommit, isGitRepo } from '../../src/git/repo.js';
import { tempDir, TestRepo } from './git-fixture.js';

describe('repository discovery', () => {
  it('finds the top of the working tree from a subfolder', async () => {
    const repo = await TestRepo.create();
    mkdirSync(join(repo.root, 'a', 'b c'), { recursive: true });
    expect(await findRepoRoot(join(repo.root, 'a', 'b c'))).toBe(repo.root);
    expect(await isGitRepo(repo.root)).toBe(true);
  });

  it('answers undefined outside a repository and inside the .git folder', async () => {
    const outside = tempDir();
    expect(await findRepoRoot(outside)).toBeUndefined();
    expect(await isGitRepo(outside)).toBe(false);
    const repo = await TestRepo.create();
    expect(await findRepoRoot(join(repo.root, '.git'))).toBeUndefined();
  });

  it('rejects a folder that does not exist with GIT_PATH_NOT_FOUND; isGitRepo says false', async () => {
    const missing = join(tempDir(), 'nope');
    await expect(findRepoRoot(missing)).rejects.toMatchObject({ code: 'GIT_PATH_NOT_FOUND' });
    expect(await isGitRepo(missing)).toBe(false);
  });

  it('gives no HEAD commit before the first commit, then its full hash', async () => {
    const repo = await TestRepo.create();
    expect(await headCommit(repo.root)).toBeUndefined();
    const sha = await repo.commit('first');
    expect(await headCommit(repo.root)).toBe(sha);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('gives a linked worktree its own git dir and the shared common dir', async () => {
    const repo = await TestRepo.create();
    await repo.commit('first');
    const wt = join(tempDir(), 'wt');
    await repo.git('worktree', 'add', '-q', wt);

    expect(await findRepoRoot(wt)).toBe(wt);
    expect(await gitDir(repo.root)).toBe(join(repo.root, '.git'));
    expect(await gitDir(wt)).toBe(join(repo.root, '.git', 'worktrees', 'wt'));
    expect(await gitCommonDir(wt)).toBe(join(repo.root, '.git'));
  });
});
