// Issue 12, finding 10 (part): a malicious plugin inside the standard or native-ipc tier makes
// the system calls a sandbox escape or a kernel exploit starts from. Namespaces alone let every
// one of them reach the kernel (ptrace → ESRCH, unshare → ok, personality → ok, …); with the
// seccomp filter each fails with EPERM before the kernel looks at it (clone3 and io_uring with
// ENOSYS, so that libc and libuv fall back).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJson, runInSandbox, syscallProbePlugin } from '../sandbox/sandbox-harness.js';

const DENIED = {
  ptrace: 'EPERM',
  process_vm_readv: 'EPERM',
  keyctl: 'EPERM',
  add_key: 'EPERM',
  bpf: 'EPERM',
  perf_event_open: 'EPERM',
  mount: 'EPERM',
  umount2: 'EPERM',
  unshare: 'EPERM',
  setns: 'EPERM',
  clone_newns: 'EPERM',
  clone3: 'ENOSYS',
  personality: 'EPERM',
  userfaultfd: 'EPERM',
  io_uring_setup: 'ENOSYS',
  name_to_handle_at: 'EPERM',
  ioctl_tiocsti: 'EPERM',
  socket_vsock: 'EAFNOSUPPORT',
  modify_ldt: 'EPERM',
};
/** Still allowed: what Node, libuv and Go's runtime use. */
const ALLOWED = { getpid: 'ok', socket_unix: 'ok', socket_inet: 'ok', socket_netlink: 'ok' };

describe('finding 10: the sandbox has no seccomp filter (namespaces are the only barrier)', () => {
  let plugin: Awaited<ReturnType<typeof syscallProbePlugin>>;
  beforeAll(async () => {
    plugin = await syscallProbePlugin();
  });
  afterAll(() => rmSync(plugin.dir, { recursive: true, force: true }));

  for (const tier of ['standard', 'native-ipc'] as const) {
    it(`${tier}: ptrace, keyrings, bpf, mount, unshare, setns, namespace clones, personality, userfaultfd, io_uring and TIOCSTI, rare socket families and modify_ldt are refused; ordinary calls are not`, async () => {
      const manifest = {
        ...plugin.manifest,
        constraints: { ...plugin.manifest.constraints, ipc: tier === 'native-ipc' ? ('posix-shm' as const) : ('none' as const) },
      };
      const run = await runInSandbox(manifest, { tier, pluginDir: plugin.dir });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(lastJson(run)).toEqual({ ...DENIED, ...ALLOWED });
    });
  }
});
