// Resource limits inside a real standard-tier sandbox. The limits are kept small so that
// a failure of the limit cannot take the machine down with it.
import { describe, expect, it } from 'vitest';
import { lastJson, probeManifest, runInSandbox } from './sandbox-harness.js';

describe('resource limits (real bwrap)', () => {
  it('stops a fork bomb at the process limit: spawning fails with EAGAIN', async () => {
    // 16 tasks (threads count too): the probe's own Node uses about 7, bwrap 2.
    const run = await runInSandbox(probeManifest('fork-bomb.mjs'), { limits: { processes: 16 } });
    const report = lastJson<{ eagain: boolean; spawned: number; alive: number; errors: Record<string, number> }>(run);
    expect(report.eagain, JSON.stringify(report)).toBe(true);
    expect(report.alive).toBeLessThan(16);
    expect(run.exitCode).toBe(0);
  });

  it('stops a memory hog at the memory limit long before its goal', async () => {
    const run = await runInSandbox(probeManifest('memory-hog.mjs', ['2048']), { limits: { memoryMiB: 128 } });
    const totals = run.stdout
      .split('\n')
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
    expect(run.stdout).not.toContain('reached');
    expect(run.exitCode).not.toBe(0);
    expect(Math.max(0, ...totals)).toBeLessThanOrEqual(128);
  });

  it('kills a CPU spinner at the CPU-time limit (SIGXCPU)', async () => {
    const run = await runInSandbox(probeManifest('cpu-spin.mjs', ['30']), { limits: { cpuSeconds: 1 } });
    expect(run.stdout).toContain('spinning');
    expect(run.stdout).not.toContain('finished');
    // bwrap reports a child killed by a signal as 128 + signal: 152 for SIGXCPU, 137 for SIGKILL.
    expect([152, 137]).toContain(run.exitCode);
  });
});
