// stderrLogger in a real child process: what reaches stderr is what a terminal shows.
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../dist/log/logger.js', import.meta.url));

async function stderrOf(message: string): Promise<string> {
  const script = `const { stderrLogger } = await import(${JSON.stringify(LOGGER)}); stderrLogger('info').log('warn', process.argv[1]);`;
  const r = await execa(process.execPath, ['--input-type=module', '-e', script, message], { reject: false });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stderr;
}

describe('stderrLogger', () => {
  it('shows escape sequences from a plugin message visibly', async () => {
    expect(await stderrOf('[misbehave] \x1b[2J\x1b]0;pwned\x07done')).toBe('warn  [misbehave] ␛[2J␛]0;pwned␇done');
  });

  it('indents continuation lines, so a message cannot forge a log line of its own', async () => {
    expect(await stderrOf('[misbehave] one\nerror the index is corrupt')).toBe('warn  [misbehave] one\n      error the index is corrupt');
  });
});
