// The native-ipc tier, for real: POSIX shared memory (/dev/shm) works, everything else is
// as closed as in the standard tier.
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { lastJson, makeRepo, probeManifest, runInSandbox } from './sandbox-harness.js';

type Attempt = { ok: boolean; error?: string };

it('native-ipc: /dev/shm and /tmp are writable; network, DNS and other writes still fail (real bwrap)', async () => {
  const repo = makeRepo();
  const run = await runInSandbox(
    probeManifest('probe.mjs', [JSON.stringify({ tcpPort: 9, realHost: 'example.com', repoFile: '/repo/README.md', secretPaths: [] })], {
      ipc: 'posix-shm',
    }),
    { tier: 'native-ipc', repoRoot: repo.dir },
  );
  rmSync(repo.dir, { recursive: true, force: true });
  const r = lastJson<{ tcp: Attempt; dnsReal: Attempt; writes: Record<string, Attempt> }>(run);
  expect(r.writes['devShm']?.ok).toBe(true);
  expect(r.writes['tmp']?.ok).toBe(true);
  for (const where of ['repo', 'root', 'usr', 'plugin', 'dev']) expect(r.writes[where]?.ok, where).toBe(false);
  expect(r.tcp.ok).toBe(false);
  expect(r.dnsReal.ok).toBe(false);
});
