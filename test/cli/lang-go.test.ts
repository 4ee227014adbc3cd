// `travsr lang install go` end to end with the real CLI, the built-in registry and the
// standard sandbox tier: without scip-go on PATH Go is indexed at Phase A and `lang list`
// says so; with it (a stand-in that writes scip-go's index for the fixture module, since
// scip-go cannot be built here) the host finds it on PATH, binds it into the sandbox, the
// plugin runs it and the graph gets resolved edges with `scip` provenance.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFakeTools, writeModule } from '../../plugins/lang-go/test/fixture-module.js';
import { travsr } from '../helpers/run-cli.js';

interface ListJson {
  languages: { language: string; plugin: string; state: string; phases?: string[]; note?: string }[];
}
interface IndexJson {
  plugins: { id: string; phases: string[]; unavailable?: { phase: string; reason: string }[]; analyzed: number; failed: number }[];
  failures: { path: string; reason: string }[];
}
interface CallersJson {
  nodes?: { qualifiedName?: string; name: string; path: string }[];
}

let work: string;
let home: string;
let repo: string;
let fakeBin: string;
// Nothing that could hold a real scip-go or go: the test decides what is on PATH.
const BARE_PATH = '/usr/sbin:/sbin:/bin';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-lang-go-'));
  home = join(work, 'home');
  repo = join(work, 'repo');
  fakeBin = join(work, 'tools', 'bin');
  mkdirSync(home, { recursive: true });
  writeModule(repo);
  writeFakeTools(fakeBin);
  await execa('git', ['init', '-q', repo]);
  await execa('git', ['-C', repo, 'add', '-A']);
  await execa('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'shop']);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (args: string[], path: string) => travsr(args, { cwd: repo, env: { TRAVSR_HOME: home, PATH: path }, timeoutMs: 180_000 });

describe('travsr lang install go', () => {
  it('installs lang-go from the built-in registry and maps Go to it', async () => {
    const r = await run(['lang', 'install', 'go'], BARE_PATH);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/lang-go@0\.1\.0/);
  });

  it('without scip-go: lang list says active at Phase A and why; index runs Phase A and says what is missing', async () => {
    const list = await run(['lang', 'list', '--json'], BARE_PATH);
    expect(list.code, list.stderr).toBe(0);
    const go = (JSON.parse(list.stdout) as ListJson).languages.find((l) => l.language === 'go' && l.state === 'active');
    expect(go).toMatchObject({ plugin: 'lang-go', phases: ['A'], note: 'Phase B needs scip-go and go on PATH' });
    const text = await run(['lang', 'list'], BARE_PATH);
    expect(text.stdout).toMatch(/go\s+lang-go\s+0\.1\.0\s+standard\s+active at Phase A \(Phase B needs scip-go and go on PATH\)/);

    const r = await run(['index', '--json'], BARE_PATH);
    expect(r.code, r.stderr).toBe(0);
    const p = (JSON.parse(r.stdout) as IndexJson).plugins.find((x) => x.id === 'lang-go')!;
    expect(p.phases).toEqual(['A']);
    expect(p.failed).toBe(0);
    expect(p.analyzed).toBe(4);
    expect(p.unavailable?.[0]).toMatchObject({ phase: 'B' });
    expect(p.unavailable?.[0]?.reason).toMatch(/scip-go and go are not on PATH/);
    const human = await run(['index', '--rebuild'], BARE_PATH);
    expect(human.stdout).toMatch(/phase B not run: scip-go and go are not on PATH/);
    const status = await run(['status'], BARE_PATH);
    expect(status.stdout).toMatch(/go\s+4 files .*phase A \(lang-go@0\.1\.0, standard; Phase B needs scip-go and go on PATH\)/);
  }, 240_000);

  it('with scip-go on PATH: the sandboxed plugin runs it and stores resolved edges', async () => {
    const path = `${fakeBin}:${BARE_PATH}`;
    const list = await run(['lang', 'list', '--json'], path);
    const go = (JSON.parse(list.stdout) as ListJson).languages.find((l) => l.language === 'go' && l.state === 'active');
    expect(go?.phases).toEqual(['A', 'B']);

    const r = await run(['index', '--rebuild', '--json'], path);
    expect(r.code, r.stderr).toBe(0);
    const p = (JSON.parse(r.stdout) as IndexJson).plugins.find((x) => x.id === 'lang-go')!;
    expect(p.phases).toEqual(['A', 'B']);
    expect(p.unavailable ?? []).toEqual([]);
    expect(p.failed).toBe(0);

    // Ledger.Post calls the interface method; memstore's Mem.Load implements it.
    const callers = await run(['graph', 'callers', 'Store.Load', '--resolved-only', '--json'], path);
    expect(callers.code, callers.stderr).toBe(0);
    const c = JSON.parse(callers.stdout) as CallersJson;
    const via = (c.nodes ?? []).find((n) => n.qualifiedName === 'Ledger.Post') as { via?: { kind: string; certainty: string } } | undefined;
    expect(via?.via).toMatchObject({ kind: 'calls', certainty: 'resolved' });
    expect(JSON.stringify(c)).toMatch(/"phase":"A\+B"/);
  }, 240_000);

  it('keeps the Phase A graph and reports the failure when scip-go fails', async () => {
    const broken = join(work, 'broken', 'bin');
    writeFakeTools(broken, { mode: 'fail' });
    const r = await run(['index', '--rebuild', '--json'], `${broken}:${BARE_PATH}`);
    const p = (JSON.parse(r.stdout) as IndexJson).plugins.find((x) => x.id === 'lang-go')!;
    expect(p.phases).toEqual(['A', 'B']);
    expect(p.analyzed).toBe(4);
    expect(JSON.stringify(JSON.parse(r.stdout))).toMatch(/could not load packages/);
    const status = await run(['graph', 'callers', 'Store.Load', '--json'], BARE_PATH);
    expect(status.code, status.stderr).toBe(0);
  }, 240_000);
});
