import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_BLOCK_BEGIN, HOOK_BLOCK_END } from '../../src/git/hook-script.js';
import { hookStatus, installPostCommitHook, uninstallPostCommitHook } from '../../src/git/hook-installer.js';
import { tempDir, TestRepo } from './git-fixture.js';

/** A command running `js` in Node, the way `travsr init` installs `node run.js hook-run`. */
function node(js: string): string[] {
  return [process.execPath, '-e', js];
}

/** Writes marker.json (where it ran, what git env it saw) and says hello on stdout. */
const MARKER = node(
  "const fs = require('fs'); console.log('hello from the command');" +
    "fs.writeFileSync('marker.json', JSON.stringify({ cwd: process.cwd(), gitDir: process.env.GIT_DIR ?? null, index: process.env.GIT_INDEX_FILE ?? null }));",
);

async function repoWithCommit(): Promise<TestRepo> {
  const repo = await TestRepo.create();
  // What the hook and the commands write must not end up in the test commits.
  writeFileSync(join(repo.root, '.git', 'info', 'exclude'), '.travsr/\n*.marker\nmarker.json\ngo\n');
  repo.write('a.txt', 'a\n');
  await repo.commit('first');
  return repo;
}

function hookLog(root: string): string {
  return readFileSync(join(root, '.travsr', 'hook.log'), 'utf8');
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('installPostCommitHook', () => {
  it('creates an executable POSIX sh hook with the marked block', async () => {
    const repo = await repoWithCommit();
    const r = await installPostCommitHook(repo.root, { command: MARKER });

    expect(r).toEqual({ path: join(repo.root, '.git', 'hooks', 'post-commit'), action: 'created' });
    const text = readFileSync(r.path, 'utf8');
    expect(text.startsWith(`#!/bin/sh\n${HOOK_BLOCK_BEGIN}\n`)).toBe(true);
    expect(text.endsWith(`${HOOK_BLOCK_END}\n`)).toBe(true);
    expect(statSync(r.path).mode & 0o111).toBe(0o111);
    expect(await hookStatus(repo.root)).toEqual({ path: r.path, state: 'installed', executable: true });
  });

  it('re-installs in place: unchanged when the same, updated with one block when the command changed', async () => {
    const repo = await repoWithCommit();
    const first = await installPostCommitHook(repo.root, { command: MARKER });
    const before = readFileSync(first.path, 'utf8');

    expect((await installPostCommitHook(repo.root, { command: MARKER })).action).toBe('unchanged');
    expect(readFileSync(first.path, 'utf8')).toBe(before);

    const other = ['/opt/travsr/bin/travsr', 'hook-run', '--from-hook'];
    expect((await installPostCommitHook(repo.root, { command: other })).action).toBe('updated');
    const after = readFileSync(first.path, 'utf8');
    expect(after.split(HOOK_BLOCK_BEGIN)).toHaveLength(2);
    expect(after).toContain("'/opt/travsr/bin/travsr' 'hook-run' '--from-hook'");
    expect(after).not.toContain('hello from the command');
  });

  it('runs the command on git commit from the repository top, output to .travsr/hook.log, without git env', async () => {
    const repo = await repoWithCommit();
    await installPostCommitHook(repo.root, { command: MARKER });
    repo.write('b.txt', 'b\n');
    const sha = await repo.commit('second');

    expect(JSON.parse(readFileSync(join(repo.root, 'marker.json'), 'utf8'))).toEqual({ cwd: repo.root, gitDir: null, index: null });
    const log = hookLog(repo.root);
    expect(log).toMatch(new RegExp(`post-commit ${sha.slice(0, 7)}`));
    expect(log).toContain('hello from the command');
  });

  it('never fails the commit: a command that exits 1 is logged and the commit is made', async () => {
    const repo = await repoWithCommit();
    await installPostCommitHook(repo.root, { command: node("console.error('index exploded'); process.exit(1)") });
    const before = await repo.head();
    await repo.git('add', '-A');
    const r = await repo.run(['commit', '-q', '--allow-empty', '-m', 'second']);

    expect(r.exitCode).toBe(0);
    expect(await repo.head()).not.toBe(before);
    expect(r.stderr).toContain('travsr: the code graph was not updated for this commit');
    expect(hookLog(repo.root)).toMatch(/index exploded\n.*exited with status 1\./);
  });

  it('never fails the commit: a command that does not exist is logged with what to do', async () => {
    const repo = await repoWithCommit();
    await installPostCommitHook(repo.root, { command: ['/nonexistent/travsr', 'hook-run'] });
    const r = await repo.run(['commit', '-q', '--allow-empty', '-m', 'second']);

    expect(r.exitCode).toBe(0);
    expect(hookLog(repo.root)).toContain('travsr hook: command not found: /nonexistent/travsr. The commit is fine. Re-run travsr init');
  });

  it('stops a command that runs past TRAVSR_HOOK_TIMEOUT, and the commit returns', async () => {
    const repo = await repoWithCommit();
    await installPostCommitHook(repo.root, {
      command: node("require('fs').writeFileSync('pid.marker', String(process.pid)); setTimeout(() => {}, 120000)"),
    });
    const r = await repo.run(['commit', '-q', '--allow-empty', '-m', 'slow'], { TRAVSR_HOOK_TIMEOUT: '2' });

    expect(r.exitCode).toBe(0);
    const pid = Number(readFileSync(join(repo.root, 'pid.marker'), 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }) as Error);
    expect(hookLog(repo.root)).toContain('travsr hook: stopped after 2s (TRAVSR_HOOK_TIMEOUT)');
  });

  it('skips the command when TRAVSR_HOOK_DISABLE=1', async () => {
    const repo = await repoWithCommit();
    await installPostCommitHook(repo.root, { command: MARKER });
    await repo.commit('second', { TRAVSR_HOOK_DISABLE: '1' });

    expect(existsSync(join(repo.root, 'marker.json'))).toBe(false);
    expect(existsSync(join(repo.root, '.travsr', 'hook.log'))).toBe(false);
  });

  it('starts nothing while a daemon that follows HEAD runs (its pid in .travsr/daemon.pid), and runs when that process is gone or not a daemon', async () => {
    const repo = await repoWithCommit();
    await installPostCommitHook(repo.root, { command: MARKER });
    mkdirSync(join(repo.root, '.travsr'), { recursive: true });
    const pidFile = join(repo.root, '.travsr', 'daemon.pid');
    // A process whose arguments end like the daemon's (`node …/bin/run.js serve`).
    const daemon = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'host/bin/run.js', 'serve'], { stdio: 'ignore' });
    try {
      writeFileSync(pidFile, `${daemon.pid}\n`);
      await repo.commit('second');
      expect(existsSync(join(repo.root, 'marker.json'))).toBe(false);
      expect(hookLog(repo.root)).toMatch(new RegExp(`post-commit [0-9a-f]+: the daemon \\(pid ${daemon.pid}\\) follows HEAD\n$`));
      // TRAVSR_DAEMON=0: the command runs even so.
      repo.write('b.txt', 'b\n');
      await repo.commit('third', { TRAVSR_DAEMON: '0' });
      expect(existsSync(join(repo.root, 'marker.json'))).toBe(true);
    } finally {
      daemon.kill();
    }
    rmSync(join(repo.root, 'marker.json'));
    // A live process that is not a daemon (pid reused after a crash), then a dead one: the command runs.
    writeFileSync(pidFile, `${process.pid}\n`);
    repo.write('c.txt', 'c\n');
    await repo.commit('fourth');
    expect(existsSync(join(repo.root, 'marker.json'))).toBe(true);
    rmSync(join(repo.root, 'marker.json'));
    if (daemon.exitCode === null && daemon.signalCode === null) await new Promise((r) => daemon.once('exit', r));
    writeFileSync(pidFile, `${daemon.pid}\n`);
    repo.write('d.txt', 'd\n');
    await repo.commit('fifth');
    expect(existsSync(join(repo.root, 'marker.json'))).toBe(true);
  });

  it('with TRAVSR_HOOK_BACKGROUND=1 the commit returns while the command still runs', async () => {
    const repo = await repoWithCommit();
    // The command waits for a file the test writes only after the commit returned, so a
    // foreground run would hold the commit until the command gave up.
    await installPostCommitHook(repo.root, {
      command: node(
        "const fs = require('fs'); const t = Date.now();" +
          "(function poll() { if (fs.existsSync('go')) return fs.writeFileSync('bg.marker', 'done');" +
          ' if (Date.now() - t < 20000) setTimeout(poll, 20); })();',
      ),
    });
    await repo.commit('second', { TRAVSR_HOOK_BACKGROUND: '1' });

    expect(existsSync(join(repo.root, 'bg.marker'))).toBe(false);
    writeFileSync(join(repo.root, 'go'), '');
    await until(() => existsSync(join(repo.root, 'bg.marker')), 'the background command');
  });

  it('chains after a foreign hook: both run, and an exit in the foreign hook cannot skip ours', async () => {
    const repo = await repoWithCommit();
    const path = join(repo.root, '.git', 'hooks', 'post-commit');
    const foreign = '#!/usr/bin/env bash\nset -euo pipefail\necho "foreign ran" > foreign.marker\nexit 0\n';
    writeFileSync(path, foreign, { mode: 0o755 });

    expect(await hookStatus(repo.root)).toMatchObject({ state: 'foreign-only' });
    expect((await installPostCommitHook(repo.root, { command: MARKER })).action).toBe('chained');
    expect((await installPostCommitHook(repo.root, { command: MARKER })).action).toBe('unchanged');
    await repo.commit('second');

    expect(readFileSync(join(repo.root, 'foreign.marker'), 'utf8')).toBe('foreign ran\n');
    expect(existsSync(join(repo.root, 'marker.json'))).toBe(true);
    expect(await hookStatus(repo.root)).toMatchObject({ state: 'installed' });
  });

  it('uninstall takes out only our block: the foreign hook is left byte for byte', async () => {
    const repo = await repoWithCommit();
    const path = join(repo.root, '.git', 'hooks', 'post-commit');
    const foreign = '#!/bin/sh\n# team hook\necho "foreign ran" > foreign.marker\n';
    writeFileSync(path, foreign, { mode: 0o750 });
    await installPostCommitHook(repo.root, { command: MARKER });

    expect(await uninstallPostCommitHook(repo.root)).toEqual({ path, action: 'unchained' });
    expect(readFileSync(path, 'utf8')).toBe(foreign);
    expect(statSync(path).mode & 0o777).toBe(0o750);
    expect(await hookStatus(repo.root)).toMatchObject({ state: 'foreign-only' });
    expect((await uninstallPostCommitHook(repo.root)).action).toBe('not-installed');
  });

  it('uninstall deletes a hook that held only our block', async () => {
    const repo = await repoWithCommit();
    const { path } = await installPostCommitHook(repo.root, { command: MARKER });

    expect(await uninstallPostCommitHook(repo.root)).toEqual({ path, action: 'removed' });
    expect(existsSync(path)).toBe(false);
    expect(await hookStatus(repo.root)).toEqual({ path, state: 'missing', executable: false });
    expect((await uninstallPostCommitHook(repo.root)).action).toBe('not-installed');
  });

  it('follows core.hooksPath', async () => {
    const repo = await repoWithCommit();
    await repo.git('config', 'core.hooksPath', '.githooks');
    const r = await installPostCommitHook(repo.root, { command: MARKER });

    expect(r).toEqual({ path: join(repo.root, '.githooks', 'post-commit'), action: 'created' });
    expect(existsSync(join(repo.root, '.git', 'hooks', 'post-commit'))).toBe(false);
    repo.write('b.txt', 'b\n');
    await repo.git('add', 'b.txt');
    await repo.git('commit', '-q', '-m', 'second');
    expect(existsSync(join(repo.root, 'marker.json'))).toBe(true);
  });

  it('installs from a linked worktree into the shared hooks, and runs there from the worktree top', async () => {
    const repo = await repoWithCommit();
    const wt = join(tempDir(), 'wt');
    await repo.git('worktree', 'add', '-q', wt);
    const r = await installPostCommitHook(wt, { command: MARKER });

    expect(r.path).toBe(join(repo.root, '.git', 'hooks', 'post-commit'));
    await new TestRepo(wt).commit('in the worktree');
    expect(JSON.parse(readFileSync(join(wt, 'marker.json'), 'utf8'))).toMatchObject({ cwd: wt, gitDir: null });
    expect(hookLog(wt)).toContain('hello from the command');
  });

  it('edits a symlinked hook where it lives and keeps the link', async () => {
    const repo = await repoWithCommit();
    mkdirSync(join(repo.root, 'scripts'));
    const shared = join(repo.root, 'scripts', 'post-commit.sh');
    writeFileSync(shared, '#!/bin/sh\necho shared > shared.marker\n', { mode: 0o755 });
    const path = join(repo.root, '.git', 'hooks', 'post-commit');
    symlinkSync(shared, path);

    expect((await installPostCommitHook(repo.root, { command: MARKER })).action).toBe('chained');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(shared, 'utf8')).toContain(HOOK_BLOCK_BEGIN);
  });

  it('refuses, changing nothing, a foreign hook it cannot safely extend', async () => {
    const repo = await repoWithCommit();
    const path = join(repo.root, '.git', 'hooks', 'post-commit');
    const python = '#!/usr/bin/env python3\nprint("hi")\n';
    writeFileSync(path, python, { mode: 0o755 });
    await expect(installPostCommitHook(repo.root, { command: MARKER })).rejects.toMatchObject({ code: 'HOOK_FOREIGN_NOT_SHELL', path });
    expect(readFileSync(path, 'utf8')).toBe(python);

    const disabled = '#!/bin/sh\necho disabled on purpose\n';
    writeFileSync(path, disabled);
    chmodSync(path, 0o644);
    await expect(installPostCommitHook(repo.root, { command: MARKER })).rejects.toMatchObject({ code: 'HOOK_FOREIGN_DISABLED' });
    expect(readFileSync(path, 'utf8')).toBe(disabled);
    expect(statSync(path).mode & 0o111).toBe(0);
  });

  it('reports broken markers and bad commands with a code', async () => {
    const repo = await repoWithCommit();
    await expect(installPostCommitHook(repo.root, { command: [] })).rejects.toMatchObject({ code: 'HOOK_COMMAND_INVALID' });
    await expect(installPostCommitHook(repo.root, { command: ['travsr', 'a\nb'] })).rejects.toMatchObject({ code: 'HOOK_COMMAND_INVALID' });
    expect((await hookStatus(repo.root)).state).toBe('missing');

    writeFileSync(join(repo.root, '.git', 'hooks', 'post-commit'), `#!/bin/sh\n${HOOK_BLOCK_BEGIN}\necho half a block\n`, { mode: 0o755 });
    await expect(installPostCommitHook(repo.root, { command: MARKER })).rejects.toMatchObject({ code: 'HOOK_BLOCK_CORRUPT' });
    await expect(hookStatus(repo.root)).rejects.toMatchObject({ code: 'HOOK_BLOCK_CORRUPT' });
  });

  it('says GIT_NOT_A_REPOSITORY outside a repository', async () => {
    await expect(installPostCommitHook(tempDir(), { command: MARKER })).rejects.toMatchObject({ code: 'GIT_NOT_A_REPOSITORY' });
  });
});
