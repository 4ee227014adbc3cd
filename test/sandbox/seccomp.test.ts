// The seccomp filter, for real: the committed programs are what libseccomp makes of the
// policy today, Node plugins keep working under it, and the elevated tier (build tools behind
// the proxy) gets it too. The attack itself (each denied call from inside standard and
// native-ipc) is test/security/seccomp-filter.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJson, probeManifest, repoTop, runInSandbox, syscallProbePlugin } from './sandbox-harness.js';

const linuxProfiles = join(repoTop, 'sandbox-profiles/linux');

it('the committed seccomp-<arch>.bpf are byte for byte what seccomp-generate.py (libseccomp) makes of seccomp.json', async () => {
  const out = mkdtempSync(join(tmpdir(), 'travsr-seccomp-gen-'));
  try {
    // /usr/bin/python3: the Debian interpreter python3-seccomp installs into (a pyenv or venv python lacks it).
    const r = await execa('/usr/bin/python3', [join(linuxProfiles, 'seccomp-generate.py'), '--out', out], { reject: false });
    expect(r.exitCode, `${r.stderr}\n(CI installs python3-seccomp in .ci/run; locally: apt-get install python3-seccomp)`).toBe(0);
    const made = readdirSync(out).sort();
    expect(made).toEqual(['seccomp-aarch64.bpf', 'seccomp-blobs.json', 'seccomp-x86_64.bpf']);
    for (const name of made) {
      expect(
        readFileSync(join(out, name)).equals(readFileSync(join(linuxProfiles, name))),
        `sandbox-profiles/linux/${name} is stale: run python3 sandbox-profiles/linux/seccomp-generate.py and commit the result`,
      ).toBe(true);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

describe('Node under the filter (real bwrap)', () => {
  for (const tier of ['standard', 'elevated'] as const) {
    it(`${tier}: threads, a worker thread, child processes (sh and node), files and timers still work`, async () => {
      const run = await runInSandbox(probeManifest('node-under-filter.mjs'), { tier });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(lastJson(run)).toEqual({ worker: 42, child: 'child-21', nodeChild: 'true', file: 'written', seccomp: '2' });
    });
  }
});

describe('elevated tier gets the filter too (real bwrap)', () => {
  let plugin: Awaited<ReturnType<typeof syscallProbePlugin>>;
  beforeAll(async () => {
    plugin = await syscallProbePlugin();
  });
  afterAll(() => rmSync(plugin.dir, { recursive: true, force: true }));

  it('ptrace, mount, unshare and bpf fail with EPERM behind the proxy as well', async () => {
    const run = await runInSandbox(plugin.manifest, { tier: 'elevated', pluginDir: plugin.dir });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lastJson(run)).toMatchObject({
      ptrace: 'EPERM',
      mount: 'EPERM',
      unshare: 'EPERM',
      bpf: 'EPERM',
      clone3: 'ENOSYS',
      getpid: 'ok',
    });
  });
});
