import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHookRunEntry } from '../../src/cli/hook-run-entry.js';

// The lean `hook-run` entry takes only what the post-commit hook and a person pass; anything else
// goes on to oclif (undefined), which answers with its usual help and usage errors.

describe('runHookRunEntry', () => {
  it('leaves to oclif what it does not take: help, unknown flags, a second path, a path that is no directory', async () => {
    for (const args of [['--help'], ['-h'], ['--bogus'], ['.', '.'], [join(tmpdir(), 'travsr-no-such-dir-x')], ['--json=yes']])
      expect(await runHookRunEntry(args), args.join(' ')).toBeUndefined();
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
      expect(await runHookRunEntry([dir])).toBe(1);
      expect(await runHookRunEntry([dir, '--from-hook'])).toBe(0);
    } finally {
      process.stderr.write = write;
    }
    expect(writes[0]).toMatch(/^Error \[NOT_INITIALIZED\]: .* has no Travsr index yet/);
    expect(writes[1]).toMatch(/^travsr hook-run: \[NOT_INITIALIZED\] /);
  });
});
