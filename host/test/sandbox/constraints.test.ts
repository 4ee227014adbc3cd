import { describe, expect, it } from 'vitest';
import { ConstraintError, assertConstraints, evaluateConstraints, maxLimits, requiredTier } from '../../src/sandbox/index.js';
import { manifest } from './manifest-fixture.js';

const refused = (checks: { constraint: string; ok: boolean }[]): string[] => checks.filter((c) => !c.ok).map((c) => c.constraint);

describe('requiredTier', () => {
  it('is standard for a plugin that needs nothing', () => expect(requiredTier(manifest())).toBe('standard'));
  it('is native-ipc for posix-shm', () => expect(requiredTier(manifest({ ipc: 'posix-shm' }))).toBe('native-ipc'));
  it('is elevated for a network allowlist', () =>
    expect(requiredTier(manifest({ network: { allow: ['proxy.golang.org'] } }))).toBe('elevated'));
  it('is elevated when both network and posix-shm are asked for', () =>
    expect(requiredTier(manifest({ network: { allow: ['a.example'] }, ipc: 'posix-shm' }))).toBe('elevated'));
});

describe('evaluateConstraints', () => {
  it('accepts a plain plugin in the standard tier and returns every check', () => {
    const checks = evaluateConstraints(manifest(), { tier: 'standard', allowUnsandboxed: false });
    expect(checks.map((c) => c.constraint)).toEqual(['tier', 'network', 'ipc', 'hostApi', 'filesystem']);
    expect(refused(checks)).toEqual([]);
  });

  it('refuses network in the standard tier, naming the constraint and the fix', () => {
    const checks = evaluateConstraints(manifest({ network: { allow: ['registry.npmjs.org'] } }), {
      tier: 'standard',
      allowUnsandboxed: false,
    });
    expect(refused(checks)).toEqual(['tier', 'network']);
    const net = checks.find((c) => c.constraint === 'network');
    expect(net).toMatchObject({ requested: 'hosts registry.npmjs.org', granted: 'none', ok: false });
    expect(net?.reason).toContain('elevated');
  });

  it('refuses posix-shm outside native-ipc', () => {
    const checks = evaluateConstraints(manifest({ ipc: 'posix-shm' }), { tier: 'standard', allowUnsandboxed: false });
    expect(refused(checks)).toEqual(['tier', 'ipc']);
    expect(refused(evaluateConstraints(manifest({ ipc: 'posix-shm' }), { tier: 'native-ipc', allowUnsandboxed: false }))).toEqual([]);
  });

  it('refuses hosts beyond the granted allowlist and names them', () => {
    const m = manifest({ network: { allow: ['a.example.com', 'b.example.com:8443'] } });
    const checks = evaluateConstraints(m, { tier: 'elevated', allowUnsandboxed: false, networkAllow: ['a.example.com'] });
    expect(refused(checks)).toEqual(['network']);
    expect(checks.find((c) => c.constraint === 'network')?.reason).toContain('b.example.com:8443');
  });

  it('accepts hosts covered by a wildcard grant, and takes the manifest list as granted when the grant names none', () => {
    const m = manifest({ network: { allow: ['a.example.com', '*.cdn.example.com:443'] } });
    expect(refused(evaluateConstraints(m, { tier: 'elevated', allowUnsandboxed: false, networkAllow: ['*.example.com'] }))).toEqual([]);
    expect(refused(evaluateConstraints(m, { tier: 'elevated', allowUnsandboxed: false }))).toEqual([]);
  });

  it('treats a bare host as ports 80 and 443 only', () => {
    const m = manifest({ network: { allow: ['a.example.com:8080'] } });
    expect(refused(evaluateConstraints(m, { tier: 'elevated', allowUnsandboxed: false, networkAllow: ['a.example.com'] }))).toEqual([
      'network',
    ]);
  });

  it('refuses network + posix-shm in elevated with a reason that says no sandboxed tier grants both', () => {
    const checks = evaluateConstraints(manifest({ network: { allow: ['a.example'] }, ipc: 'posix-shm' }), {
      tier: 'elevated',
      allowUnsandboxed: false,
    });
    expect(refused(checks)).toEqual(['ipc']);
    expect(checks.find((c) => c.constraint === 'ipc')?.reason).toContain('no sandboxed tier grants both');
  });

  it('refuses hostApi: true in every tier, unsandboxed included', () => {
    expect(refused(evaluateConstraints(manifest({ hostApi: true }), { tier: 'unsandboxed', allowUnsandboxed: true }))).toEqual(['hostApi']);
  });

  it("refuses the unsandboxed tier without the user's consent, naming the command", () => {
    const checks = evaluateConstraints(manifest(), { tier: 'unsandboxed', allowUnsandboxed: false });
    expect(refused(checks)).toEqual(['tier']);
    expect(checks[0]?.reason).toContain('travsr lang allow-unsandboxed probe');
    expect(
      refused(
        evaluateConstraints(manifest({ network: { allow: ['x.example'] }, ipc: 'posix-shm' }), {
          tier: 'unsandboxed',
          allowUnsandboxed: true,
        }),
      ),
    ).toEqual([]);
  });

  it('refuses resources above the host maximum and accepts them below', () => {
    const max = maxLimits();
    const checks = evaluateConstraints(manifest({ resources: { memoryMiB: max.memoryMiB + 1, cpuSeconds: 10 } }), {
      tier: 'standard',
      allowUnsandboxed: false,
    });
    expect(refused(checks)).toEqual(['resources.memoryMiB']);
    expect(checks.find((c) => c.constraint === 'resources.cpuSeconds')?.ok).toBe(true);
  });
});

describe('ConstraintError', () => {
  it('carries the code, every check, and a message naming each failing constraint', () => {
    let error: unknown;
    try {
      assertConstraints(manifest({ network: { allow: ['a.example'] }, hostApi: true }), { tier: 'standard', allowUnsandboxed: false });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConstraintError);
    const e = error as ConstraintError;
    expect(e.code).toBe('CONSTRAINT_REFUSED');
    expect(e.checks.length).toBe(5);
    expect(e.message).toContain('lang-probe@1.0.0 was not started');
    expect(e.message).toContain('constraint network asks for hosts a.example but none is granted');
    expect(e.message).toContain('constraint hostApi');
  });
});
