import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, launchUnsandboxed, runConformance, type ConformanceReport, type Launcher } from '../../src/testing/index.js';
import { buildFixturePlugin, withEnv, type FixturePlugin } from '../helpers.js';

let good: FixturePlugin;

beforeAll(async () => {
  good = await buildFixturePlugin({ 'src/one.fx': 'def one\ncall two\n', 'src/two.fx': 'def two\n', 'README.md': 'not a fixture' });
});
afterAll(() => good.cleanup());

function check(report: ConformanceReport, name: string) {
  const c = report.checks.find((x) => x.name === name);
  if (!c) throw new Error(`no check named ${name}: ${report.checks.map((x) => x.name).join(', ')}`);
  return c;
}

describe('runConformance', () => {
  it('passes a plugin built with the SDK, running every check', async () => {
    const report = await runConformance({ pluginDir: good.dir });
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.plugin).toEqual({ dir: good.dir, id: 'fixture-analyzer', version: '1.2.3' });
    expect(report.checks.map((c) => c.name)).toEqual([
      'manifest',
      'refuses to run without the host cookie',
      'handshake',
      'ping',
      'request before hello',
      'initialize',
      'analyze fixtures',
      'unknown method',
      'invalid params',
      'missing file',
      'cancel',
      'oversized frame from the host',
      'exits when stdin closes',
      'shutdown',
    ]);
    expect(check(report, 'analyze fixtures').detail).toMatch(/^2 file\(s\): 4 nodes, 2 edges, 1 refs/);
  });

  it('goes on with the session initialize opened for the requests after it, as a host does; a failed check ends that session', async () => {
    let launches = 0;
    const counting: Launcher = (opts) => {
      launches++;
      return launchUnsandboxed(opts);
    };
    const report = await runConformance({ pluginDir: good.dir, launch: counting });
    expect(report.ok, formatReport(report)).toBe(true);
    // Six sessions: without the cookie; the handshake's, which ping, initialize, analyze, unknown
    // method, invalid params, missing file and cancel go on with; a request before hello; an
    // oversized frame; stdin closing; shutdown.
    expect(launches).toBe(6);

    const throwing = await buildFixturePlugin({ 'bad.fx': 'def a\nthrow\n' });
    try {
      launches = 0;
      const failed = await runConformance({ pluginDir: throwing.dir, launch: counting });
      expect(check(failed, 'analyze fixtures').ok).toBe(false);
      expect(check(failed, 'analyze fixtures').detail).toContain('bad.fx: status failed');
      // The session analyze failed on was stopped: the checks after it are judged on a fresh one.
      expect(check(failed, 'unknown method').ok, formatReport(failed)).toBe(true);
      expect(check(failed, 'invalid params').ok, formatReport(failed)).toBe(true);
      expect(launches).toBeGreaterThanOrEqual(6 + 1);
    } finally {
      throwing.cleanup();
    }
  });

  it('names the mismatch when hello disagrees with the manifest', async () => {
    const report = await runConformance({ pluginDir: good.dir, launch: withEnv({ FIXTURE_MODE: 'wrong-version' }) });
    expect(report.ok).toBe(false);
    const c = check(report, 'handshake');
    expect(c.ok).toBe(false);
    expect(c.detail).toContain('plugin version "9.9.9" differs from the manifest\'s "1.2.3"');
  });

  it('reports a hanging analyzer as failing cancel, with its stderr, within the timeouts', async () => {
    const hanging = await buildFixturePlugin({ 'hang.fx': 'log about-to-hang\nconsole stuck-here\nhang\n' });
    try {
      const started = Date.now();
      // The kit's one timeout also bounds the plugin's start up to hello: 3 s leaves a loaded
      // machine room to start Node, while the hanging checks still end quickly.
      const report = await runConformance({ pluginDir: hanging.dir, timeoutMs: 3000 });
      // Bounded by its timeouts (a few checks wait one out each), not hung: the bound is counted
      // in timeouts, and the test's own timeout sits above it so this line is what reports a hang.
      expect(Date.now() - started).toBeLessThan(15 * 3000);
      const analyze = check(report, 'analyze fixtures');
      expect(analyze.ok).toBe(false);
      expect(analyze.detail).toContain('analyze of 1 fixture file(s) failed: analyze got no answer within 3000 ms');
      expect(analyze.detail).toContain('  | stuck-here');
      const cancel = check(report, 'cancel');
      expect(cancel.ok).toBe(false);
      expect(cancel.detail).toMatch(/after cancel, analyze should be answered|no longer answers ping/);
      // Checks that never analyze are unaffected.
      expect(check(report, 'handshake').ok).toBe(true);
      expect(check(report, 'shutdown').ok).toBe(true);
    } finally {
      hanging.cleanup();
    }
  }, 120_000);

  it('reports a program that is not a plugin at all, check by check, without hanging', async () => {
    const bogus = await buildFixturePlugin({ 'a.fx': 'def a\n' });
    try {
      writeFileSync(join(bogus.dir, 'dist', 'main.js'), "process.stdout.write('Hello, world!\\n'); setTimeout(() => {}, 60_000);\n");
      // Long enough for the program's first output to arrive on a loaded machine (the kit's
      // decoder must see it to refuse it), short enough for the cookie check to wait out.
      const report = await runConformance({ pluginDir: bogus.dir, timeoutMs: 3000 });
      expect(report.ok).toBe(false);
      expect(check(report, 'manifest').ok).toBe(true);
      const cookie = check(report, 'refuses to run without the host cookie');
      expect(cookie.ok).toBe(false);
      expect(cookie.detail).toContain('still running after 3000 ms');
      const handshake = check(report, 'handshake');
      expect(handshake.ok).toBe(false);
      // "Hell" read as a big-endian length is far over the limit: the kit's decoder refuses it.
      expect(handshake.detail).toMatch(/hello failed: .*(FRAME_TOO_LARGE|over the)/);
      const text = formatReport(report);
      expect(text).toContain('✗ handshake');
      expect(text).toMatch(/FAIL: 1\/14 checks passed/);
    } finally {
      bogus.cleanup();
    }
  });

  it('stops after an invalid manifest, saying what is wrong', async () => {
    const broken = await buildFixturePlugin();
    try {
      writeFileSync(join(broken.dir, 'travsr-plugin.json'), JSON.stringify({ id: 'x', version: 'one' }));
      const report = await runConformance({ pluginDir: broken.dir });
      expect(report.ok).toBe(false);
      expect(report.checks).toHaveLength(1);
      expect(report.checks[0]!.detail).toContain('travsr-plugin.json is invalid');
    } finally {
      broken.cleanup();
    }
  });
});
