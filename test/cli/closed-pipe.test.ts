// The real CLI writing into a pipe whose reader has already gone (`travsr status | head -1`,
// `travsr lang list | head`): the output goes nowhere and the command ends as it would have,
// without an unhandled EPIPE and its stack trace. `status` runs on the lean entry (no oclif),
// `lang list` on oclif: both ways out are covered.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));

let repo: string;

/** Runs the CLI with its standard output a pipe closed before the CLI writes to it. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: repo,
      env: { ...process.env, TRAVSR_HOME: process.env.TRAVSR_HOME! },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'travsr-closed-pipe-'));
  await execa('git', ['init', '-q', repo]);
  writeFileSync(join(repo, 'settings.json'), '{ "name": "demo", "port": 8080 }\n');
  const init = await travsr(['init', '.', '--no-hook'], { cwd: repo });
  expect(init.code, init.stderr).toBe(0);
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('a reader that closes the pipe early', () => {
  it('status (lean entry) ends with its own exit code and no EPIPE', async () => {
    const r = await withClosedStdout(['status']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error'/);
    expect(r.code).toBe(0);
  });

  it('lang list (an oclif command) ends the same way', async () => {
    const r = await withClosedStdout(['lang', 'list']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error'/);
    expect(r.code).toBe(0);
  });
});
