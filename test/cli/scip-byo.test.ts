// "Bring your own SCIP indexer" end to end, with the real CLI and sandbox: a command configured for
// a language (`[lang.<language>.scip] command = "… {output} …"`) runs in the sandbox of the plugin
// serving the language and becomes its Phase B —
// - for Elixir, whose plugin (lang-structural) has no Phase B of its own, with a stand-in indexer;
// - for TypeScript and Python, with the real scip-typescript and scip-python from npm on real code,
//   whose edges must agree with those of the plugins' native Phase B where both resolve a call.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scipDocumentAt, writeFakeIndexer } from '@travsr/sdk/testing';
import { installScipPython, SOURCES as PYTHON_SOURCES } from '../../plugins/lang-python/test/scip-python-fixture.js';
import { travsr } from '../helpers/run-cli.js';

const repoTop = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCIP_TYPESCRIPT_VERSION = '0.4.0';
// Nothing that could hold a real indexer: the test decides what is on PATH.
const BARE_PATH = '/usr/local/bin:/usr/bin:/bin';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-scip-byo-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function gitRepo(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  await execa('git', ['init', '-q', dir]);
  await execa('git', ['-C', dir, 'add', '-A']);
  await execa('git', ['-C', dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'code']);
}

interface IndexJson {
  plugins: { id: string; phases: string[]; unavailable?: { phase: string; reason: string }[]; analyzed: number; failed: number }[];
}

/** The call edges of `graph export --format jsonl`, by provenance: `caller qualified name -> callee path#qualified name`. */
async function callEdges(repo: string, env: Record<string, string>): Promise<Map<string, Set<string>>> {
  const out = join(work, `export-${Math.random().toString(36).slice(2)}.jsonl`);
  const r = await travsr(['graph', 'export', repo, '--format', 'jsonl', '--out', out], { cwd: repo, env, timeoutMs: 120_000 });
  expect(r.code, r.stderr).toBe(0);
  const nodes = new Map<string, string>();
  const edges = new Map<string, Set<string>>();
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line) as Record<string, string>;
    if (o['type'] === 'node') nodes.set(o['id']!, `${o['path']}#${o['qualified_name'] ?? o['name']}`);
    else if (o['type'] === 'edge' && o['kind'] === 'calls') {
      const set = edges.get(o['provenance']!) ?? new Set<string>();
      set.add(`${nodes.get(o['src']!) ?? o['src']} -> ${nodes.get(o['dst']!) ?? o['dst']}`);
      edges.set(o['provenance']!, set);
    }
  }
  return edges;
}

/**
 * How far two call graphs agree where both resolve: over the callers both give call edges,
 * the share of the brought indexer's edges the native pass also has, and the other way round.
 */
function agreement(native: Set<string>, brought: Set<string>): { callers: number; precision: number; recall: number; shared: number } {
  const callerOf = (e: string) => e.slice(0, e.indexOf(' -> '));
  const both = new Set([...native].map(callerOf).filter((c) => [...brought].some((e) => callerOf(e) === c)));
  const n = [...native].filter((e) => both.has(callerOf(e)));
  const b = [...brought].filter((e) => both.has(callerOf(e)));
  const shared = b.filter((e) => native.has(e)).length;
  return { callers: both.size, precision: shared / Math.max(1, b.length), recall: shared / Math.max(1, n.length), shared };
}

