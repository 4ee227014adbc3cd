// The plugin must not outlive the host: a stand-in host process launches the sandbox and
// is then SIGKILLed (no chance to clean up); every sandboxed process must go with it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { defaultLimits, prepareLaunch } from '../../host/src/sandbox/index.js';
import { probeDir, probeManifest } from './sandbox-harness.js';

/** Pids whose command line contains `marker`, except `exclude`. */
function pidsWith(marker: string, exclude: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === exclude) continue;
    try {
      if (readFileSync(join('/proc', name, 'cmdline'), 'latin1').includes(marker)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Alive means present and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

it('kills the sandboxed plugin when the host process is SIGKILLed (real bwrap, --die-with-parent)', async () => {
  const marker = `travsr-orphan-check-${process.pid}-${Date.now()}`;
  const cmd = await prepareLaunch({
    pluginDir: probeDir,
    manifest: probeManifest('sleep.mjs', [marker]),
    tier: 'standard',
    limits: defaultLimits(),
    env: {},
  });
  const host = execa(
    process.execPath,
    [join(probeDir, 'spawn-and-wait.mjs'), JSON.stringify({ file: cmd.file, args: cmd.args, env: cmd.env })],
    { reject: false, stdin: 'ignore' },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`the sandboxed plugin did not start: ${seen}`)), 8_000);
      host.stdout?.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const sandboxed = pidsWith(marker, host.pid ?? -1);
    // bwrap outside, bwrap as pid 1 inside, and node running sleep.mjs.
    expect(sandboxed.length).toBeGreaterThanOrEqual(2);
    host.kill('SIGKILL');
    const deadline = Date.now() + 5_000;
    while ((alive(host.pid ?? -1) || sandboxed.some(alive)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(host.pid ?? -1)).toBe(false);
    expect(sandboxed.filter(alive)).toEqual([]);
  } finally {
    host.kill('SIGKILL');
    await cmd.cleanup(); // kills whatever is left in the session's cgroup
    await host;
  }
});
