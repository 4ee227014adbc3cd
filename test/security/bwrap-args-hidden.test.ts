// Issue 12, finding 10 (part): bwrap's own command line is the sandbox's /proc/1/cmdline, and it
// listed the host paths of the plugin, the repository, the proxy socket's session directory
// (and the plugin's environment values). The options now reach bwrap through a descriptor
// (--args 3) that bwrap closes before the plugin starts.
import { copyFileSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir, lastJson, makeRepo, probeDir, probeManifest, repoTop, runInSandbox } from '../sandbox/sandbox-harness.js';

interface CmdlineReport {
  pid1: string;
  self: string;
  cmdlines: Record<string, string>;
  fds: Record<string, string>;
  mountinfo: string;
}

describe("finding 10: bwrap's own arguments visible in the sandbox reveal host paths", () => {
  let repo = { dir: '', file: '' };
  const home = process.env['TRAVSR_HOME'] ?? '';
  beforeAll(() => {
    repo = makeRepo();
  });
  afterAll(() => rmSync(repo.dir, { recursive: true, force: true }));

  for (const tier of ['standard', 'native-ipc', 'elevated'] as const) {
    it(`${tier}: /proc/1/cmdline, /proc/self/cmdline and every visible command line name no host path of the repository, the plugin, TRAVSR_HOME or the session directory`, async () => {
      const manifest = probeManifest('cmdline-probe.mjs', [], tier === 'native-ipc' ? { ipc: 'posix-shm' } : {});
      const run = await runInSandbox(manifest, { tier, repoRoot: repo.dir, env: { TRAVSR_PLUGIN_COOKIE: 'cookie-not-on-a-command-line' } });
      expect(run.exitCode, run.stderr).toBe(0);
      const r = lastJson<CmdlineReport>(run);
      expect(r.pid1).toMatch(/^\S*bwrap --args 3 -- \S*node --max-old-space-size=\d+ \/plugin\/cmdline-probe\.mjs $/);
      expect(r.self).toMatch(/^\S*node --max-old-space-size=\d+ \/plugin\/cmdline-probe\.mjs $/);
      const secrets = [repo.dir, probeDir, repoTop, tmpdir() + '/travsr-sbx-', 'cookie-not-on-a-command-line', ...(home ? [home] : [])];
      for (const line of [r.pid1, r.self, ...Object.values(r.cmdlines)]) {
        for (const s of secrets) expect(line, `${s} in ${line}`).not.toContain(s);
      }
      // bwrap closed the descriptors it read its options and seccomp program from.
      for (const target of Object.values(r.fds)) expect(target).not.toMatch(/bwrap\.args|seccomp\.bpf/);
    });
  }

  it('a Node binary outside /usr (nvm, a home directory) runs as /run/travsr/node: its host path is not on the command line either', async () => {
    const dir = cacheDir('node-outside-usr');
    const node = join(dir, 'node');
    try {
      try {
        linkSync(process.execPath, node);
      } catch {
        copyFileSync(process.execPath, node); // another file system, or protected_hardlinks
      }
      const run = await runInSandbox(probeManifest('cmdline-probe.mjs'), { repoRoot: repo.dir, nodePath: node });
      expect(run.exitCode, run.stderr).toBe(0);
      const r = lastJson<CmdlineReport>(run);
      expect(r.self).toMatch(/^\/run\/travsr\/node --max-old-space-size=\d+ \/plugin\/cmdline-probe\.mjs $/);
      for (const line of [r.pid1, ...Object.values(r.cmdlines)]) expect(line).not.toContain(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
