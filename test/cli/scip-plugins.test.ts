// The plugins whose Phase B is an external SCIP indexer (lang-ruby, …), end to end with the real
// CLI, the built-in registry and the real sandbox: `lang install`, Phase A alone while the tool is
// missing (and why), then with a stand-in indexer on PATH (each plugin's test/fixture-project.ts:
// it checks how it is called and writes the index the real tool writes for a small project) the
// host finds and binds it, the sandboxed plugin runs it on the project it discovers, and callers
// come back resolved. One repository holds every plugin's project, in its own directory, so one
// index run exercises them all; lang-go has its own test (lang-go.test.ts).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

/** What a plugin's test/fixture-project.ts exports for this test. */
interface FixtureModule {
  writeProject(dir: string): void;
  writeFakeTools(binDir: string, mode?: 'ok' | 'fail' | 'slow' | 'download' | 'ipc'): string;
}

interface PluginCase {
  plugin: string;
  language: string;
  /** The indexer, as `lang list` and the unavailable reason name it. */
  tool: string;
  /** Every tool its Phase B needs, as `lang list` says it (`scip-php and php`). */
  needs: string;
  /** Files in a directory that say its project is this plugin's, for a tool two plugins share (scip-java). */
  markers: string[];
  tier: 'standard' | 'native-ipc' | 'elevated';
  fixture: () => Promise<FixtureModule>;
  /** The stand-in's mode in the run that must resolve (default ok): `ipc` for a native-ipc tool. */
  okMode?: 'ipc';
  /** A callee (as `graph callers` takes it) and the qualified name of a caller the index resolves. */
  callee: string;
  caller: string;
}

const CASES: PluginCase[] = [
  {
    plugin: 'lang-ruby',
    language: 'ruby',
    tool: 'scip-ruby',
    needs: 'scip-ruby',
    markers: ['Gemfile'],
    tier: 'standard',
    fixture: () => import('../../plugins/lang-ruby/test/fixture-project.js'),
    callee: 'Shop.Pricing.price',
    caller: 'Shop.Cart.total',
  },
  {
    plugin: 'lang-php',
    language: 'php',
    tool: 'scip-php',
    needs: 'scip-php and php',
    markers: ['composer.json'],
    tier: 'standard',
    fixture: () => import('../../plugins/lang-php/test/fixture-project.js'),
    callee: 'Tariff.price',
    caller: 'Order.total',
  },
  {
    plugin: 'lang-swift',
    language: 'swift',
    tool: 'scip-swift',
    needs: 'scip-swift and swift',
    markers: ['Package.swift'],
    tier: 'standard',
    fixture: () => import('../../plugins/lang-swift/test/fixture-project.js'),
    callee: 'Rates.price',
    caller: 'Checkout.total',
  },
  {
    plugin: 'lang-java',
    language: 'java',
    tool: 'scip-java',
    needs: 'scip-java and java',
    markers: ['pom.xml'],
    tier: 'elevated',
    fixture: () => import('../../plugins/lang-java/test/fixture-project.js'),
    callee: 'Pricing.price',
    caller: 'Cart.total',
  },
  {
    plugin: 'lang-kotlin',
    language: 'kotlin',
    tool: 'scip-java',
    needs: 'scip-java and java',
    markers: ['settings.gradle.kts', 'settings.gradle', 'build.gradle.kts', 'build.gradle'],
    tier: 'elevated',
    fixture: () => import('../../plugins/lang-kotlin/test/fixture-project.js'),
    callee: 'Pricing.price',
    caller: 'Cart.total',
  },
  {
    plugin: 'lang-scala',
    language: 'scala',
    tool: 'scip-java',
    needs: 'scip-java and java and sbt',
    markers: ['build.sbt'],
    tier: 'elevated',
    fixture: () => import('../../plugins/lang-scala/test/fixture-project.js'),
    callee: 'Pricing.price',
    caller: 'Cart.total',
  },
  {
    plugin: 'lang-clang',
    language: 'c',
    tool: 'scip-clang',
    needs: 'scip-clang',
    markers: ['CMakeLists.txt'],
    tier: 'native-ipc',
    // As scip-clang's driver and workers: POSIX shared memory and a message queue, no network.
    okMode: 'ipc',
    fixture: () => import('../../plugins/lang-clang/test/fixture-project.js'),
    callee: 'ring_push',
    caller: 'main',
  },
  {
    plugin: 'lang-dart',
    language: 'dart',
    tool: 'scip_dart',
    needs: 'scip_dart and dart',
    markers: ['pubspec.yaml'],
    tier: 'native-ipc',
    fixture: () => import('../../plugins/lang-dart/test/fixture-project.js'),
    callee: 'Pricing.price',
    caller: 'Cart.total',
  },
  {
    plugin: 'lang-csharp',
    language: 'csharp',
    tool: 'scip-dotnet',
    needs: 'scip-dotnet and dotnet',
    markers: ['*.sln', '*.csproj'],
    tier: 'elevated',
    fixture: () => import('../../plugins/lang-csharp/test/fixture-project.js'),
    callee: 'Shop.Checkout.Pricing.Price',
    caller: 'Shop.Checkout.Cart.Total',
  },
];

