import { connectDaemon, type DaemonClient } from '../../host/src/daemon/daemon-client.js';
import type { RepoStatus } from '../../host/src/daemon/daemon-service.js';
import { GitRepo } from './git-repo.js';
import { travsr } from './run-cli.js';

/**
 * Waits until `check` resolves to something truthy (the daemon works asynchronously), polling
 * every 100 ms for at most `timeoutMs`; the last value seen is in the error.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A client of the test's daemon (the test's TRAVSR_HOME); throws when none answers. */
export async function daemonClient(): Promise<DaemonClient> {
  const c = await connectDaemon({ timeoutMs: 5_000 });
  if (!c) throw new Error('no daemon answers');
  return c;
}

/** The daemon's status of one repository. */
export async function repoStatus(root: string): Promise<RepoStatus> {
  const c = await daemonClient();
  try {
    const s = await c.status([root]);
    return s.repos[0]!;
  } finally {
    c.close();
  }
}

/** Waits until the daemon has no update queued or running for `root` and has done more than `after` updates. */
export async function settled(root: string, after = 0): Promise<RepoStatus> {
  return eventually(async () => {
    const s = await repoStatus(root);
    return s.updateState === 'idle' && s.queuedFiles === 0 && s.updates > after ? s : undefined;
  }, `the daemon to finish updating ${root}`);
}

/** Stops the test's daemon (never throws: used in afterAll). */
export async function stopTestDaemon(env: Record<string, string> = {}): Promise<void> {
  await travsr(['daemon', 'stop'], { env }).catch(() => undefined);
}

/**
 * A committed Python package (`pkg.app.main` calls `pkg.util.helper`) set up with `travsr init`
 * (`initArgs` added, e.g. `--no-hook`): the repository the daemon tests start from.
 */
export async function initedPythonRepo(prefix: string, initArgs: string[] = []): Promise<GitRepo> {
  const repo = new GitRepo(prefix);
  repo
    .write({
      'pkg/__init__.py': '',
      'pkg/util.py': 'def helper():\n    return 1\n',
      'pkg/app.py': 'from pkg.util import helper\n\n\ndef main():\n    return helper()\n',
    })
    .commit('one');
  const init = await travsr(['init', repo.root, ...initArgs]);
  if (init.code !== 0) throw new Error(`travsr init ${repo.root} exited with ${init.code}: ${init.stderr}`);
  return repo;
}
