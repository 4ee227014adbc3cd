import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../../host/src/paths/process-alive.js';
import { ExternalIndexerError, runExternalIndexer } from '../../src/scip/index.js';

const dir = mkdtempSync(join(tmpdir(), 'travsr-ext-indexer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tool: a Node.js script that does `body` with `out` (its --output) and `argv`. */
function tool(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!${process.execPath}\nconst fs = require('fs');\nconst out = process.argv[process.argv.indexOf('--output') + 1];\n${body}\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

const base = { cwd: dir, env: { PATH: '/usr/bin:/bin', MARK: 'given' } };

describe('runExternalIndexer', () => {
  it('runs the tool with only the environment given and returns the index it wrote', async () => {
    const command = tool('ok', "fs.writeFileSync(out, 'index ' + process.env.MARK + ' ' + (process.env.HOME ?? 'no-home'));");
    const output = join(dir, 'ok.scip');
    expect(await runExternalIndexer({ ...base, name: 'ok-indexer', command, args: ['--output', output], output })).toBe(output);
    expect(readFileSync(output, 'utf8')).toBe('index given no-home');
  });

  it('fails with the last lines of its output when it exits non-zero, keeping only the tail of a flood', async () => {
    const command = tool(
      'loud',
      "for (let i = 0; i < 50000; i++) fs.writeSync(2, 'noise line ' + i + '\\n');\nfs.writeSync(2, 'error: could not load packages\\n');\nprocess.exit(3);",
    );
    const output = join(dir, 'loud.scip');
    const error: unknown = await runExternalIndexer({ ...base, name: 'loud-indexer', command, args: ['--output', output], output }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExternalIndexerError);
    expect((error as ExternalIndexerError).code).toBe('EXTERNAL_INDEXER_FAILED');
    expect((error as Error).message).toMatch(
      /^loud-indexer exited with 3 \(in .*\): noise line 49995 \| .* \| error: could not load packages$/,
    );
  });

  it('fails when it exits 0 without writing an index', async () => {
    const command = tool('lazy', '');
    const output = join(dir, 'lazy.scip');
    await expect(runExternalIndexer({ ...base, name: 'lazy', command, args: ['--output', output], output })).rejects.toThrow(
      /lazy exited 0 but wrote no index at .*lazy\.scip/,
    );
  });

  it('kills it at the time limit, beating meanwhile, and says so', async () => {
    const command = tool('slow', 'setTimeout(() => {}, 60_000);');
    const output = join(dir, 'slow.scip');
    const beats: number[] = [];
    const started = Date.now();
    await expect(
      runExternalIndexer({
        ...base,
        name: 'slow',
        command,
        args: ['--output', output],
        output,
        timeoutMs: 1_500,
        heartbeat: (s) => beats.push(s),
        heartbeatMs: 300,
      }),
    ).rejects.toThrow(/slow did not finish within 2 s/);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(beats.length).toBeGreaterThanOrEqual(2);
  });

  it('stops it when the request is cancelled', async () => {
    const command = tool('cancelled', 'setTimeout(() => {}, 60_000);');
    const output = join(dir, 'cancelled.scip');
    const abort = new AbortController();
    const run = runExternalIndexer({ ...base, name: 'cancelled', command, args: ['--output', output], output, signal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    await expect(run).rejects.toThrow(/cancelled was cancelled/);
  });

  it('stops what the tool started too (its process group) when it is stopped', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    // The tool starts a child of its own that would outlive it, writes its pid, and waits.
    const command = tool(
      'parent',
      `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });\nfs.writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));\nsetTimeout(() => {}, 60000);`,
    );
    const output = join(dir, 'parent.scip');
    const abort = new AbortController();
    const run = runExternalIndexer({ ...base, name: 'parent', command, args: ['--output', output], output, signal: abort.signal });
    // Stopped once the child exists, however slow the machine is to start them.
    for (let i = 0; i < 600 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    await expect(run).rejects.toThrow(/parent was cancelled/);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(processAlive(pid)).toBe(false);
  });

  it('settles when the tool has exited, even if a process it detached still holds its output open', async () => {
    const pidFile = join(dir, 'daemon.pid');
    const command = tool(
      'daemonizing',
      `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });\nfs.writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));\nc.unref();\nfs.writeFileSync(out, 'index');`,
    );
    const output = join(dir, 'daemonizing.scip');
    try {
      expect(await runExternalIndexer({ ...base, name: 'daemonizing', command, args: ['--output', output], output })).toBe(output);
    } finally {
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });

  it('says when the tool is not there', async () => {
    const output = join(dir, 'none.scip');
    await expect(runExternalIndexer({ ...base, name: 'scip-none', command: join(dir, 'no-such-tool'), args: [], output })).rejects.toThrow(
      /scip-none could not be started: .*no-such-tool does not exist or is not visible in the sandbox/,
    );
  });
});
