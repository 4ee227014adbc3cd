import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { broughtIndexersFor, splitCommandLine } from '../../src/indexer/brought-indexers.js';

const dir = mkdtempSync(join(tmpdir(), 'brought-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('splitCommandLine', () => {
  it('splits words as a shell does for plain words, quotes and escapes, without expanding anything', () => {
    expect(splitCommandLine(`scip-typescript index --output {output}`)).toEqual(['scip-typescript', 'index', '--output', '{output}']);
    expect(splitCommandLine(`tool "a b" 'c "d"' e\\ f "g\\"h" '' $HOME`)).toEqual(['tool', 'a b', 'c "d"', 'e f', 'g"h', '', '$HOME']);
  });

  it('refuses an unclosed quote', () => {
    expect(() => splitCommandLine('tool "a')).toThrow(/unclosed "/);
  });
});

describe('broughtIndexersFor', () => {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'scip-elixir'), '#!/bin/sh\n');
  chmodSync(join(bin, 'scip-elixir'), 0o755);
  const grant = { tier: 'standard' as const };

  it('is undefined when nothing was brought for the plugin’s languages', () => {
    expect(broughtIndexersFor({ languages: ['go'] }, { commands: { elixir: 'x {output}' } }, grant, bin)).toBeUndefined();
    expect(broughtIndexersFor({ languages: ['go'] }, undefined, grant, bin)).toBeUndefined();
  });

  it('finds the program on PATH, passes its arguments and raises the tier to the highest asked for', () => {
    const plan = broughtIndexersFor(
      { languages: ['elixir', 'zig', 'bash'] },
      {
        commands: { elixir: 'scip-elixir index --output {output}', zig: '/opt/none/scip-zig {output}' },
        tiers: { elixir: 'native-ipc', zig: 'elevated' },
        networks: { zig: 'ziglang.org  pkg.example.com:8443' },
      },
      grant,
      bin,
    );
    expect(plan).toEqual({
      entries: [
        { language: 'elixir', name: 'scip-elixir', args: ['index', '--output', '{output}'] },
        { language: 'zig', name: 'scip-zig', args: ['{output}'] },
      ],
      // /opt/none/scip-zig is absolute and does not exist: the plugin is told it is missing.
      tools: [{ name: 'scip-elixir', path: join(bin, 'scip-elixir'), bind: join(bin, 'scip-elixir') }],
      tier: 'elevated',
      hosts: ['ziglang.org', 'pkg.example.com:8443'],
    });
  });
});
