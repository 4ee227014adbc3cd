// The daemon end to end, with the built CLI and a real lang-python sidecar: it starts once per
// user, follows edits of the working tree before any commit, takes the post-commit hook's
// commit, answers `ask`, `graph` and `mcp --stdio` from its warm graphs and query cache, and stops.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPaths } from '../../host/src/daemon/daemon-paths.js';
import type { AnswerParts } from '../../host/src/daemon/daemon-service.js';
import { daemonClient, eventually, initedPythonRepo, repoStatus, stopTestDaemon } from '../helpers/daemon.js';
import type { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
let repo: GitRepo;

beforeAll(async () => {
  repo = await initedPythonRepo('travsr-daemon-');
}, 120_000);

afterAll(async () => {
  await stopTestDaemon();
  repo.dispose();
});

/** `graph callers <symbol> --json` names of the callers, answered by whoever answers. */
async function callerNames(symbol: string): Promise<string[]> {
  const r = await travsr(['graph', 'callers', symbol, '--repo', repo.root, '--json']);
  if (r.code !== 0) return [];
  return ((JSON.parse(r.stdout) as { nodes?: { qualifiedName: string }[] }).nodes ?? []).map((n) => n.qualifiedName);
}

describe('the daemon', () => {
  it('starts once per user: a second start finds it, a second daemon is refused', async () => {
    const first = await travsr(['daemon', 'start']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^daemon started \(pid \d+\) on unix:.*daemon\.sock, managing 1 repository$/m);
    const again = await travsr(['daemon', 'start']);
    expect(again.stdout).toMatch(/^daemon already running/m);
    const second = await travsr(['serve']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/Error \[DAEMON_RUNNING\]: a Travsr daemon is running already \(pid \d+/);
    const status = JSON.parse((await travsr(['daemon', 'status', '--json'])).stdout) as {
      running: boolean;
      repos: { root: string; watchMode: string }[];
    };
    expect(status).toMatchObject({ running: true, repos: [{ root: repo.root, watchMode: 'watching' }] });
  }, 120_000);

  it('follows an edit of the working tree before any commit, and says which files are dirty', async () => {
    repo.write({ 'pkg/util.py': 'def helper():\n    return other()\n\n\ndef other():\n    return 2\n' });
    await eventually(async () => (await callerNames('pkg.util.other')).includes('pkg.util.helper'), 'the new call in the graph');
    const s = await repoStatus(repo.root);
    expect(s.dirtyFiles).toEqual(['pkg/util.py']);
    // The plugin that served the edit has a session started for the next one.
    await eventually(async () => (await repoStatus(repo.root)).warmPlugins.includes('lang-python'), 'a lang-python session kept ready');
    const text = (await travsr(['daemon', 'status'])).stdout;
    expect(text).toMatch(/dirty \(in the graph, not committed\): 1 file: pkg\/util\.py/);
    expect(text).toMatch(/query cache: \d+ answers .*hit rate/);
  }, 120_000);

  it('takes a commit by itself: the post-commit hook starts nothing, and a commit without the hook is followed too', async () => {
    const pid = readFileSync(join(repo.root, '.travsr', 'daemon.pid'), 'utf8').trim();
    repo.write({ 'pkg/extra.py': 'from pkg.util import other\n\n\ndef extra():\n    return other()\n' });
    repo.git('add', '-A');
    const hook = await execa('git', ['commit', '-m', 'two'], { cwd: repo.root, reject: false, env: gitEnv(), all: true });
    expect(hook.exitCode, hook.all).toBe(0);
    expect(readFileSync(join(repo.root, '.travsr', 'hook.log'), 'utf8')).toMatch(
      new RegExp(`post-commit [0-9a-f]+: the daemon \\(pid ${pid}\\) follows HEAD\n$`),
    );
    await eventually(async () => (await callerNames('pkg.util.other')).includes('pkg.extra.extra'), 'the committed file in the graph');
    await eventually(async () => (await repoStatus(repo.root)).dirtyCount === 0, 'no dirty file after the commit');
    // git reset moves HEAD back with no hook at all: the daemon's graph follows the working tree it leaves.
    const reset = await execa('git', ['reset', '-q', '--hard', 'HEAD~1'], { cwd: repo.root, reject: false, env: gitEnv(), all: true });
    expect(reset.exitCode, reset.all).toBe(0);
    await eventually(async () => !(await callerNames('pkg.util.other')).includes('pkg.extra.extra'), 'the reset in the graph');
    const again = await execa('git', ['cherry-pick', 'HEAD@{1}'], {
      cwd: repo.root,
      reject: false,
      env: { ...gitEnv(), TRAVSR_HOOK_DISABLE: '1' },
      all: true,
    });
    expect(again.exitCode, again.all).toBe(0);
    await eventually(async () => (await callerNames('pkg.util.other')).includes('pkg.extra.extra'), 'the commit made without the hook');
    // A commit of a file the daemon has already indexed changes nothing in the tree: only HEAD says it.
    repo.write({ 'pkg/more.py': 'def more():\n    return 3\n' });
    await eventually(async () => (await repoStatus(repo.root)).dirtyFiles.includes('pkg/more.py'), 'the saved file in the graph');
    repo.git('add', '-A');
    const quiet = await execa('git', ['commit', '-q', '-m', 'three'], {
      cwd: repo.root,
      reject: false,
      env: { ...gitEnv(), TRAVSR_HOOK_DISABLE: '1' },
      all: true,
    });
    expect(quiet.exitCode, quiet.all).toBe(0);
    const head = repo.git('rev-parse', 'HEAD').trim();
    await eventually(
      async () =>
        (JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as { lastIndexedCommit: string }).lastIndexedCommit === head,
      'the graph at the commit made without the hook',
    );
  }, 120_000);

  it('answers ask and graph through the daemon, the second time from its cache', async () => {
    const c = await daemonClient();
    const before = (await c.status()).cache;
    const a = await travsr(['ask', 'which function returns other', '--repo', repo.root, '--json', '--budget', '2000']);
    expect(a.code, a.stderr).toBe(0);
    const b = await travsr(['ask', 'which function returns other', '--repo', repo.root, '--json', '--budget', '2000']);
    expect(JSON.parse(b.stdout)).toMatchObject({ files: expect.arrayContaining([expect.objectContaining({ path: 'pkg/util.py' })]) });
    const after = (await c.status()).cache;
    c.close();
    expect(after.misses).toBeGreaterThan(before.misses);
    expect(after.hits).toBeGreaterThan(before.hits);
  }, 120_000);

  it('sends the parts of an answer a caller reads: `ask` the text, `ask --json` the structured content', async () => {
    const c = await daemonClient();
    try {
      const ask = (parts?: AnswerParts, query = 'which function returns other') =>
        c.callTool({
          tool: 'get_context',
          argumentsJson: JSON.stringify({ query, token_budget: 2000 }),
          repos: [repo.root],
          fullAccess: true,
          ...(parts ? { parts } : {}),
        });
      const both = await ask(undefined, 'where is other defined');
      expect(both.text).toContain('pkg/util.py');
      expect(JSON.parse(both.structuredJson)).toMatchObject({
        files: expect.arrayContaining([expect.objectContaining({ path: 'pkg/util.py' })]),
      });
      // The cache keeps the whole answer: each part comes from the entry the first call made.
      expect(await ask('ANSWER_PARTS_TEXT', 'where is other defined')).toMatchObject({ text: both.text, structuredJson: '', cached: true });
      expect(await ask('ANSWER_PARTS_STRUCTURED', 'where is other defined')).toMatchObject({
        text: '',
        structuredJson: both.structuredJson,
        cached: true,
      });
      // A call that reads the text only is answered without the structured content (not made on
      // the worker); the cache serves that answer to the text again.
      const q = 'what does helper return';
      expect(await ask('ANSWER_PARTS_TEXT', q)).toMatchObject({
        text: expect.stringContaining('pkg/util.py'),
        structuredJson: '',
        cached: false,
      });
      expect(await ask('ANSWER_PARTS_TEXT', q)).toMatchObject({ structuredJson: '', cached: true });
      // The structured content next: the whole answer is made, and kept for every part.
      expect(await ask('ANSWER_PARTS_STRUCTURED', q)).toMatchObject({
        text: '',
        structuredJson: expect.stringContaining('pkg/util.py'),
        cached: false,
      });
      expect(await ask(undefined, q)).toMatchObject({ text: expect.stringContaining('pkg/util.py'), cached: true });
      expect(await ask('ANSWER_PARTS_TEXT', q)).toMatchObject({ cached: true });
      // An error's text comes whatever part was asked for.
      const bad = await c.callTool({
        tool: 'get_context',
        argumentsJson: '{}',
        repos: [repo.root],
        fullAccess: true,
        parts: 'ANSWER_PARTS_STRUCTURED',
      });
      expect(bad.isError).toBe(true);
      expect(bad.text).not.toBe('');
    } finally {
      c.close();
    }
    const text = await travsr(['ask', 'where is other defined', '--repo', repo.root, '--budget', '2000']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('pkg/util.py');
  }, 120_000);

  it('serves `mcp --stdio` through the daemon', async () => {
    const c = await daemonClient();
    const before = (await c.status()).cache;
    const mcp = execa(process.execPath, [BIN, 'mcp', '--stdio', '--repo', repo.root], {
      env: { TRAVSR_HOME: process.env.TRAVSR_HOME! },
      reject: false,
      stdin: 'pipe',
    });
    const lines: string[] = [];
    mcp.stdout.on('data', (d: Buffer) => lines.push(...d.toString('utf8').split('\n').filter(Boolean)));
    const send = (m: unknown) => mcp.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_callers', arguments: { symbol: 'pkg.util.other' } } });
    const answer = await eventually(
      () => lines.map((l) => JSON.parse(l) as { id?: number; result?: { content: { text: string }[] } }).find((m) => m.id === 2),
      'the tool answer',
    );
    mcp.stdin.end();
    await mcp;
    expect(answer.result!.content[0]!.text).toMatch(/pkg\.extra\.extra/);
    const after = (await c.status()).cache;
    c.close();
    expect(after.hits + after.misses).toBeGreaterThan(before.hits + before.misses);
  }, 120_000);

  it('stops, removing its socket; commands then answer without it', async () => {
    const r = await travsr(['daemon', 'stop']);
    expect(r.stdout).toMatch(/^daemon stopped \(pid \d+\)$/m);
    expect(existsSync(daemonPaths().socket)).toBe(false);
    expect(existsSync(daemonPaths().pidFile)).toBe(false);
    expect(existsSync(join(repo.root, '.travsr', 'daemon.pid'))).toBe(false); // the hook runs travsr again
    expect((await travsr(['daemon', 'status'])).stdout).toMatch(/no daemon is running/);
    expect(await callerNames('pkg.util.other')).toContain('pkg.extra.extra');
    const log = (await travsr(['daemon', 'logs', '-n', '200'])).stdout;
    expect(log).toMatch(/daemon: stopped/);
    // Nothing it started outlived the stop (a plugin session nobody stopped would hold the process).
    expect(log).not.toMatch(/still running .* after it stopped/);
  }, 120_000);
});

function gitEnv(): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.org',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.org',
  };
}
