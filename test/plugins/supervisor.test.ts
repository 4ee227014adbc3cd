// The supervisor around real sandboxed processes: restart with backoff, giving up after
// repeated crashes, cancellation, health checks, tamper and constraint refusals, traces.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPluginDir, PluginSupervisor, type PluginError } from '../../host/src/plugins/index.js';
import { defaultLimits } from '../../host/src/sandbox/index.js';
import { treeHash } from '../../registry/src/tree-hash.js';
import type { Trace } from '../../host/src/traces/trace.js';
import { buildMisbehavePlugins, makeTextRepo } from '../helpers/fixture-plugins.js';

let plugins: Awaited<ReturnType<typeof buildMisbehavePlugins>>;
let repo: string;

beforeAll(async () => {
  plugins = await buildMisbehavePlugins(['ok', 'slow', 'crash', 'slow-hello']);
  repo = makeTextRepo({
    'a.txt': 'one',
    'b.txt': 'two',
    'crash.txt': 'boom',
    ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`many/f${i}.txt`, `w${i}`])),
  });
});
afterAll(() => {
  rmSync(plugins.root, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
});

const base = () => ({
  repoRoot: repo,
  corpus: 'test',
  grant: { tier: 'standard' as const, allowUnsandboxed: false },
  limits: defaultLimits(),
  // Generous deadlines: a sandboxed start on a loaded machine takes seconds; the tests of the
  // deadlines themselves set short ones.
  timeouts: { handshakeMs: 30_000, analyzeIdleMs: 30_000, pingIntervalMs: 0, shutdownGraceMs: 10_000 },
  restart: { backoffBaseMs: 20, backoffMaxMs: 100 },
});

describe('PluginSupervisor', () => {
  it('restarts a crashed plugin on the next request and serves it', async () => {
    const traces: Trace[] = [];
    const sup = new PluginSupervisor({ ...base(), plugin: await loadPluginDir(plugins.dir('ok')), onTrace: (t) => traces.push(t) });
    await expect(sup.analyze({ phase: 'A', files: [{ path: 'crash.txt', language: 'text' }] }, { onFile: () => {} })).rejects.toMatchObject(
      { code: 'PLUGIN_CRASHED' },
    );
    const out = await sup.analyze({ phase: 'A', files: [{ path: 'a.txt', language: 'text' }] }, { onFile: () => {} });
    expect(out.analyzed).toBe(1);
    expect(sup.launches).toBe(2);
    await sup.stop();
    expect(traces.map((t) => t.status)).toEqual(['error', 'completed']);
  });

  it('disables a plugin after 3 crashes within the window', async () => {
    const sup = new PluginSupervisor({ ...base(), plugin: await loadPluginDir(plugins.dir('ok')) });
    const crashOnce = () => sup.analyze({ phase: 'A', files: [{ path: 'crash.txt', language: 'text' }] }, { onFile: () => {} });
    for (let i = 0; i < 3; i++) await expect(crashOnce()).rejects.toMatchObject({ code: 'PLUGIN_CRASHED' });
    const err = (await crashOnce().catch((e: unknown) => e)) as PluginError;
    expect(err.code).toBe('PLUGIN_DISABLED');
    expect(err.message).toMatch(/crashed 3 times within 5 minutes and is disabled/);
    expect(sup.launches).toBe(3);
    expect(sup.state).toBe('disabled');
    await sup.stop();
  });

  it('cancels an analyze in flight: the answer is a cancellation and the plugin stays usable', async () => {
    const sup = new PluginSupervisor({ ...base(), plugin: await loadPluginDir(plugins.dir('slow')) });
    const files = Array.from({ length: 30 }, (_, i) => ({ path: `many/f${i}.txt`, language: 'text' }));
    const ac = new AbortController();
    let seen = 0;
    const p = sup.analyze({ phase: 'A', files }, { onFile: () => void (++seen === 2 && ac.abort()) }, { signal: ac.signal });
    await expect(p).rejects.toMatchObject({ code: 'PLUGIN_REQUEST_CANCELLED' });
    expect(seen).toBeLessThan(30);
    expect(await sup.ping()).toBeGreaterThan(0);
    expect(sup.launches).toBe(1);
    await sup.stop();
  });

  it('refuses to launch a plugin whose files changed after their tree hash was recorded', async () => {
    const dir = plugins.dir('ok');
    const recorded = await treeHash(dir);
    appendFileSync(join(dir, 'main.js'), '\n// edited after install\n');
    const sup = new PluginSupervisor({ ...base(), plugin: await loadPluginDir(dir), expectedTreeHash: recorded });
    await expect(sup.start()).rejects.toMatchObject({
      code: 'PLUGIN_TAMPERED',
      message: expect.stringMatching(/changed since they were installed/),
    });
    await expect(sup.ping()).rejects.toMatchObject({ code: 'PLUGIN_TAMPERED' });
    expect(sup.launches).toBe(1);
  });

  it('refuses a plugin asking for more than its grant, naming the constraint, before running it', async () => {
    const plugin = await loadPluginDir(plugins.dir('slow'));
    const manifest = { ...plugin.manifest, constraints: { ...plugin.manifest.constraints, network: { allow: ['example.com:443'] } } };
    const traces: Trace[] = [];
    const sup = new PluginSupervisor({ ...base(), plugin: { ...plugin, manifest }, onTrace: (t) => traces.push(t) });
    const err = (await sup.start().catch((e: unknown) => e)) as PluginError;
    expect(err.code).toBe('CONSTRAINT_REFUSED');
    expect(err.message).toMatch(/network/);
    expect(traces[0]?.transitions.map((t) => t.state)).not.toContain('launching');
    expect(traces[0]?.constraints.some((c) => !c.ok && c.constraint.startsWith('network'))).toBe(true);
  });

  it('refuses the unsandboxed tier unless the user allowed it', async () => {
    const sup = new PluginSupervisor({
      ...base(),
      grant: { tier: 'unsandboxed', allowUnsandboxed: false },
      plugin: await loadPluginDir(plugins.dir('slow')),
    });
    const err = (await sup.start().catch((e: unknown) => e)) as PluginError;
    expect(err.message).toMatch(/allow-unsandboxed text/);
  });

  it('says when the process is launched, before the handshake ends, and when a start fails before that', async () => {
    const sup = new PluginSupervisor({
      ...base(),
      timeouts: { ...base().timeouts, handshakeMs: 1000 },
      plugin: await loadPluginDir(plugins.dir('slow-hello')),
    });
    await sup.launched(); // nothing under way
    const start = sup.start().catch((e: unknown) => e);
    await sup.launched();
    // The process runs and is still in its handshake: slow-hello never answers.
    expect(sup.state).toBe('starting');
    expect(sup.current).toBeUndefined();
    expect(await start).toMatchObject({ code: 'PLUGIN_HANDSHAKE_FAILED' });

    const refused = new PluginSupervisor({
      ...base(),
      grant: { tier: 'unsandboxed', allowUnsandboxed: false },
      plugin: await loadPluginDir(plugins.dir('ok')),
    });
    const failing = refused.start().catch((e: unknown) => e);
    await refused.launched();
    expect(await failing).toMatchObject({ code: 'CONSTRAINT_REFUSED' });
  });

  it('stopped while it starts, it stays stopped: a request queued behind the start launches nothing', async () => {
    const sup = new PluginSupervisor({ ...base(), plugin: await loadPluginDir(plugins.dir('ok')) });
    // What a spare session does: its start, then a warm-up request once the start is done.
    const warm = sup
      .capabilities()
      .then(() => sup.analyze({ phase: 'A', files: [{ path: 'a.txt', language: 'text' }] }, { onFile: () => {} }))
      .catch((e: unknown) => e);
    await sup.launched();
    await sup.stop(); // the run that took the session had nothing for it
    expect(await warm).toMatchObject({ code: 'PLUGIN_STOPPED' });
    expect(sup.state).toBe('stopped');
    expect(sup.launches).toBe(1);
    expect(sup.pid).toBeUndefined();
  });

  it('times out a handshake that never comes', async () => {
    const sup = new PluginSupervisor({
      ...base(),
      timeouts: { ...base().timeouts, handshakeMs: 800 },
      plugin: await loadPluginDir(plugins.dir('slow-hello')),
    });
    await expect(sup.start()).rejects.toMatchObject({
      code: 'PLUGIN_HANDSHAKE_FAILED',
      message: expect.stringMatching(/did not answer handshake in time/),
    });
  });

  it('health checks ping an idle plugin', async () => {
    const traces: Trace[] = [];
    const sup = new PluginSupervisor({
      ...base(),
      timeouts: { ...base().timeouts, pingIntervalMs: 100 },
      plugin: await loadPluginDir(plugins.dir('slow')),
      onTrace: (t) => traces.push(t),
    });
    await sup.start();
    // Nothing is asked of the plugin: every frame after hello and initialize answers a health
    // ping. Wait for two of them, however long a loaded machine takes.
    while ((sup.current?.stats.framesIn ?? 0) < 4) await new Promise((r) => setTimeout(r, 20));
    await sup.stop();
    expect(traces[0]?.counts.framesIn).toBeGreaterThanOrEqual(4); // hello + initialize + ≥2 pings
    expect(traces[0]?.status).toBe('completed');
  });
});
