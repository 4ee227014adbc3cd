import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/index.js';
import { resolveBwrapPath } from '../../src/sandbox/sandbox-probe.js';
import { ProbeRecord, probeKey } from '../../src/sandbox/probe-record.js';

let home = '';
const savedHome = process.env['TRAVSR_HOME'];
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'travsr-probe-record-'));
  process.env['TRAVSR_HOME'] = home;
});
afterAll(() => {
  process.env['TRAVSR_HOME'] = savedHome;
  rmSync(home, { recursive: true, force: true });
});

const recordFile = () => join(home, 'sandbox-probe.json');

/** probeSandbox() as a new process with this test's Travsr home sees it (the built host). */
async function probeInAnotherProcess(): Promise<unknown> {
  const probe = fileURLToPath(new URL('../../dist/sandbox/sandbox-probe.js', import.meta.url));
  const out = await execa(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { probeSandbox } = await import(${JSON.stringify(probe)}); console.log(JSON.stringify(await probeSandbox()));`,
    ],
    {
      env: { TRAVSR_HOME: home },
    },
  );
  return JSON.parse(out.stdout) as unknown;
}

describe('ProbeRecord', () => {
  it('reads back what it wrote, under the same key only', () => {
    const file = join(home, 'record-a.json');
    new ProbeRecord('k1', file).write({ bwrapVersion: '0.8.0', disableUserns: true });
    expect(new ProbeRecord('k1', file).read()).toEqual({ bwrapVersion: '0.8.0', disableUserns: true });
    expect(new ProbeRecord('k2', file).read()).toBeUndefined();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('ignores a file that is not a record: broken JSON, another format, a version that is not one', () => {
    const file = join(home, 'record-b.json');
    for (const text of [
      '{',
      '[]',
      '{"format":2,"key":"k","bwrapVersion":"0.8.0","disableUserns":true}',
      '{"format":1,"key":"k","bwrapVersion":"0.8; rm -rf","disableUserns":true}',
    ]) {
      writeFileSync(file, text);
      expect(new ProbeRecord('k', file).read()).toBeUndefined();
    }
  });

  it('keys on the files probed: another bwrap (or the same one changed) is another key', () => {
    const bwrap = resolveBwrapPath()!;
    const copy = join(home, 'bwrap-copy');
    copyFileSync(bwrap, copy);
    const base = { prlimitPath: '/usr/bin/prlimit', probe: ['--unshare-all'] };
    const a = probeKey({ ...base, bwrapPath: bwrap });
    expect(probeKey({ ...base, bwrapPath: bwrap })).toBe(a);
    expect(probeKey({ ...base, bwrapPath: copy })).not.toBe(a);
    expect(probeKey({ ...base, bwrapPath: bwrap, probe: ['--unshare-all', '--seccomp'] })).not.toBe(a);
  });
});

describe('the Linux probe and its record', () => {
  it('records a successful probe, and a later process answers from the record without starting bwrap', async () => {
    const first = await probeSandbox('linux', { refresh: true });
    expect(first).toMatchObject({ ok: true, tool: 'bwrap' });
    const version = first.ok ? first.version : '';
    const record = JSON.parse(readFileSync(recordFile(), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ format: 1, bwrapVersion: version });
    // Proof that the record is what answers in the next process: one that says another version is believed.
    writeFileSync(recordFile(), JSON.stringify({ ...record, bwrapVersion: '9.9.9' }));
    expect(await probeInAnotherProcess()).toMatchObject({ ok: true, version: '9.9.9' });
    // A record made under other conditions (here: another key) is not.
    writeFileSync(recordFile(), JSON.stringify({ ...record, key: 'other', bwrapVersion: '9.9.9' }));
    expect(await probeInAnotherProcess()).toMatchObject({ ok: true, version });
    // …and the real probe wrote the truth back.
    expect(JSON.parse(readFileSync(recordFile(), 'utf8'))).toMatchObject({ key: record['key'], bwrapVersion: version });
  });

  it('never records a failure, and a failing bwrap is not answered by another one’s record', async () => {
    const fake = join(home, 'bwrap-fails');
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\necho "bwrap: Operation not permitted" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const before = readFileSync(recordFile(), 'utf8');
    const probe = await probeSandbox('linux', { bwrapPath: fake });
    expect(probe).toMatchObject({ ok: false, reason: expect.stringContaining('user namespaces are blocked') as unknown });
    expect(readFileSync(recordFile(), 'utf8')).toBe(before);
  });
});
