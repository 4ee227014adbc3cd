// The rust-analyzer upgrade's runner, with a stand-in `rust-analyzer` (scip-rust-fixture.ts):
// rust-analyzer cannot be installed here. The processes, the process group, the scratch and
// target directories and the index decoding are real.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUST_ANALYZER_HINT, RustAnalyzerError, RustAnalyzerUpgrade, rustAnalyzerEnv } from '../src/scip/rust-analyzer-runner.js';
import { callbacksOver, writeCrate, writeFakeRustAnalyzer, type FakeMode } from './scip-rust-fixture.js';
import { processAlive } from '../../../host/src/paths/process-alive.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-rust-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const logs: { level: string; message: string }[] = [];
const log = (level: string, message: string) => void logs.push({ level, message });

let made = 0;
/** A fresh repository holding the fixture crate, a stand-in rust-analyzer, and scratch and target directories. */
function setup(mode: FakeMode = 'ok') {
  const base = join(dir, `case-${made++}`);
  const repo = join(base, 'repo');
  writeCrate(repo);
  const scratch = join(base, 'tmp');
  const targetDir = join(base, 'target');
  mkdirSync(scratch, { recursive: true });
  return { repo, scratch, targetDir, tool: writeFakeRustAnalyzer(join(base, 'bin'), mode) };
}

/** What the stand-in saw: its arguments, working directory and environment. */
function recorded(targetDir: string): { args: string[]; cwd: string; env: Record<string, string> } {
  return JSON.parse(readFileSync(join(targetDir, 'fake-rust-analyzer.json'), 'utf8')) as {
    args: string[];
    cwd: string;
    env: Record<string, string>;
  };
}

describe('RustAnalyzerUpgrade.available', () => {
  it('is off by default, and names what to install when it is on but rust-analyzer is not on PATH', () => {
    const off = RustAnalyzerUpgrade.available({ tools: { 'rust-analyzer': '/usr/bin/rust-analyzer' } });
    expect(off).toEqual({
      missing: expect.stringMatching(/upgrade is off .*travsr config set plugins\.options\.lang-rust\.rustAnalyzer true/) as unknown,
      requested: false,
    });
    const missing = RustAnalyzerUpgrade.available({ rustAnalyzer: 'true', tools: {} });
    expect(missing).toEqual({ missing: expect.stringContaining(RUST_ANALYZER_HINT) as unknown, requested: true });
    expect('missing' in missing && missing.missing).toMatch(
      /^rustAnalyzer is on, but rust-analyzer is not on PATH: .*rust-analyzer release binary/,
    );
    expect(RustAnalyzerUpgrade.available({ rustAnalyzer: 'true', tools: { 'rust-analyzer': '/opt/ra/rust-analyzer' } })).toEqual({
      tool: '/opt/ra/rust-analyzer',
    });
    expect(RustAnalyzerUpgrade.available({ rustAnalyzer: true, tools: { 'rust-analyzer': '/opt/ra/rust-analyzer' } })).toEqual({
      tool: '/opt/ra/rust-analyzer',
    });
    expect(RustAnalyzerUpgrade.available({ rustAnalyzer: 'false', tools: { 'rust-analyzer': '/opt/ra/rust-analyzer' } })).toMatchObject({
      requested: false,
    });
  });
});

describe('rustAnalyzerEnv', () => {
  it('runs cargo offline with its target directory given, the tool’s directory first on PATH, toolchain variables kept', () => {
    const env = rustAnalyzerEnv(
      { tool: '/opt/rust/bin/rust-analyzer', targetDir: '/tmp/ra/target' },
      { PATH: '/usr/bin:/bin', HOME: '/tmp', RUSTUP_HOME: '/opt/rustup', SECRET_TOKEN: 'x' },
    );
    expect(env).toEqual({
      PATH: '/opt/rust/bin:/usr/bin:/bin',
      HOME: '/tmp',
      LANG: 'C.UTF-8',
      CARGO_NET_OFFLINE: 'true',
      CARGO_TARGET_DIR: '/tmp/ra/target',
      CARGO_TERM_COLOR: 'never',
      RUSTUP_HOME: '/opt/rustup',
    });
  });
});

