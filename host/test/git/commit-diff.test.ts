import { symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changedSince, diffCommits, readCommitDiff, readHeadChange } from '../../src/git/commit-diff.js';
import { lines, tempDir, TestRepo } from './git-fixture.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0, 1, 2, 3, 0, 0xff, 0xfe]);

async function repoWithBase(): Promise<TestRepo> {
  const repo = await TestRepo.create();
  repo.write('src/a.ts', lines(20, 'a'));
  repo.write('src/b.ts', lines(20, 'b'));
  repo.write('README.md', 'hello\n');
  await repo.commit('base');
  return repo;
}

describe('readCommitDiff', () => {
  it('diffs the first commit against the empty tree: everything is added', async () => {
    const repo = await TestRepo.create();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.write('README.md', 'hello\n');
    const head = await repo.commit('first');

    const d = await readCommitDiff(repo.root);
    expect(d).toEqual({ from: null, to: head, added: ['README.md', 'src/a.ts'], modified: [], deleted: [], renamed: [] });
  });

  it('lists added, modified and deleted files of HEAD~1..HEAD with full hashes', async () => {
    const repo = await repoWithBase();
    const base = await repo.head();
    repo.write('src/a.ts', lines(21, 'a'));
    repo.write('src/new/c.ts', 'export {};\n');
    repo.remove('README.md');
    const head = await repo.commit('change');

    const d = await readCommitDiff(repo.root);
    expect(d).toEqual({ from: base, to: head, added: ['src/new/c.ts'], modified: ['src/a.ts'], deleted: ['README.md'], renamed: [] });
  });

  it('reports a pure rename with similarity 100 and a rename with a small edit with its similarity', async () => {
    const repo = await repoWithBase();
    await repo.mv('src/a.ts', 'lib/a.ts');
    repo.remove('src/b.ts');
    repo.write('lib/b2.ts', lines(20, 'b').replace('b 3 of', 'b three of'));
    await repo.commit('move');

    const d = await readCommitDiff(repo.root);
    expect(d.added).toEqual([]);
    expect(d.deleted).toEqual([]);
    expect(d.renamed).toHaveLength(2);
    expect(d.renamed).toContainEqual({ from: 'src/a.ts', to: 'lib/a.ts', similarity: 100 });
    const edited = d.renamed.find((r) => r.to === 'lib/b2.ts');
    expect(edited?.from).toBe('src/b.ts');
    expect(edited?.similarity).toBeGreaterThanOrEqual(50);
    expect(edited?.similarity).toBeLessThan(100);
  });

  it('reports a rename with most of the content rewritten as a delete and an add', async () => {
    const repo = await repoWithBase();
    repo.remove('src/a.ts');
    repo.write('src/z.ts', lines(4, 'a') + lines(16, 'completely new'));
    await repo.commit('rewrite');

    const d = await readCommitDiff(repo.root);
    expect(d.renamed).toEqual([]);
    expect(d.deleted).toEqual(['src/a.ts']);
    expect(d.added).toEqual(['src/z.ts']);
  });

  it('returns paths with spaces, quotes, tabs, newlines and non-ASCII characters exactly', async () => {
    const repo = await repoWithBase();
    const names = ['docs/my notes.md', 'src/ünïcödé/名前.ts', 'odd/"quoted" it\'s.ts', 'odd/tab\there.ts', 'odd/new\nline.ts'];
    for (const n of names) repo.write(n, `// ${n}\n`);
    await repo.mv('src/a.ts', 'src/dir with space/ä.ts');
    await repo.commit('odd names');

    const d = await readCommitDiff(repo.root);
    expect([...d.added].sort()).toEqual([...names].sort());
    expect(d.renamed).toEqual([{ from: 'src/a.ts', to: 'src/dir with space/ä.ts', similarity: 100 }]);
  });

  it('gives a merge commit the change it brought onto the branch (first parent)', async () => {
    const repo = await repoWithBase();
    await repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/b.ts', lines(22, 'b'));
    repo.write('src/feature.ts', 'export const f = 1;\n');
    await repo.commit('feature work');
    await repo.git('checkout', '-q', 'main');
    repo.write('src/a.ts', lines(25, 'a'));
    const mainTip = await repo.commit('main work');
    await repo.git('merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    const merge = await repo.head();

    const d = await readCommitDiff(repo.root);
    expect(d).toEqual({ from: mainTip, to: merge, added: ['src/feature.ts'], modified: ['src/b.ts'], deleted: [], renamed: [] });
  });

  it('sees a commit that touches only binary files like any other', async () => {
    const repo = await repoWithBase();
    repo.write('assets/logo.png', PNG);
    await repo.commit('add logo');
    repo.write('assets/logo.png', Uint8Array.from([...PNG, 7, 0, 9]));
    repo.write('assets/icon.bin', Uint8Array.from([0, 1, 0, 2, 0xff]));
    await repo.commit('binary only');

    const d = await readCommitDiff(repo.root);
    expect(d).toMatchObject({ added: ['assets/icon.bin'], modified: ['assets/logo.png'], deleted: [], renamed: [] });
  });

  it('gives an empty commit an empty diff', async () => {
    const repo = await repoWithBase();
    const base = await repo.head();
    const head = await repo.commit('nothing');

    expect(await readCommitDiff(repo.root)).toEqual({ from: base, to: head, added: [], modified: [], deleted: [], renamed: [] });
  });

  it('reports a file that became a symlink as typeChanged and a submodule separately', async () => {
    const repo = await repoWithBase();
    const base = await repo.head();
    repo.remove('README.md');
    symlinkSync('src/a.ts', `${repo.root}/README.md`);
    await repo.git('add', '-A');
    await repo.git('update-index', '--add', '--cacheinfo', `160000,${base},vendor/lib`);
    await repo.git('commit', '-q', '-m', 'symlink and submodule');

    const d = await readCommitDiff(repo.root);
    expect(d.typeChanged).toEqual(['README.md']);
    expect(d.submodules).toEqual([{ path: 'vendor/lib', change: 'added' }]);
    expect(d).toMatchObject({ added: [], modified: [], deleted: [], renamed: [] });
  });

  it('is not swayed by the user diff config (renames off, relative paths, external diff)', async () => {
    const repo = await repoWithBase();
    await repo.git('config', 'diff.renames', 'false');
    await repo.git('config', 'diff.relative', 'true');
    await repo.git('config', 'diff.external', '/bin/false');
    await repo.git('config', 'diff.renameLimit', '1');
    await repo.mv('src/a.ts', 'lib/a.ts');
    await repo.commit('move');

    const d = await readCommitDiff(repo.root);
    expect(d.renamed).toEqual([{ from: 'src/a.ts', to: 'lib/a.ts', similarity: 100 }]);
  });

  it('reads the repository it is given even when run inside another repository hook (GIT_DIR set)', async () => {
    const other = await repoWithBase();
    const repo = await repoWithBase();
    repo.write('mine.ts', 'x\n');
    await repo.commit('mine');
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = `${other.root}/.git`;
    process.env.GIT_INDEX_FILE = `${other.root}/.git/index`;
    try {
      expect((await readCommitDiff(repo.root)).added).toEqual(['mine.ts']);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('diffs an explicit range', async () => {
    const repo = await repoWithBase();
    const base = await repo.head();
    repo.write('one.ts', '1\n');
    const one = await repo.commit('one');
    repo.write('two.ts', '2\n');
    await repo.commit('two');

    expect(await readCommitDiff(repo.root, { from: base, to: one })).toMatchObject({ from: base, to: one, added: ['one.ts'] });
    expect(await readCommitDiff(repo.root, { to: 'HEAD~1' })).toMatchObject({ from: base, to: one, added: ['one.ts'] });
  });

  it('fails with a code a caller can act on', async () => {
    const empty = await TestRepo.create();
    await expect(readCommitDiff(empty.root)).rejects.toMatchObject({ code: 'GIT_NO_COMMITS' });
    const repo = await repoWithBase();
    await expect(readCommitDiff(repo.root, { to: 'no-such-branch' })).rejects.toMatchObject({ code: 'GIT_BAD_REVISION' });
    await expect(readCommitDiff(repo.root, { from: '--output=/tmp/x' })).rejects.toMatchObject({ code: 'GIT_BAD_REVISION' });
    await expect(readCommitDiff(tempDir())).rejects.toMatchObject({ code: 'GIT_NOT_A_REPOSITORY' });
  });
});

describe('changedSince', () => {
  it('folds several commits into one diff from the last indexed commit to HEAD', async () => {
    const repo = await repoWithBase();
    const indexed = await repo.head();
    repo.write('tmp.ts', 'short-lived\n');
    await repo.commit('add tmp');
    repo.write('src/b.ts', lines(30, 'b'));
    await repo.commit('edit b');
    repo.remove('tmp.ts');
    await repo.commit('drop tmp');
    await repo.mv('src/a.ts', 'src/a2.ts');
    repo.write('src/c.ts', 'c\n');
    const head = await repo.commit('rename a, add c');

    const d = await changedSince(repo.root, indexed);
    expect(d).toEqual({
      from: indexed,
      to: head,
      added: ['src/c.ts'],
      modified: ['src/b.ts'],
      deleted: [],
      renamed: [{ from: 'src/a.ts', to: 'src/a2.ts', similarity: 100 }],
    });
  });

  it('catches what an amend undid, which HEAD~1..HEAD cannot see', async () => {
    const repo = await repoWithBase();
    repo.write('src/a.ts', lines(21, 'a'));
    const indexed = await repo.commit('edit a');
    repo.write('src/a.ts', lines(20, 'a'));
    repo.write('src/b.ts', lines(21, 'b'));
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '--amend', '-m', 'edit b instead');

    expect((await readCommitDiff(repo.root)).modified).toEqual(['src/b.ts']);
    expect((await changedSince(repo.root, indexed)).modified).toEqual(['src/a.ts', 'src/b.ts']);
  });

  it('says what to do when the last indexed commit is gone', async () => {
    const repo = await repoWithBase();
    const err = await changedSince(repo.root, 'deadbeef'.repeat(5)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'GIT_BAD_REVISION' });
    expect((err as Error).message).toMatch(/full index/);
  });
});

describe('diffCommits', () => {
  it('gives what readCommitDiff gives for the same two resolved commits, and null diffs against the empty tree', async () => {
    const repo = await TestRepo.create();
    repo.write('src/a.ts', lines(20, 'a'));
    const first = await repo.commit('first');
    repo.write('src/a.ts', lines(21, 'a'));
    repo.write('src/b.ts', 'export {};\n');
    const second = await repo.commit('second');

    expect(await diffCommits(repo.root, first, second)).toEqual(await readCommitDiff(repo.root, { from: first, to: second }));
    expect(await diffCommits(repo.root, null, first)).toEqual({
      from: null,
      to: first,
      added: ['src/a.ts'],
      modified: [],
      deleted: [],
      renamed: [],
    });
  });

  it('a commit that does not exist is a git failure with a code', async () => {
    const repo = await repoWithBase();
    await expect(diffCommits(repo.root, '0'.repeat(40), await repo.head())).rejects.toMatchObject({ code: expect.stringMatching(/^GIT_/) });
  });
});

describe('readHeadChange', () => {
  it('gives HEAD, its parent and the change readCommitDiff reads, from one git run', async () => {
    const repo = await repoWithBase();
    const base = await repo.head();
    await repo.mv('src/a.ts', 'lib/a.ts');
    repo.write('src/new file ä.ts', 'export {};\n');
    repo.remove('README.md');
    const head = await repo.commit('change');

    expect(await readHeadChange(repo.root)).toEqual({ head, parents: [base], diff: await readCommitDiff(repo.root) });
  });

  it('diffs a first commit against the empty tree, and says undefined before any commit', async () => {
    const repo = await TestRepo.create();
    expect(await readHeadChange(repo.root)).toBeUndefined();
    repo.write('src/a.ts', 'export const a = 1;\n');
    const head = await repo.commit('first');
    expect(await readHeadChange(repo.root)).toEqual({ head, parents: [], diff: await readCommitDiff(repo.root) });
  });

  it('leaves the diff of a merge commit to the caller (its parents are given), and an empty commit has an empty one', async () => {
    const repo = await repoWithBase();
    await repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/feature.ts', 'export const f = 1;\n');
    const feature = await repo.commit('feature work');
    await repo.git('checkout', '-q', 'main');
    repo.write('src/a.ts', lines(25, 'a'));
    const mainTip = await repo.commit('main work');
    await repo.git('merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    const merge = await repo.head();
    expect(await readHeadChange(repo.root)).toEqual({ head: merge, parents: [mainTip, feature], diff: undefined });

    await repo.git('commit', '-q', '--allow-empty', '-m', 'nothing');
    const empty = await readHeadChange(repo.root);
    expect(empty?.parents).toEqual([merge]);
    expect(empty?.diff).toEqual({ from: merge, to: empty?.head, added: [], modified: [], deleted: [], renamed: [] });
  });

  it('outside a repository is a git failure with a code', async () => {
    await expect(readHeadChange(tempDir())).rejects.toMatchObject({ code: expect.stringMatching(/^GIT_/) });
  });
});
