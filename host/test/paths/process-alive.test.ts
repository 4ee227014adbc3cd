import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../src/paths/process-alive.js';

describe('processAlive', () => {
  it('is true for a running process and false for a pid no process has', () => {
    expect(processAlive(process.pid)).toBe(true);
    // Above Linux's largest pid (2^22) and macOS's: no process has it.
    expect(processAlive(2 ** 22 + 12_345)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('is false for a process that ended but was not reaped (a zombie)', async () => {
    // A parent that forks a child which ends at once, and never waits for it.
    const parent = spawn(
      'python3',
      ['-c', 'import os, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(30)'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      const state = () => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      };
      for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()).toBe('Z');
      // kill(pid, 0) still succeeds on a zombie; processAlive looks at its state.
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(processAlive(pid)).toBe(false);
      expect(processAlive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
