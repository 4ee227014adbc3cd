// The plugins whose Phase B is an external SCIP indexer (lang-ruby, …), end to end with the real
// CLI, the built-in registry and the real sandbox: `lang install`, Phase A alone while the tool is
// missing (and why), then with a stand-in indexer on PATH (each plugin's test/fixture-project.ts:
// it checks how it is called and writes the index the real tool writes for a small project) the
// host finds and binds it, the sandboxed plugin runs it on the project it discovers, and callers
// come back resolved. One repository holds every plugin's project, in its own directory, so one
// index run exercises them all; lang-go has its own test (lang-go.test.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

/** What a plugin's test/fixture-project.ts exports for this test. */
interface FixtureModule {
  writeProject(dir: string): void;
  writeFakeTools(binDir: string, mode?: 'ok' | 'fail' | 'slow' | 'download'): string;
}

interface PluginCase {
  plugin: string;
  language: string;
  /** The indexer, as `lang list` and the unavailable reason name it. */
  tool: string;
  tier: 'standard' | 'native-ipc' | 'elevated';
  fixture: () => Promise<FixtureModule>;
  /** A callee (as `graph callers` takes it) and the qualified name of a caller the index resolves. */
  callee: string;
  caller: string;
}

const CASES: PluginCase[] = [
  {
    plugin: 'lang-ruby',
    language: 'ruby',
    tool: 'scip-ruby',
    tier: 'standard',
    fixture: () => import('../../plugins/lang-ruby/test/fixture-project.js'),
    callee: 'Shop.Pricing.price',
    caller: 'Shop.Cart.total',
  },
];

interface ListJson {
  languages: { language: string; plugin: string; state: string; tier?: string; phases?: string[]; note?: string; phaseB?: string }[];
}
interface IndexJson {
  plugins: { id: string; phases: string[]; unavailable?: { phase: string; reason: string }[]; analyzed: number; failed: number }[];
  failures: { path: string; reason: string }[];
}
interface CallersJson {
  nodes?: { qualifiedName?: string; name: string; path: string; via?: { kind: string; certainty: string } }[];
}

let work: string;
let home: string;
let repo: string;
const bins: Record<string, string> = {};
// Nothing that could hold a real indexer: the test decides what is on PATH.
const BARE_PATH = '/usr/sbin:/sbin:/bin';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-scip-plugins-'));
  home = join(work, 'home');
  repo = join(work, 'repo');
  mkdirSync(home, { recursive: true });
  for (const c of CASES) {
    const fixture = await c.fixture();
    fixture.writeProject(join(repo, c.language));
    for (const mode of ['ok', 'fail', 'download'] as const) {
      bins[`${c.language}:${mode}`] = join(work, 'tools', mode, 'bin');
      fixture.writeFakeTools(bins[`${c.language}:${mode}`]!, mode);
    }
  }
  await execa('git', ['init', '-q', repo]);
  await execa('git', ['-C', repo, 'add', '-A']);
  await execa('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'projects']);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (args: string[], path: string) => travsr(args, { cwd: repo, env: { TRAVSR_HOME: home, PATH: path }, timeoutMs: 180_000 });
const pathWith = (mode: 'ok' | 'fail' | 'download') => `${join(work, 'tools', mode, 'bin')}:${BARE_PATH}`;
const pluginOf = (out: string, id: string) => (JSON.parse(out) as IndexJson).plugins.find((x) => x.id === id);

describe('SCIP-bridged language plugins, in the sandbox', () => {
  it('installs each plugin from the built-in registry, in its tier', async () => {
    const r = await run(['lang', 'install', ...CASES.map((c) => c.language)], BARE_PATH);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse((await run(['lang', 'list', '--json'], BARE_PATH)).stdout) as ListJson;
    for (const c of CASES) {
      const row = list.languages.find((l) => l.language === c.language && l.state === 'active');
      expect(row, c.language).toMatchObject({ plugin: c.plugin, tier: c.tier, phases: ['A'], note: `Phase B needs ${c.tool} on PATH` });
    }
  }, 240_000);

  it('without the indexers: Phase A, and each plugin says what is missing', async () => {
    const r = await run(['index', '--json'], BARE_PATH);
    expect(r.code, r.stderr).toBe(0);
    for (const c of CASES) {
      const p = pluginOf(r.stdout, c.plugin);
      expect(p?.phases, c.plugin).toEqual(['A']);
      expect(p?.failed).toBe(0);
      expect(p?.unavailable?.[0]?.reason).toMatch(new RegExp(`^${c.tool} is not on PATH`));
    }
  }, 240_000);

  it('with the indexers on PATH: the sandboxed plugins run them and callers come back resolved', async () => {
    const path = pathWith('ok');
    const list = JSON.parse((await run(['lang', 'list', '--json'], path)).stdout) as ListJson;
    for (const c of CASES)
      expect(list.languages.find((l) => l.language === c.language && l.state === 'active')?.phases, c.language).toEqual(['A', 'B']);
    const r = await run(['index', '--rebuild', '--json'], path);
    expect(r.code, r.stderr).toBe(0);
    for (const c of CASES) {
      const p = pluginOf(r.stdout, c.plugin);
      expect(p?.phases, c.plugin).toEqual(['A', 'B']);
      expect(p?.unavailable ?? [], c.plugin).toEqual([]);
      expect(p?.failed, c.plugin).toBe(0);
      const callers = await run(['graph', 'callers', c.callee, '--resolved-only', '--json'], path);
      expect(callers.code, callers.stderr).toBe(0);
      const caller = (JSON.parse(callers.stdout) as CallersJson).nodes?.find((n) => n.qualifiedName === c.caller);
      expect(caller?.via, `${c.plugin}: ${c.caller} calls ${c.callee}`).toMatchObject({ kind: 'calls', certainty: 'resolved' });
    }
  }, 300_000);

  it('a standard-tier indexer that tries to download is refused; its files keep their Phase A graph, with the reason', async () => {
    const standard = CASES.filter((c) => c.tier === 'standard');
    const r = await run(['index', '--rebuild', '--json'], pathWith('download'));
    const out = JSON.stringify(JSON.parse(r.stdout));
    for (const c of standard) {
      const p = pluginOf(r.stdout, c.plugin);
      expect(p?.phases, c.plugin).toEqual(['A', 'B']);
      expect(out).toMatch(new RegExp(`${c.tool}: could not download [^"]*: (ENETUNREACH|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|fetch failed)`));
    }
    // The Phase A graph stays: callers are found by name.
    for (const c of standard) {
      const callers = await run(['graph', 'callers', c.callee, '--json'], BARE_PATH);
      expect(callers.code, callers.stderr).toBe(0);
      expect(
        (JSON.parse(callers.stdout) as CallersJson).nodes?.map((n) => n.qualifiedName),
        c.plugin,
      ).toContain(c.caller);
    }
  }, 300_000);
});