describe('bring your own SCIP indexer: a stand-in for a language whose plugin has no Phase B', () => {
  const FILES: Record<string, string> = {
    'lib/bus.ex':
      'defmodule Chat.Bus do\n  def publish(topic, msg) do\n    deliver(topic, msg)\n  end\n\n  defp deliver(topic, msg), do: {topic, msg}\nend\n',
    'lib/room.ex': 'defmodule Chat.Room do\n  def post(room, text) do\n    Chat.Bus.publish(room, text)\n  end\nend\n',
  };
  const P = 'scip-elixir hex chat 0.1.0 ';
  let repo: string;
  let home: string;
  let bin: string;
  const command = 'elixir=scip-elixir index --output {output} --root {root}';

  beforeAll(async () => {
    repo = join(work, 'elixir');
    home = join(work, 'home-elixir');
    bin = join(work, 'elixir-bin');
    mkdirSync(home, { recursive: true });
    await gitRepo(repo, FILES);
    writeFakeIndexer(bin, {
      name: 'scip-elixir',
      output: { flag: '--output' },
      requireArgs: ['index', '--root'],
      index: {
        projectRoot: '',
        toolName: 'scip-elixir',
        documents: [
          scipDocumentAt('lib/bus.ex', FILES['lib/bus.ex']!, [
            ['defmodule Chat.Bus', 'Bus', `${P}Chat/Bus#`, true],
            ['def publish', 'publish', `${P}Chat/Bus#publish().`, true],
            ['deliver(topic, msg)', 'deliver', `${P}Chat/Bus#deliver().`],
            ['defp deliver', 'deliver', `${P}Chat/Bus#deliver().`, true],
          ]),
          scipDocumentAt('lib/room.ex', FILES['lib/room.ex']!, [
            ['defmodule Chat.Room', 'Room', `${P}Chat/Room#`, true],
            ['def post', 'post', `${P}Chat/Room#post().`, true],
            ['Chat.Bus.publish', 'publish', `${P}Chat/Bus#publish().`],
          ]),
        ],
      },
    });
    const init = await travsr(['init', repo, '--no-hook'], { cwd: repo, env: { TRAVSR_HOME: home, PATH: BARE_PATH }, timeoutMs: 180_000 });
    expect(init.code, init.stderr).toBe(0);
  }, 240_000);

  it('runs the configured command in the sandbox as the Phase B of the language: resolved calls', async () => {
    const env = { TRAVSR_HOME: home, PATH: `${bin}:${BARE_PATH}`, TRAVSR_LANG_SCIP_COMMAND: command };
    const r = await travsr(['index', '--rebuild', '--json'], { cwd: repo, env, timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(0);
    const p = (JSON.parse(r.stdout) as IndexJson).plugins.find((x) => x.id === 'lang-structural')!;
    expect(p.phases).toEqual(['A', 'B']);
    expect(p.failed).toBe(0);
    const edges = await callEdges(repo, env);
    expect([...(edges.get('scip') ?? [])].sort()).toEqual([
      'lib/bus.ex#Chat.Bus.publish -> lib/bus.ex#Chat.Bus.deliver',
      'lib/room.ex#Chat.Room.post -> lib/bus.ex#Chat.Bus.publish',
    ]);
  }, 240_000);

  it('without the program on PATH: Phase A only, and the reason names the configuration', async () => {
    const env = { TRAVSR_HOME: home, PATH: BARE_PATH, TRAVSR_LANG_SCIP_COMMAND: command };
    const r = await travsr(['index', '--rebuild', '--json'], { cwd: repo, env, timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(0);
    const p = (JSON.parse(r.stdout) as IndexJson).plugins.find((x) => x.id === 'lang-structural')!;
    expect(p.phases).toEqual(['A']);
    expect(p.unavailable?.[0]?.reason).toMatch(/^scip-elixir is not on PATH: elixir is analyzed at Phase A only .*\[lang\.elixir\.scip\]/);
  }, 240_000);

  it('refuses a command without {output}, with the key and what to do', async () => {
    const env = { TRAVSR_HOME: home, PATH: BARE_PATH, TRAVSR_LANG_SCIP_COMMAND: 'elixir=scip-elixir index' };
    const r = await travsr(['index', '--json'], { cwd: repo, env, timeoutMs: 120_000 });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/TRAVSR_LANG_SCIP_COMMAND: lang\.scipCommand must be .*\{output\}/);
  }, 180_000);
});

/** scip-typescript from npm, installed once into a cache git ignores; a reason to skip when npm cannot reach its registry. */
function installScipTypescript(): { bin: string } | { skip: string } {
  const cache = join(repoTop, 'test', '.cache', `scip-typescript-${SCIP_TYPESCRIPT_VERSION}`);
  const main = join(cache, 'node_modules', '@sourcegraph', 'scip-typescript', 'dist', 'src', 'main.js');
  if (!existsSync(main)) {
    try {
      mkdirSync(cache, { recursive: true });
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          cache,
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          `@sourcegraph/scip-typescript@${SCIP_TYPESCRIPT_VERSION}`,
        ],
        { stdio: 'pipe', timeout: 240_000 },
      );
    } catch (e) {
      return { skip: `npm could not install @sourcegraph/scip-typescript (offline?): ${(e as Error).message.split('\n')[0]}` };
    }
  }
  return existsSync(main) ? { bin: join(cache, 'node_modules', '.bin') } : { skip: 'npm install left no scip-typescript' };
}

describe('bring your own SCIP indexer: the real scip-typescript and scip-python against the native Phase B', () => {
  it('scip-typescript on real code (the SDK sources) agrees with lang-typescript where both resolve', async (t) => {
    const tool = installScipTypescript();
    if ('skip' in tool) return t.skip(tool.skip);
    const repo = join(work, 'ts');
    const home = join(work, 'home-ts');
    mkdirSync(home, { recursive: true });
    cpSync(join(repoTop, 'sdk', 'src'), join(repo, 'src'), { recursive: true });
    await gitRepo(repo, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: [] },
        include: ['src'],
      }),
    });
    const base = { TRAVSR_HOME: home, PATH: BARE_PATH };
    const init = await travsr(['init', repo, '--no-hook'], { cwd: repo, env: base, timeoutMs: 300_000 });
    expect(init.code, init.stderr).toBe(0);
    const native = (await callEdges(repo, base)).get('phase-b') ?? new Set();
    const env = {
      ...base,
      PATH: `${tool.bin}:${BARE_PATH}`,
      TRAVSR_LANG_SCIP_COMMAND: 'typescript=scip-typescript index --cwd {root} --output {output} --no-progress-bar',
    };
    const r = await travsr(['index', '--rebuild', '--json'], { cwd: repo, env, timeoutMs: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as IndexJson).plugins.find((p) => p.id === 'lang-typescript')?.failed).toBe(0);
    const brought = (await callEdges(repo, env)).get('scip') ?? new Set();
    const a = agreement(native, brought);
    console.log(
      `scip-typescript via [lang.typescript.scip] vs lang-typescript Phase B: ${native.size} native and ${brought.size} brought call edges; ` +
        `over the ${a.callers} callers both resolve, ${a.shared} shared: ${(a.precision * 100).toFixed(1)}% of the brought edges are native ones, ${(a.recall * 100).toFixed(1)}% of the native ones are brought`,
    );
    expect(native.size).toBeGreaterThan(100);
    expect(a.callers).toBeGreaterThan(50);
    expect(a.precision).toBeGreaterThanOrEqual(0.9);
    expect(a.recall).toBeGreaterThanOrEqual(0.9);
  }, 600_000);

  it('scip-python on a real package agrees with lang-python where both resolve', async (t) => {
    const tool = installScipPython();
    if ('skip' in tool) return t.skip(tool.skip);
    const repo = join(work, 'py');
    const home = join(work, 'home-py');
    mkdirSync(home, { recursive: true });
    await gitRepo(repo, PYTHON_SOURCES);
    const base = { TRAVSR_HOME: home, PATH: BARE_PATH };
    const init = await travsr(['init', repo, '--no-hook'], { cwd: repo, env: base, timeoutMs: 300_000 });
    expect(init.code, init.stderr).toBe(0);
    const native = (await callEdges(repo, base)).get('phase-b') ?? new Set();
    const env = {
      ...base,
      PATH: `${tool.bin}:${BARE_PATH}`,
      TRAVSR_LANG_SCIP_COMMAND: 'python=scip-python index --cwd {root} --output {output} --project-name shop --quiet',
    };
    const r = await travsr(['index', '--rebuild', '--json'], { cwd: repo, env, timeoutMs: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as IndexJson).plugins.find((p) => p.id === 'lang-python')?.failed).toBe(0);
    const brought = (await callEdges(repo, env)).get('scip') ?? new Set();
    const a = agreement(native, brought);
    console.log(
      `scip-python via [lang.python.scip] vs lang-python Phase B: ${native.size} native and ${brought.size} brought call edges; ` +
        `over the ${a.callers} callers both resolve, ${a.shared} shared (${(a.precision * 100).toFixed(1)}% / ${(a.recall * 100).toFixed(1)}%)`,
    );
    expect(brought.size).toBeGreaterThan(0);
    expect(a.precision).toBeGreaterThanOrEqual(0.9);
  }, 600_000);
});
