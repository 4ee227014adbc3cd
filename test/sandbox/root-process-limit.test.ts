// As root the kernel ignores RLIMIT_NPROC, so a launch must get a pids cgroup or refuse.
// This hides every cgroup hierarchy behind a read-only remount in a private mount
// namespace (nothing changes for the rest of the machine) and launches from there. The
// child process imports the built host (host/dist), so run `npx tsc -b` first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { probeDir, repoTop } from './sandbox-harness.js';

const dist = join(repoTop, 'host/dist/sandbox/index.js');
const asRoot = process.getuid?.() === 0;

it.skipIf(!asRoot || !existsSync('/usr/bin/unshare') || !existsSync(dist))(
  'as root without a writable pids cgroup, prepareLaunch refuses (SANDBOX_UNAVAILABLE) instead of running without a process limit',
  async () => {
    const child = `
      import { prepareLaunch, defaultLimits } from ${JSON.stringify(dist)};
      import { readFileSync } from 'node:fs';
      const manifest = JSON.parse(readFileSync(${JSON.stringify(join(probeDir, 'travsr-plugin.json'))}, 'utf8'));
      try {
        const cmd = await prepareLaunch({ pluginDir: ${JSON.stringify(probeDir)}, manifest, tier: 'standard', limits: defaultLimits(), env: {} });
        await cmd.cleanup();
        console.log(JSON.stringify({ launched: true }));
      } catch (e) {
        console.log(JSON.stringify({ code: e.code, message: e.message, fix: e.fix }));
      }`;
    const script =
      'for m in $(awk \'$3 ~ /^cgroup2?$/ {print $2}\' /proc/self/mounts); do mount -o remount,bind,ro "$m" || exit 3; done; exec "$@"';
    const r = await execa(
      '/usr/bin/unshare',
      ['--mount', '--propagation', 'private', '/bin/sh', '-c', script, 'sh', process.execPath, '--input-type=module', '-e', child],
      { reject: false },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { code?: string; message?: string; fix?: string };
    expect(out.code).toBe('SANDBOX_UNAVAILABLE');
    expect(out.message).toContain('no writable pids cgroup');
    expect(out.fix).toContain('run Travsr as a non-root user');
  },
);
