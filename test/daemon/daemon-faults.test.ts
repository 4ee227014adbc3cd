// What goes wrong around the daemon, each case with the real daemon process: killed in the middle
// of an update, leftovers of a dead daemon, a socket other users could reach, a client without the
// token or of another user, a plugin that crashes on a file it is watching.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPaths } from '../../host/src/daemon/daemon-paths.js';
import { processAlive } from '../../host/src/paths/process-alive.js';
import { daemonClientConstructor } from '../../host/src/daemon/daemon-service.js';
import { eventually, repoStatus, stopTestDaemon } from '../helpers/daemon.js';
import { buildMisbehavePlugins } from '../helpers/fixture-plugins.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let plugins: Awaited<ReturnType<typeof buildMisbehavePlugins>>;
beforeAll(async () => {
  plugins = await buildMisbehavePlugins(['ok', 'slow']);
});
afterAll(() => rmSync(plugins.root, { recursive: true, force: true }));
afterEach(async () => stopTestDaemon());

function integrity(root: string): string {
  const db = new Database(join(root, '.travsr', 'graph.db'), { readonly: true });
  try {
    return `${db.pragma('integrity_check', { simple: true }) as string}/${(db.pragma('foreign_key_check') as unknown[]).length}`;
  } finally {
    db.close();
  }
}