describe('RustAnalyzerUpgrade.run', () => {
  it('runs `rust-analyzer scip` offline on the repository and decodes its index onto repository paths, once per upgrade', async () => {
    const { repo, scratch, targetDir, tool } = setup();
    logs.length = 0;
    const upgrade = new RustAnalyzerUpgrade(tool, { scratchDir: scratch, targetDir });
    const index = await upgrade.run(repo, new AbortController().signal, log);
    const seen = recorded(targetDir);
    expect(seen.args.slice(0, 2)).toEqual(['scip', repo]);
    expect(seen.args.slice(2)).toEqual([
      '--output',
      expect.stringMatching(new RegExp(`^${scratch}/rust-analyzer-[^/]+/index-0\\.scip$`)),
      '--exclude-vendored-libraries',
    ]);
    expect(seen.cwd).toBe(repo);
    expect(seen.env).toMatchObject({ CARGO_NET_OFFLINE: 'true', CARGO_TARGET_DIR: targetDir });
    expect(index.documentCount).toBe(4);
    expect(index.has('src/lib.rs')).toBe(true);
    expect(index.callEdges('src/lib.rs', callbacksOver()).length).toBeGreaterThan(0);
    expect(logs.at(-1)).toEqual({
      level: 'info',
      message: expect.stringMatching(/^rust-analyzer 0\.3\.2045-standalone indexed 4 files in \d+ s$/) as unknown,
    });
    // The scratch directory is cleaned; the target directory given is kept for the next session.
    expect(readdirSync(scratch)).toEqual([]);
    expect(existsSync(join(targetDir, 'fake-rust-analyzer.json'))).toBe(true);
    // Once per session: the second call is the same index, without running rust-analyzer again.
    rmSync(join(targetDir, 'fake-rust-analyzer.json'));
    expect(await upgrade.run(repo, new AbortController().signal, log)).toBe(index);
    expect(existsSync(join(targetDir, 'fake-rust-analyzer.json'))).toBe(false);
  });

  it('keeps cargo’s output in the scratch directory when no target directory is given, and removes it after', async () => {
    const { repo, scratch, tool } = setup();
    await new RustAnalyzerUpgrade(tool, { scratchDir: scratch }).run(repo, new AbortController().signal, log);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('runs once per Cargo workspace given, keeping the others when one fails', async () => {
    const { repo, scratch, targetDir, tool } = setup();
    const [a, b] = [join(repo, 'crates', 'a'), join(repo, 'crates', 'b')];
    writeCrate(a);
    writeCrate(b);
    writeFileSync(join(b, 'BROKEN'), '');
    logs.length = 0;
    const index = await new RustAnalyzerUpgrade(tool, { scratchDir: scratch, targetDir }).run(repo, new AbortController().signal, log, [
      a,
      b,
    ]);
    expect(index.has('crates/a/src/lib.rs')).toBe(true);
    expect(index.has('crates/b/src/lib.rs')).toBe(false);
    expect(logs.find((l) => l.level === 'warn')?.message).toMatch(
      new RegExp(`^rust-analyzer exited with 1 after \\d+ s on ${b}: .*the other workspaces are indexed without it$`),
    );
    expect(logs.at(-1)?.message).toMatch(/indexed 4 files in \d+ s \(1 of 2 workspaces\)$/);
  });

  it('works with a rust-analyzer older than --exclude-vendored-libraries', async () => {
    const { repo, scratch, targetDir, tool } = setup('old');
    const index = await new RustAnalyzerUpgrade(tool, { scratchDir: scratch, targetDir }).run(repo, new AbortController().signal, log);
    expect(index.documentCount).toBe(4);
    expect(recorded(targetDir).args).not.toContain('--exclude-vendored-libraries');
  });
});

describe('RustAnalyzerUpgrade.run failures', () => {
  it('fails with RUST_ANALYZER_FAILED: what rust-analyzer said, why (cargo offline), what to do; and runs again on the next call', async () => {
    const { repo, scratch, targetDir, tool } = setup('fail');
    const upgrade = new RustAnalyzerUpgrade(tool, { scratchDir: scratch, targetDir });
    const first = upgrade.run(repo, new AbortController().signal, log);
    await expect(first).rejects.toThrow(RustAnalyzerError);
    const error = (await first.catch((e: unknown) => e)) as RustAnalyzerError;
    expect(error.code).toBe('RUST_ANALYZER_FAILED');
    expect(error.message).toMatch(new RegExp(`^rust-analyzer exited with 1 after \\d+ s on ${repo}: Error: Failed to load workspace`));
    expect(error.message).toContain('--offline was specified');
    expect(error.message).toContain(
      'rust-analyzer runs cargo offline in the sandbox: the dependencies must already be in cargo’s registry cache or vendored',
    );
    expect(error.message).toMatch(
      /Phase B keeps the native resolver's edges \(set the plugin option rustAnalyzer to false to skip the upgrade\)$/,
    );
    // Not cached: a second call runs rust-analyzer again (and fails again here).
    rmSync(join(targetDir, 'fake-rust-analyzer.json'));
    await expect(upgrade.run(repo, new AbortController().signal, log)).rejects.toThrow(/exited with 1/);
    expect(existsSync(join(targetDir, 'fake-rust-analyzer.json'))).toBe(true);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('says so when rust-analyzer writes no index, or one that is not SCIP', async () => {
    const none = setup('no-index');
    await expect(
      new RustAnalyzerUpgrade(none.tool, { scratchDir: none.scratch }).run(none.repo, new AbortController().signal, log),
    ).rejects.toThrow(/^rust-analyzer exited 0 but wrote no index at .*index-0\.scip/);
    const garbage = setup('garbage');
    await expect(
      new RustAnalyzerUpgrade(garbage.tool, { scratchDir: garbage.scratch }).run(garbage.repo, new AbortController().signal, log),
    ).rejects.toMatchObject({
      code: 'RUST_ANALYZER_FAILED',
      message: expect.stringMatching(/^rust-analyzer wrote an index that cannot be read \(/) as unknown,
    });
  });

  it('says what to install when the tool cannot be started', async () => {
    const { repo, scratch } = setup();
    await expect(
      new RustAnalyzerUpgrade(join(dir, 'no-such-rust-analyzer'), { scratchDir: scratch }).run(repo, new AbortController().signal, log),
    ).rejects.toThrow(/^rust-analyzer could not be started \(spawn .*ENOENT\).*put a rust-analyzer release binary/);
  });

  it('is stopped with the processes it started when the request is cancelled', async () => {
    const { repo, scratch, targetDir, tool } = setup('hang');
    const controller = new AbortController();
    const running = new RustAnalyzerUpgrade(tool, { scratchDir: scratch, targetDir }).run(repo, controller.signal, log);
    const pidsFile = join(targetDir, 'pids');
    // A busy machine may take seconds to start the stand-in: wait for it (up to 60 s), not a fixed short while.
    for (let i = 0; i < 2400 && !existsSync(pidsFile); i++) await new Promise((r) => setTimeout(r, 25));
    const pids = readFileSync(pidsFile, 'utf8').split(' ').map(Number);
    expect(pids.every(processAlive)).toBe(true);
    controller.abort();
    await expect(running).rejects.toThrow(
      /^rust-analyzer was stopped \(the analyze request was cancelled or ran out of time\) after \d+ s on /,
    );
    // rust-analyzer and the cargo it started (here `sleep 30`) are gone.
    for (let i = 0; i < 500 && pids.some(processAlive); i++) await new Promise((r) => setTimeout(r, 20));
    expect(pids.filter(processAlive)).toEqual([]);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('is stopped after timeoutMs when one is set', async () => {
    const { repo, scratch, targetDir, tool } = setup('hang');
    // Long enough for the stand-in to start and write its pids on a busy machine; it then hangs until stopped.
    await expect(
      new RustAnalyzerUpgrade(tool, { scratchDir: scratch, targetDir, timeoutMs: 5_000 }).run(repo, new AbortController().signal, log),
    ).rejects.toThrow(/^rust-analyzer did not finish within 5 s after \d+ s on /);
    const pids = readFileSync(join(targetDir, 'pids'), 'utf8').split(' ').map(Number);
    for (let i = 0; i < 500 && pids.some(processAlive); i++) await new Promise((r) => setTimeout(r, 20));
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it('logs now and then while rust-analyzer runs, with its last line of output, so the host does not take the plugin for hung', async () => {
    const { repo, scratch, tool } = setup('slow');
    logs.length = 0;
    await expect(
      new RustAnalyzerUpgrade(tool, { scratchDir: scratch, heartbeatMs: 100 }).run(repo, new AbortController().signal, log),
    ).rejects.toThrow(RustAnalyzerError);
    expect(
      logs.some(
        (l) =>
          // The seconds run depend on how busy the machine is.
          l.level === 'info' &&
          l.message.startsWith(`rust-analyzer is still indexing ${repo} (`) &&
          l.message.endsWith(' s; last: rust-analyzer: Loading crate graph)'),
      ),
    ).toBe(true);
  });
});
