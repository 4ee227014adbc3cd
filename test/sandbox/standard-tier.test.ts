// The standard tier, for real: bwrap on this machine, the probe plugin inside it.
import { createServer, type Server } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir, lastJson, makeRepo, probeManifest, runInSandbox, type SandboxRun } from './sandbox-harness.js';

type Attempt = { ok: boolean; error?: string; value?: unknown };
interface ProbeReport {
  uid: number;
  cwd: string;
  hostname: string;
  envKeys: string[];
  awsSecret: string | null;
  pid1Environ: Attempt;
  tcp: Attempt;
  dnsLocalhost: Attempt;
  dnsReal: Attempt;
  resolveReal: Attempt;
  secrets: (Attempt & { path: string })[];
  rootListing: Attempt;
  etcListing: Attempt;
  repoRead: Attempt;
  writes: Record<'repo' | 'repoNew' | 'root' | 'usr' | 'plugin' | 'dev' | 'devShm' | 'tmp', Attempt>;
}

describe('standard tier (real bwrap)', () => {
  let listener: Server;
  let port = 0;
  let home = '';
  let repo = { dir: '', file: '' };
  let run: SandboxRun;
  let report: ProbeReport;
  const saved = { HOME: process.env['HOME'], AWS: process.env['AWS_SECRET_ACCESS_KEY'] };

  beforeAll(async () => {
    listener = createServer((s) => s.end('hello from the host\n'));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    port = (listener.address() as { port: number }).port;
    home = cacheDir('home');
    mkdirSync(join(home, '.ssh'), { mode: 0o700 });
    writeFileSync(join(home, '.ssh/id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY----- planted-secret\n', { mode: 0o600 });
    process.env['HOME'] = home;
    process.env['AWS_SECRET_ACCESS_KEY'] = 'planted-aws-secret';
    repo = makeRepo();
    run = await runInSandbox(
      probeManifest('probe.mjs', [
        JSON.stringify({
          tcpPort: port,
          realHost: 'example.com',
          repoFile: '/repo/README.md',
          secretPaths: [join(home, '.ssh/id_rsa'), '/root/.ssh/id_rsa', '/etc/shadow', '/etc/resolv.conf', '/etc/hosts'],
        }),
      ]),
      { repoRoot: repo.dir },
    );
    report = lastJson<ProbeReport>(run);
  });

  afterAll(async () => {
    if (saved.HOME === undefined) delete process.env['HOME'];
    else process.env['HOME'] = saved.HOME;
    if (saved.AWS === undefined) delete process.env['AWS_SECRET_ACCESS_KEY'];
    else process.env['AWS_SECRET_ACCESS_KEY'] = saved.AWS;
    await new Promise<void>((r) => listener.close(() => r()));
    if (home) rmSync(home, { recursive: true, force: true });
    if (repo.dir) rmSync(repo.dir, { recursive: true, force: true });
  });

  it('runs the plugin at all (exit 0, cwd /repo, its own hostname)', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(report.cwd).toBe('/repo');
    expect(report.hostname).toBe('travsr-sandbox');
  });

  it('cannot connect to a listener the host opened on 127.0.0.1', () => {
    expect(report.tcp.ok).toBe(false);
    expect(report.tcp.error).toMatch(/ECONNREFUSED|ENETUNREACH/);
  });

  it('cannot resolve names: localhost and a real host both fail', () => {
    expect(report.dnsLocalhost.ok).toBe(false);
    expect(report.dnsReal.ok).toBe(false);
    expect(report.resolveReal.ok).toBe(false);
  });

  it("cannot read a secret planted in the host's $HOME, nor /root, /etc/shadow, resolv.conf or hosts", () => {
    expect(report.secrets.length).toBe(5);
    for (const s of report.secrets) expect(s, s.path).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(JSON.stringify(report)).not.toContain('planted-secret');
    expect(report.etcListing).toMatchObject({ ok: true, value: ['ld.so.cache'] });
  });

  it("does not see the host's environment (AWS_SECRET_ACCESS_KEY), only its own", () => {
    expect(report.awsSecret).toBeNull();
    // PWD is set by bwrap's --chdir.
    expect(report.envKeys).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR', 'TRAVSR_PLUGIN_COOKIE']);
    expect(report.pid1Environ).toMatchObject({ ok: true, value: false });
    expect(JSON.stringify(report)).not.toContain('planted-aws-secret');
  });

  it('reads the repository but cannot write into it', () => {
    expect(report.repoRead).toMatchObject({ ok: true, value: 'original\n' });
    expect(report.writes.repo).toMatchObject({ ok: false, error: 'EROFS' });
    expect(report.writes.repoNew).toMatchObject({ ok: false, error: 'EROFS' });
    expect(readFileSync(repo.file, 'utf8')).toBe('original\n');
  });

  it('cannot write outside /tmp (/, /usr, /plugin, /dev, /dev/shm) but can write in /tmp', () => {
    for (const where of ['root', 'usr', 'plugin', 'dev', 'devShm'] as const) {
      expect(report.writes[where].ok, where).toBe(false);
    }
    expect(report.writes.tmp).toMatchObject({ ok: true, value: 'x' });
  });
});