/** The graph as `graph export` prints it, sorted: what two indexes of one tree must agree on. */
async function exported(root: string, env: Record<string, string>): Promise<string[]> {
  const r = await travsr(['graph', 'export', root], { env: { ...env, TRAVSR_DAEMON: '0' } });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

/** A repository of text files indexed by the test plugin in `mode`. */
async function textRepo(mode: 'ok' | 'slow', files: Record<string, string>): Promise<{ repo: GitRepo; env: Record<string, string> }> {
  const repo = new GitRepo('travsr-daemon-fault-');
  const env = { TRAVSR_PLUGINS_DIRS: plugins.dir(mode), TRAVSR_CORPUS: 'c' };
  repo.write(files).commit('one');
  const init = await travsr(['init', repo.root, '--no-hook'], { env });
  expect(init.code, init.stderr).toBe(0);
  return { repo, env };
}

describe('daemon faults', () => {
  it('SIGKILLed in the middle of an update: the store is intact, a new daemon replaces the leftovers and completes the update', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, `word${i} shared`]));
    const { repo, env } = await textRepo('slow', files);
    const start = await travsr(['daemon', 'start'], { env });
    expect(start.code, start.stderr).toBe(0);
    const pid = Number(/pid (\d+)/.exec(start.stdout)![1]);
    await eventually(async () => (await repoStatus(repo.root)).updateState === 'idle', 'the start-up catch-up');
    // Every file changes: the slow plugin takes 200 ms each, so the update runs for seconds.
    repo.write(Object.fromEntries(Object.keys(files).map((f) => [f, `changed ${f} again`])));
    const db = join(repo.root, '.travsr', 'graph.db');
    await eventually(() => {
      const d = new Database(db, { readonly: true });
      try {
        const running = d.prepare("SELECT count(*) AS n FROM index_runs WHERE state = 'running'").get() as { n: number };
        const stored = d.prepare("SELECT count(*) AS n FROM nodes WHERE name = 'changed' AND tombstoned_at IS NULL").get() as { n: number };
        return running.n > 0 && stored.n >= 2;
      } catch {
        return false;
      } finally {
        d.close();
      }
    }, 'an update in the middle of its files');
    process.kill(pid, 'SIGKILL');
    await eventually(() => !processAlive(pid), 'the daemon to be gone');
    expect(integrity(repo.root)).toBe('ok/0');
    // Its socket and pid file are left behind; the next daemon replaces them.
    expect(statSync(daemonPaths().socket).isSocket()).toBe(true);
    const again = await travsr(['daemon', 'start'], { env });
    expect(again.stdout, again.stderr).toMatch(/^daemon started/m);
    await eventually(async () => {
      const s = await repoStatus(repo.root);
      return s.updateState === 'idle' && s.updates > 0;
    }, 'the catch-up after the kill');
    const status = JSON.parse((await travsr(['status', repo.root, '--json'], { env })).stdout) as {
      indexRun: { state: string; pendingFiles: number };
    };
    expect(status.indexRun).toMatchObject({ state: 'complete', pendingFiles: 0 });
    // The graph is what a fresh index of the same working tree makes.
    const live = await exported(repo.root, env);
    await stopTestDaemon(env);
    const rebuilt = await travsr(['index', repo.root, '--rebuild'], { env: { ...env, TRAVSR_DAEMON: '0' } });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(live).toEqual(await exported(repo.root, env));
    repo.dispose();
  }, 180_000);

  it('a socket or directory others may use is refused; a call without the token is refused; another user cannot connect', async () => {
    const { repo, env } = await textRepo('ok', { 'a.txt': 'alpha' });
    expect((await travsr(['daemon', 'start'], { env })).code).toBe(0);
    const paths = daemonPaths();
    expect(statSync(paths.socket).mode & 0o777).toBe(0o600);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(statSync(paths.tokenFile).mode & 0o777).toBe(0o600);

    // No token (what another process that cannot read the token file has): UNAUTHENTICATED.
    const Ctor = daemonClientConstructor();
    const bare = new Ctor(`unix:${paths.socket}`, grpc.credentials.createInsecure());
    const refused = await new Promise<grpc.ServiceError | null>((resolve) =>
      (bare as unknown as Record<string, (r: unknown, cb: (e: grpc.ServiceError | null) => void) => void>).Status!.call(
        bare,
        { repos: [] },
        (e) => resolve(e),
      ),
    );
    bare.close();
    expect(refused?.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(refused?.details).toMatch(/DAEMON_UNAUTHENTICATED/);

    // Another user: the kernel refuses the connection (0600 socket in a 0700 directory).
    if (process.getuid?.() === 0) {
      const other = spawnSync(
        process.execPath,
        [
          '-e',
          `require('net').connect(${JSON.stringify(paths.socket)}).on('error', (e) => { console.log(e.code); process.exit(0); }).on('connect', () => { console.log('connected'); process.exit(0); })`,
        ],
        { uid: 65534, gid: 65534, encoding: 'utf8', cwd: '/' },
      );
      expect(other.stdout.trim()).toBe('EACCES');
    }

    // A socket made reachable by others is refused by every client, which says what to do.
    chmodSync(paths.socket, 0o666);
    const wide = await travsr(['daemon', 'status'], { env });
    expect(wide.code).toBe(1);
    expect(wide.stderr).toMatch(
      /Error \[DAEMON_INSECURE\]: the daemon's socket .* has mode 0666, so other users may use it; only its owner may \(`chmod 600/,
    );
    // `ask` does not use it either, and answers in-process.
    const ask = await travsr(['ask', 'alpha', '--repo', repo.root], { env });
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stderr).toMatch(/not using the daemon: .*DAEMON_INSECURE|not using the daemon: the daemon's socket/);
    chmodSync(paths.socket, 0o600);

    // A daemon directory others may enter: the daemon will not start there.
    await stopTestDaemon(env);
    chmodSync(paths.dir, 0o755);
    const start = await travsr(['serve'], { env });
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/Error \[DAEMON_INSECURE\]: the daemon's directory .* has mode 0755/);
    chmodSync(paths.dir, 0o700);
    repo.dispose();
  }, 180_000);

  it('a plugin crash during a watched update fails that file only; the daemon goes on', async () => {
    const { repo, env } = await textRepo('ok', { 'a.txt': 'alpha', 'b.txt': 'beta' });
    expect((await travsr(['daemon', 'start'], { env })).code).toBe(0);
    await eventually(async () => (await repoStatus(repo.root)).updateState === 'idle', 'the start-up catch-up');
    repo.write({ 'b.txt': 'beta gamma', 'z-crash.txt': 'boom' });
    const status = async () =>
      JSON.parse((await travsr(['status', repo.root, '--json'], { env: { ...env, TRAVSR_DAEMON: '0' } })).stdout) as {
        failed?: { path: string; reason?: string }[];
      };
    const failed = await eventually(
      async () => (await status()).failed?.find((f) => f.path === 'z-crash.txt'),
      'the crash recorded on its file',
    );
    expect(failed.reason ?? '').toMatch(/crash|exited|failed/i);
    await eventually(async () => (await exported(repo.root, env)).some((l) => l.includes('"gamma"')), 'b.txt updated beside the crash');
    // The daemon lives on and takes the next edit.
    repo.write({ 'a.txt': 'alpha delta' });
    await eventually(async () => (await exported(repo.root, env)).some((l) => l.includes('"delta"')), 'the next edit');
    expect((await repoStatus(repo.root)).watchMode).toBe('watching');
    repo.dispose();
  }, 180_000);

  it('scans a repository it may not watch (more directories than daemon.maxWatchedDirectories) and says so', async () => {
    const { repo, env } = await textRepo('ok', { 'a/a.txt': 'alpha', 'b/b.txt': 'beta' });
    const limited = { ...env, TRAVSR_DAEMON_MAX_WATCHED_DIRECTORIES: '1', TRAVSR_DAEMON_SCAN_INTERVAL: '200' };
    expect((await travsr(['daemon', 'start'], { env: limited })).code).toBe(0);
    const s = await repoStatus(repo.root);
    expect(s).toMatchObject({ watchMode: 'scanning', watchedDirectories: 0 });
    expect(s.watchNote).toMatch(/3 directories to watch, more than daemon.maxWatchedDirectories \(1\)/);
    expect((await travsr(['daemon', 'status'], { env })).stdout).toMatch(/watch: scanning — the tree has 3 directories/);
    repo.write({ 'b/b.txt': 'beta epsilon' });
    await eventually(async () => (await exported(repo.root, env)).some((l) => l.includes('"epsilon"')), 'the scan to find the edit');
    expect(readFileSync(daemonPaths().logFile, 'utf8')).toMatch(/is scanned every 200 ms/);
    repo.dispose();
  }, 180_000);
});
