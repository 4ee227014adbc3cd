import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLUGIN_MEMORY_MIB, pluginMemoryMiB } from '@travsr/protocol/node';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLimits, maxLimits, resolveLimits } from '../../src/sandbox/index.js';
import { linuxProfile } from '../../src/sandbox/linux-profile.js';
import { sandboxProfilesDir } from '../../src/sandbox/profiles-dir.js';
import { windowsTierProfile } from '../../src/sandbox/windows-plan.js';
import { manifest } from './manifest-fixture.js';

describe('limits', () => {
  it('defaultLimits() is limits.json "defaults", and a fresh copy each time', () => {
    const file = JSON.parse(readFileSync(join(sandboxProfilesDir(), 'limits.json'), 'utf8')) as { defaults: unknown };
    expect(defaultLimits()).toEqual(file.defaults);
    const a = defaultLimits();
    a.cpuSeconds = 1;
    expect(defaultLimits().cpuSeconds).not.toBe(1);
  });

  it('resolveLimits raises to what the manifest asks for, capped at the maximum', () => {
    const base = defaultLimits();
    const r = resolveLimits(manifest({ resources: { memoryMiB: base.memoryMiB * 2, cpuSeconds: 1, processes: maxLimits().processes } }));
    expect(r.memoryMiB).toBe(base.memoryMiB * 2);
    expect(r.cpuSeconds).toBe(base.cpuSeconds); // never lowered
    expect(r.processes).toBe(maxLimits().processes);
  });

  it('a plugin build knows the memory (so the flags) a plugin starts with under the default limits', () => {
    // A plugin's build cannot read limits.json (it writes code caches for the flags): the protocol package keeps its default.
    expect(DEFAULT_PLUGIN_MEMORY_MIB).toBe(defaultLimits().memoryMiB);
    for (const asked of [undefined, 1024, 4096])
      expect(pluginMemoryMiB(asked)).toBe(
        resolveLimits(manifest(asked === undefined ? {} : { resources: { memoryMiB: asked } })).memoryMiB,
      );
  });
});

describe('sandbox-profiles validation', () => {
  const saved = process.env['TRAVSR_SANDBOX_PROFILES'];
  let copy = '';
  const edit = (file: string, change: (json: Record<string, any>) => void): void => {
    copy = mkdtempSync(join(tmpdir(), 'travsr-profiles-'));
    cpSync(sandboxProfilesDir(), copy, { recursive: true });
    const path = join(copy, file);
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
    change(json);
    writeFileSync(path, JSON.stringify(json));
    process.env['TRAVSR_SANDBOX_PROFILES'] = copy;
  };
  afterEach(() => {
    if (saved === undefined) delete process.env['TRAVSR_SANDBOX_PROFILES'];
    else process.env['TRAVSR_SANDBOX_PROFILES'] = saved;
    rmSync(copy, { recursive: true, force: true });
  });

  it('refuses a Linux profile whose standard tier would share the network', () => {
    edit('linux/bwrap.json', (j) => (j['tiers'].standard.unshare = ['user', 'ipc', 'pid']));
    expect(() => linuxProfile()).toThrow(/tiers\.standard must unshare net/);
  });

  it('refuses a Windows profile that grants internetClient', () => {
    edit('windows/elevated.json', (j) => j['appContainer'].capabilities.push('internetClient'));
    expect(() => windowsTierProfile('elevated')).toThrow(/grants internetClient/);
  });

  it('refuses limits whose default is above the maximum', () => {
    edit('limits.json', (j) => (j['defaults'].memoryMiB = j['max'].memoryMiB + 1));
    expect(() => defaultLimits()).toThrow(/defaults\.memoryMiB .* is above max\.memoryMiB/);
  });
});
