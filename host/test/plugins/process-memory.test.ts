import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processTreeRss } from '../../src/plugins/process-memory.js';

describe('processTreeRss', () => {
  it.runIf(process.platform === 'linux')('counts a process and its children', async () => {
    // A shell whose child holds ~64 MiB resident.
    const child = spawn(
      'sh',
      [
        '-c',
        `${JSON.stringify(process.execPath)} -e "globalThis.b = Buffer.alloc(64 * 1024 * 1024, 1); console.log('ready'); setInterval(() => {}, 1000)"`,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true, // its own process group: killed whole below
      },
    );
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const own = processTreeRss(process.pid)!;
      const tree = processTreeRss(child.pid!)!;
      expect(tree).toBeGreaterThan(64 * 1024 * 1024);
      expect(own).toBeGreaterThan(tree); // this process, its children included
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
      child.stdout.destroy();
    }
  });

  it('is undefined for a process that is not there', () => {
    expect(processTreeRss(2 ** 22 + 12345)).toBeUndefined();
  });
});
