import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { LEAN_COMMAND_NAMES, runLeanEntry } from '../../src/cli/lean-entry.js';

// The lean entry (`hook-run`, `status`) takes only what the post-commit hook and a person pass;
// anything else goes on to oclif (undefined), which answers with its usual help and usage errors.

describe('runLeanEntry', () => {
  it('leaves to oclif what it does not take: help, unknown flags, a second path, a path that is no directory', async () => {
    for (const command of ['hook-run', 'status'])
      for (const args of [['--help'], ['-h'], ['--bogus'], ['.', '.'], [join(tmpdir(), 'travsr-no-such-dir-x')], ['--json=yes']])
        expect(await runLeanEntry([command, ...args]), `${command} ${args.join(' ')}`).toBeUndefined();
    expect(await runLeanEntry(['status', '--from-hook'])).toBeUndefined(); // hook-run's flag only
    expect(await runLeanEntry(['index', '.'])).toBeUndefined();
    expect(await runLeanEntry([])).toBeUndefined();
  });

  it('runs for a directory: an error with a code exits 1, and --from-hook never fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-hook-entry-')); // no .travsr/: NOT_INITIALIZED
    const writes: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string) => {
      writes.push(String(chunk));
      return true;
    };
    try {
      expect(await runLeanEntry(['hook-run', dir])).toBe(1);
      expect(await runLeanEntry(['hook-run', dir, '--from-hook'])).toBe(0);
      expect(await runLeanEntry(['status', dir, '--json'])).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(writes[0]).toMatch(/^Error \[NOT_INITIALIZED\]: .* has no Travsr index yet/);
    expect(writes[1]).toMatch(/^travsr hook-run: \[NOT_INITIALIZED\] /);
    expect(writes[2]).toMatch(/^Error \[NOT_INITIALIZED\]: .* has no Travsr index yet/);
  });

  it('is tried by bin/run.js for exactly its commands', () => {
    const run = readFileSync(new URL('../../bin/run.js', import.meta.url), 'utf8');
    const tried = new Set([...run.matchAll(/args\[0\] === '([a-z][a-z-]*)'/g)].map((m) => m[1]));
    expect([...tried].sort()).toEqual([...LEAN_COMMAND_NAMES].sort());
  });
});