interface ListJson {
  languages: {
    language: string;
    plugin: string;
    state: string;
    tier?: string;
    phases?: string[];
    note?: string;
    phaseB?: string;
    tools?: { name: string; found: boolean }[];
  }[];
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
// Nothing that could hold a real indexer: the test decides what is on PATH.
const BARE_PATH = '/usr/sbin:/sbin:/bin';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-scip-plugins-'));
  home = join(work, 'home');
  repo = join(work, 'repo');
  mkdirSync(home, { recursive: true });
  for (const mode of MODES) {
    const shared = new Map<string, { markers: string[]; path: string }[]>();
    for (const c of CASES) {
      const fixture = await c.fixture();
      if (mode === 'ok') fixture.writeProject(join(repo, c.language));
      const dir = join(work, 'tools', mode, 'lib', c.plugin);
      // Only a standard-tier tool is tried downloading (the elevated tiers' downloads are test/cli/scip-tiers.test.ts's).
      const tool = fixture.writeFakeTools(
        dir,
        mode === 'download' && c.tier !== 'standard' ? (c.okMode ?? 'ok') : mode === 'ok' ? (c.okMode ?? 'ok') : mode,
      );
      shared.set(c.tool, [...(shared.get(c.tool) ?? []), { markers: c.markers, path: tool }]);
    }
    // One tool, several plugins (scip-java for Java, Kotlin and Scala): a stand-in that runs the one
    // whose project it is in. In bin/ beside lib/, the host binds the whole tree for it.
    for (const [name, candidates] of shared) if (candidates.length > 1) writeDispatcher(join(work, 'tools', mode, 'bin', name), candidates);
  }
  await execa('git', ['init', '-q', repo]);
  await execa('git', ['-C', repo, 'add', '-A']);
  await execa('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'projects']);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MODES = ['ok', 'fail', 'download'] as const;

/** The tools of a case not on BARE_PATH (a machine may have a JDK in /usr/bin), as `lang list` joins them. */
function missingHere(c: PluginCase): string {
  const onPath = (t: string) => BARE_PATH.split(':').some((d) => existsSync(join(d, t)));
  return c.needs
    .split(' and ')
    .filter((t) => !onPath(t))
    .join(' and ');
}

/** A stand-in that runs the first candidate whose project markers its working directory holds. */
function writeDispatcher(file: string, candidates: { markers: string[]; path: string }[]): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs');
const candidates = ${JSON.stringify(candidates)};
const hit = candidates.find((c) => c.markers.some((m) => fs.existsSync(m)));
if (!hit) { process.stderr.write('no project here\\n'); process.exit(1); }
const r = require('node:child_process').spawnSync(hit.path, process.argv.slice(2), { stdio: 'inherit' });
process.exit(r.status ?? 1);
`,
  );
  chmodSync(file, 0o755);
}

/** PATH with the stand-ins of `mode`: the shared ones first, then each plugin's (its secondary tools too). */
function pathWith(mode: (typeof MODES)[number]): string {
  return [join(work, 'tools', mode, 'bin'), ...CASES.map((c) => join(work, 'tools', mode, 'lib', c.plugin)), BARE_PATH].join(':');
}

const run = (args: string[], path: string) => travsr(args, { cwd: repo, env: { TRAVSR_HOME: home, PATH: path }, timeoutMs: 180_000 });
const pluginOf = (out: string, id: string) => (JSON.parse(out) as IndexJson).plugins.find((x) => x.id === id);

describe('SCIP-bridged language plugins, in the sandbox', () => {
  it('installs each plugin from the built-in registry, in its tier', async () => {
    for (const c of CASES) {
      const r = await run(['lang', 'install', c.language], BARE_PATH);
      expect(r.code, r.stderr).toBe(0);
      // A plugin that needs more than the standard tier is granted it, and the install says so.
      if (c.tier !== 'standard') expect(r.stdout, c.plugin).toContain(`granted the ${c.tier} sandbox tier, which ${c.plugin} asks for`);
    }
    const list = JSON.parse((await run(['lang', 'list', '--json'], BARE_PATH)).stdout) as ListJson;
    for (const c of CASES) {
      const row = list.languages.find((l) => l.language === c.language && l.state === 'active');
      expect(row, c.language).toMatchObject({
        plugin: c.plugin,
        tier: c.tier,
        phases: ['A'],
        note: `Phase B needs ${missingHere(c)} on PATH`,
      });
      expect(row?.tools?.filter((t) => !t.found).map((t) => t.name)).toEqual(missingHere(c).split(' and '));
    }
  }, 240_000);

  it('without the indexers: Phase A, and each plugin says what is missing', async () => {
    const r = await run(['index', '--json'], BARE_PATH);
    expect(r.code, r.stderr).toBe(0);
    for (const c of CASES) {
      const p = pluginOf(r.stdout, c.plugin);
      expect(p?.phases, c.plugin).toEqual(['A']);
      expect(p?.failed).toBe(0);
      expect(p?.unavailable?.[0]?.reason).toMatch(new RegExp(`^${missingHere(c)} (is|are) not on PATH`));
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
      expect(p?.failed, `${c.plugin}: ${JSON.stringify((JSON.parse(r.stdout) as IndexJson).failures.slice(0, 2))}`).toBe(0);
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
