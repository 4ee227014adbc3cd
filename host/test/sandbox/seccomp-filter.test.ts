// Loading the compiled seccomp programs: the right one per architecture, and refusals of a
// policy edited without regenerating, a damaged program, or a policy that drops a tier.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { seccompFilter } from '../../src/sandbox/seccomp-filter.js';

const profiles = resolve(dirname(fileURLToPath(import.meta.url)), '../../../sandbox-profiles');
const scratch = mkdtempSync(join(tmpdir(), 'travsr-seccomp-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  delete process.env['TRAVSR_SANDBOX_PROFILES'];
});

/** A copy of sandbox-profiles/ changed by `edit`, used through TRAVSR_SANDBOX_PROFILES. */
function profilesCopy(name: string, edit: (linuxDir: string) => void): void {
  const dir = join(scratch, name);
  cpSync(profiles, dir, { recursive: true });
  edit(join(dir, 'linux'));
  process.env['TRAVSR_SANDBOX_PROFILES'] = dir;
}

describe('seccompFilter', () => {
  it('gives the x86_64 and aarch64 programs to every sandboxed tier, none elsewhere', () => {
    const x64 = seccompFilter('standard', 'x64');
    expect(x64?.arch).toBe('x86_64');
    expect(x64?.program).toEqual(readFileSync(join(profiles, 'linux/seccomp-x86_64.bpf')));
    expect(seccompFilter('native-ipc', 'arm64')?.program).toEqual(readFileSync(join(profiles, 'linux/seccomp-aarch64.bpf')));
    expect(seccompFilter('elevated', 'x64')).toBeDefined();
    expect(seccompFilter('unsandboxed', 'x64')).toBeUndefined();
    expect(seccompFilter('standard', 'riscv64')).toBeUndefined();
  });

  it('refuses a policy edited without regenerating the programs, naming the generator', () => {
    profilesCopy('stale', (linux) => {
      const file = join(linux, 'seccomp.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"kcmp", ', ''));
    });
    expect(() => seccompFilter('standard', 'x64')).toThrow(
      expect.objectContaining({ code: 'SANDBOX_PROFILE_INVALID', message: expect.stringContaining('seccomp-generate.py') as unknown }),
    );
  });

  it('refuses a damaged program', () => {
    profilesCopy('damaged', (linux) => writeFileSync(join(linux, 'seccomp-x86_64.bpf'), Buffer.alloc(16)));
    expect(() => seccompFilter('standard', 'x64')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('does not match its sha256') as unknown }),
    );
  });

  it('refuses a policy that leaves native-ipc without a filter', () => {
    profilesCopy('no-native-ipc', (linux) => {
      const file = join(linux, 'seccomp.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"tiers": ["standard", "native-ipc", "elevated"]', '"tiers": ["standard"]'));
    });
    expect(() => seccompFilter('standard', 'x64')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('must include native-ipc') as unknown }),
    );
  });
});
