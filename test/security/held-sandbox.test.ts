// Attacks that already held, kept from regressing: a malicious plugin. The user indexes a
// repository with a plugin directory they were given; the plugin (test/fixtures/security/
// hostile-plugin.ts) is launched by the real `travsr init` in the standard tier, like any
// plugin, and goes after the host: /proc, the SSH key and environment secrets, writes outside
// its view, loopback TCP, abstract and file unix sockets, DNS, ptrace, a fork bomb and a memory
// bomb. Its only way back is the graph, so what it reached is read out of graph.db.
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORK_BOMB_MARKER,
  type ForkBombReport,
  type HostileTargets,
  type MemoryBombReport,
  type ProbeReport,
} from '../fixtures/security/hostile-report.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';
import { buildHostilePlugin, readAttackedFile } from './helpers/hostile-plugin.js';

const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY----- held-sandbox-planted-key';
const ENV_SECRET = 'held-sandbox-planted-aws-secret';
const MEMORY_LIMIT_MIB = 2048; // sandbox-profiles/limits.json defaults.memoryMiB
const PROCESS_LIMIT = 512; // sandbox-profiles/limits.json defaults.processes

/** Host processes whose command line carries the fork bomb's marker. */
function forkBombSurvivors(): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(FORK_BOMB_MARKER)) out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A listener on the host that counts who got through. */
async function listen(server: Server, at: string | { host: string; port: number }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (typeof at === 'string') server.listen(at, resolve);
    else server.listen(at.port, at.host, resolve);
  });
}

