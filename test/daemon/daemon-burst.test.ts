// Nothing is lost: a burst of random edits, new files, renames, deletes and a sub-package that
// comes and goes, while the daemon watches; once quiet, its graph equals a rebuild of the same
// working tree. (The `daemon` benchmark runs the long burst: 1,000 operations over 60 s.)
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain JavaScript module of the benchmarks, shared with this test
import { burst, writePackage } from '../bench/daemon-burst.js';
import { eventually, repoStatus, stopTestDaemon } from '../helpers/daemon.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

afterAll(async () => stopTestDaemon());

async function exported(root: string): Promise<string[]> {
  const r = await travsr(['graph', 'export', root], { env: { TRAVSR_DAEMON: '0' } });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('a burst of changes under the daemon', () => {
  it('ends in the graph a rebuild of the working tree makes', async () => {
    const repo = new GitRepo('travsr-burst-');
    writePackage(repo.root, 20, 1);
    repo.commit('start');
    expect((await travsr(['init', repo.root, '--no-hook'])).code).toBe(0);
    expect((await travsr(['daemon', 'start'])).code).toBe(0);
    await eventually(async () => (await repoStatus(repo.root)).updateState === 'idle', 'the start-up catch-up');
    const done = (await burst(repo.root, 120, 6_000, 7)) as Record<string, number>;
    expect(done.edit).toBeGreaterThan(0);
    expect(done.rename! + done.delete!).toBeGreaterThan(0);
    // Quiet: no update queued or running for a while.
    await eventually(async () => {
      const s = await repoStatus(repo.root);
      return s.updateState === 'idle' && s.queuedFiles === 0;
    }, 'the daemon to catch up');
    await new Promise((r) => setTimeout(r, 1_000));
    await eventually(async () => {
      const s = await repoStatus(repo.root);
      return s.updateState === 'idle' && s.queuedFiles === 0;
    }, 'the daemon to stay idle');
    const live = await exported(repo.root);
    await stopTestDaemon();
    const rebuild = await travsr(['index', repo.root, '--rebuild'], { env: { TRAVSR_DAEMON: '0' } });
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const rebuilt = await exported(repo.root);
    expect(live.length).toBeGreaterThan(50);
    expect(live).toEqual(rebuilt);
    repo.dispose();
  }, 240_000);

  // One or two updates when the checkout is quick; on a busy machine git writes the files over a
  // longer time, and a third run may take the Phase B the second put off for later changes.
  it('takes a branch switch of 150 files as a few updates (one or two when quiet), not one per file', async () => {
    const repo = new GitRepo('travsr-switch-');
    writePackage(repo.root, 10, 2);
    repo.commit('start');
    repo.git('checkout', '-q', '-b', 'wide');
    writePackage(repo.root, 150, 5); // rewrites the 10 modules and adds 140
    repo.commit('wide');
    repo.git('checkout', '-q', 'main');
    expect((await travsr(['init', repo.root, '--no-hook'])).code).toBe(0);
    expect((await travsr(['daemon', 'start'])).code).toBe(0);
    const before = await eventually(async () => {
      const s = await repoStatus(repo.root);
      return s.updateState === 'idle' && s.queuedFiles === 0 ? s : undefined;
    }, 'the start-up catch-up');
    repo.git('checkout', '-q', 'wide');
    const after = await eventually(async () => {
      const s = await repoStatus(repo.root);
      return s.updateState === 'idle' && s.queuedFiles === 0 && s.updates > before.updates ? s : undefined;
    }, 'the update after the switch');
    await new Promise((r) => setTimeout(r, 1_000));
    const settled = await repoStatus(repo.root);
    expect(settled.updates - before.updates).toBeLessThanOrEqual(3);
    expect(after.lastUpdateFiles).toBeGreaterThan(0);
    const live = await exported(repo.root);
    await stopTestDaemon();
    expect((await travsr(['index', repo.root, '--rebuild'], { env: { TRAVSR_DAEMON: '0' } })).code).toBe(0);
    expect(live).toEqual(await exported(repo.root));
    expect(live.filter((l) => l.includes('pkg/m149.py')).length).toBeGreaterThan(0);
    repo.dispose();
  }, 240_000);
});
