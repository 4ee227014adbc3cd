import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HeadWatcher, headCommitOf, headPosition } from '../../src/daemon/head-watcher.js';
import { TestRepo } from '../git/git-fixture.js';

const watchers: HeadWatcher[] = [];
afterEach(() => watchers.splice(0).forEach((w) => w.close()));

/** A repository with one commit and a watcher over its HEAD that counts the moves it reports. */
async function setup(pollMs = 0) {
  const repo = await TestRepo.create();
  repo.write('a.txt', 'a\n');
  await repo.commit('first');
  const gitDir = (await repo.git('rev-parse', '--absolute-git-dir')).trim();
  const moves = { n: 0 };
  const w = new HeadWatcher({ gitDir, commonDir: gitDir, pollMs, onMoved: () => moves.n++ });
  w.start();
  watchers.push(w);
  return { repo, gitDir, moves };
}

/** Waits until `check` holds (the OS reports asynchronously), at most 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('HeadWatcher', () => {
  it('reports each commit, branch switch, detached checkout and reset once, and nothing for a git status', async () => {
    const { repo, moves } = await setup();
    repo.write('a.txt', 'b\n');
    await repo.git('status'); // refreshes the index: a write in .git that is not a move
    await new Promise((r) => setTimeout(r, 200));
    expect(moves.n).toBe(0);
    await repo.commit('second');
    await until(() => moves.n === 1, 'the commit');
    await repo.git('checkout', '-q', '-b', 'feature/x'); // a new branch in a folder: same commit, another ref
    await until(() => moves.n === 2, 'the branch switch');
    repo.write('a.txt', 'c\n');
    await repo.commit('on the branch');
    await until(() => moves.n === 3, 'the commit on a branch in a folder');
    await repo.git('checkout', '-q', '--detach', 'main');
    await until(() => moves.n === 4, 'the detached checkout');
    await repo.git('checkout', '-q', 'main');
    await repo.git('reset', '-q', '--hard', 'HEAD~1');
    await until(() => moves.n >= 5, 'the reset');
    await new Promise((r) => setTimeout(r, 200));
    expect(moves.n).toBeLessThanOrEqual(6); // checkout main and the reset may be seen as one move or two
  });

  it('tells the commit HEAD is at from the files alone, as git does: branch, packed, detached; null when it cannot', async () => {
    const { repo, gitDir } = await setup();
    const w = new HeadWatcher({ gitDir, commonDir: gitDir, pollMs: 0, onMoved: () => undefined });
    watchers.push(w);
    expect(w.commit()).toBe(await repo.head());
    await repo.git('pack-refs', '--all', '--prune');
    expect(w.commit()).toBe(await repo.head());
    await repo.git('checkout', '-q', '--detach');
    expect(w.commit()).toBe(await repo.head());
    await repo.git('checkout', '-q', '--orphan', 'fresh');
    expect(w.commit()).toBeUndefined(); // an unborn branch: no commit yet
    expect(headCommitOf('ref: ../../etc/hostname')).toBeNull();
    expect(headCommitOf('')).toBeNull();
  });

  it('reads a branch kept only in packed-refs', async () => {
    const { repo, gitDir } = await setup();
    const before = headPosition(gitDir, gitDir);
    expect(before).toMatch(/^refs\/heads\/main [0-9a-f]{40}$/);
    await repo.git('pack-refs', '--all', '--prune'); // no loose refs/heads/main any more
    expect(headPosition(gitDir, gitDir)).toBe(before);
    await repo.commit('second');
    expect(headPosition(gitDir, gitDir)).toBe(`refs/heads/main ${await repo.head()}`);
    expect(headPosition(`${gitDir}-missing`, gitDir)).toBe('');
  });

  it('never reads outside the git directory for a HEAD that names no ref under refs/', async () => {
    const { gitDir } = await setup();
    writeFileSync(join(gitDir, 'HEAD'), 'ref: ../../../../etc/hostname\n');
    expect(headPosition(gitDir, gitDir)).toBe('ref: ../../../../etc/hostname');
  });

  it('a poll sees a move that no event reported in time', async () => {
    const repo = await TestRepo.create();
    repo.write('a.txt', 'a\n');
    await repo.commit('first');
    const gitDir = (await repo.git('rev-parse', '--absolute-git-dir')).trim();
    const moves = { n: 0 };
    // Events wait a minute before they look: only the poll can report the commit.
    const w = new HeadWatcher({ gitDir, commonDir: gitDir, settleMs: 60_000, pollMs: 50, onMoved: () => moves.n++ });
    w.start();
    watchers.push(w);
    await repo.commit('second');
    await until(() => moves.n === 1, 'the poll');
    await new Promise((r) => setTimeout(r, 200));
    expect(moves.n).toBe(1);
  });
});