describe('held: a malicious plugin run by `travsr init` stays in its sandbox', () => {
  let pluginDir: string;
  let home: string;
  let repo: GitRepo;
  let run: Awaited<ReturnType<typeof travsr>>;
  let probe: ProbeReport;
  let pluginMainBefore: string;
  const connections = { tcp: 0, abstract: 0, unix: 0 };
  const servers: Server[] = [];
  const counting = (which: keyof typeof connections) =>
    createServer((s) => {
      connections[which]++;
      s.end('hello from the host\n');
    });

  beforeAll(async () => {
    pluginDir = await buildHostilePlugin();
    pluginMainBefore = readFileSync(join(pluginDir, 'main.js'), 'utf8');
    home = mkdtempSync(join(tmpdir(), 'travsr-held-home-'));
    mkdirSync(join(home, '.ssh'), { mode: 0o700 });
    writeFileSync(join(home, '.ssh', 'id_rsa'), `${SSH_KEY}\n`, { mode: 0o600 });

    const tcp = counting('tcp');
    const abstract = counting('abstract');
    const unix = counting('unix');
    servers.push(tcp, abstract, unix);
    await listen(tcp, { host: '127.0.0.1', port: 0 });
    const abstractName = `travsr-held-${process.pid}-${Date.now()}`;
    await listen(abstract, `\0${abstractName}`);
    await listen(unix, join(home, 'host.sock'));

    const targets: HostileTargets = {
      hostPid: process.pid,
      envSecret: ENV_SECRET,
      secretPaths: [join(home, '.ssh', 'id_rsa'), '/etc/shadow', '/etc/passwd', join(process.env.TRAVSR_HOME!, 'lang.toml')],
      writePaths: [join(home, 'pwned.txt'), join(home, '.ssh', 'authorized_keys'), '/plugin/main.js', '/usr/pwned', '/pwned'],
      tcpPort: (tcp.address() as { port: number }).port,
      abstractSocket: abstractName,
      unixSocket: join(home, 'host.sock'),
      realHost: 'example.com',
    };
    repo = new GitRepo('travsr-held-sandbox-');
    repo
      .write({
        '1-probe.txt': JSON.stringify(targets),
        // Bounded so that a sandbox without a process limit could not take the machine down.
        '2-fork-bomb.txt': String(4 * PROCESS_LIMIT),
        '3-memory-bomb.txt': String(4 * MEMORY_LIMIT_MIB),
      })
      .commit('a repository the hostile plugin analyzes');
    run = await travsr(['init', repo.root, '--no-hook', '--json'], {
      env: {
        HOME: home,
        AWS_SECRET_ACCESS_KEY: ENV_SECRET,
        TRAVSR_PLUGINS_DIRS: pluginDir,
        TRAVSR_CORPUS: 'held-sandbox',
      },
    });
    const file = readAttackedFile(repo.root, '1-probe.txt');
    if (!file?.report) throw new Error(`the hostile plugin left no report (exit ${String(run.code)}):\n${run.stdout}\n${run.stderr}`);
    probe = file.report as ProbeReport;
  });

  afterAll(async () => {
    // A sandbox that failed to clean up must not leave the bomb running on the machine.
    for (const pid of forkBombSurvivors()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    repo?.dispose();
    for (const dir of [home, pluginDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the index run completes: the attacks cost the plugin its files, not the host its run', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(readAttackedFile(repo.root, '1-probe.txt')?.status).toBe('ok');
    expect(readAttackedFile(repo.root, '2-fork-bomb.txt')?.status).toBe('ok');
    // The plugin ran and could use what a plugin may: its own /tmp.
    expect(probe.tmpWrite).toEqual({ ok: true, value: 'x' });
  });

  it("reads no secret of the host: not the SSH key in $HOME, not /etc/shadow or passwd, not the user's Travsr state", () => {
    for (const s of probe.secrets) expect(s, s.path).toMatchObject({ ok: false, error: 'ENOENT' });
    const everything = [run.stdout, run.stderr, readFileSync(join(repo.root, '.travsr', 'graph.db')).toString('latin1')].join('\n');
    expect(everything).not.toContain('held-sandbox-planted-key');
  });

  it("does not see the host's environment, nor any process of the host under /proc", () => {
    expect(probe.envLeak).toBe(false);
    expect(probe.envKeys).not.toContain('AWS_SECRET_ACCESS_KEY');
    expect(probe.envKeys).not.toContain('TRAVSR_HOME');
    expect(probe.procLeaks).toBe(0);
    expect(probe.procPids).not.toContain(process.pid);
    expect(probe.hostProcEnviron).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(probe.hostProcMem).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(JSON.stringify(probe)).not.toContain(ENV_SECRET);
  });

  it('cannot signal or ptrace a host process (it does not exist in the sandbox)', () => {
    expect(probe.hostSignal).toMatchObject({ ok: false, error: 'ESRCH' });
    // python3 under /usr gives the plugin a raw ptrace(2); without it only the /proc checks above apply.
    if (probe.ptrace.error !== 'NO_PYTHON') {
      expect(probe.ptrace.ok, JSON.stringify(probe.ptrace)).toBe(true);
      // "-1 <errno>|0|null": ESRCH (3) or EPERM (1); or python killed for the system call (a
      // seccomp filter); never "0 …" (attached).
      expect(probe.ptrace.value).toMatch(/^-1 (3|1)\|0\|null$|^\|null\|SIG[A-Z]+$/);
    }
  });

  it('writes nothing outside its /tmp: not $HOME, not its own plugin files, not the repository, not / or /usr', () => {
    expect(probe.writes).toHaveLength(6);
    for (const w of probe.writes) expect(w.ok, w.path).toBe(false);
    expect(existsSync(join(home, 'pwned.txt'))).toBe(false);
    expect(existsSync(join(home, '.ssh', 'authorized_keys'))).toBe(false);
    expect(existsSync(join(repo.root, 'pwned.txt'))).toBe(false);
    expect(readFileSync(join(pluginDir, 'main.js'), 'utf8')).toBe(pluginMainBefore);
  });

  it('reaches nothing on the network: loopback TCP, an abstract unix socket, a unix socket file, DNS', () => {
    expect(probe.loopbackTcp).toMatchObject({ ok: false });
    expect(probe.loopbackTcp.error).toMatch(/ECONNREFUSED|ENETUNREACH/);
    expect(probe.abstractSocket).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
    expect(probe.unixSocket).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(probe.dnsLocalhost.ok).toBe(false);
    expect(probe.dnsReal.ok).toBe(false);
    expect(connections).toEqual({ tcp: 0, abstract: 0, unix: 0 });
  });

  it('a fork bomb stops at the process limit (fork fails), and none of its detached shells outlives the run', () => {
    const bomb = readAttackedFile(repo.root, '2-fork-bomb.txt')?.report as ForkBombReport;
    // The shell gives up when fork fails ("Cannot fork", or "fork: … Resource temporarily unavailable").
    expect(bomb.stderr, JSON.stringify(bomb)).toMatch(/fork/i);
    expect(bomb.spawned).toBeGreaterThan(0);
    // The limit stopped it well before the 4 × limit shells it asked for. The count is of shells
    // started, not alive at once: a background shell whose own fork of `sleep` fails exits and
    // frees its slot, so on a loaded machine the count can pass the limit (627 of 512 seen on CI).
    expect(bomb.spawned).toBeLessThan(2 * PROCESS_LIMIT);
    expect(forkBombSurvivors()).toEqual([]);
  });

  it('a memory bomb is stopped at the memory limit, long before its goal', () => {
    const file = readAttackedFile(repo.root, '3-memory-bomb.txt');
    expect(file).toBeDefined();
    const bomb = file!.report as MemoryBombReport | undefined;
    if (bomb === undefined) {
      // Killed before it could answer: the host recorded the file as failed and went on.
      expect(file!.status).toBe('failed');
      expect(file!.reason).toMatch(/PLUGIN_|memory|killed|crash/i);
    } else {
      expect(bomb.stoppedBy, JSON.stringify(bomb)).not.toBeNull();
      expect(bomb.reachedMiB).toBeLessThanOrEqual(MEMORY_LIMIT_MIB);
    }
  });
});
