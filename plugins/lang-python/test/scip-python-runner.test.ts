import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, VName } from '@travsr/protocol';
import { afterAll, describe, expect, it } from 'vitest';
// How the host finds the tool and what it binds into the sandbox: the real code, on the real install.
import { resolvePluginTools } from '../../../host/src/sandbox/plugin-tools.js';
import type { DefinitionAt, PythonFileFacts } from '../src/scip/facts.js';
import { SCIP_PYTHON_VERSION, ScipPythonError, ScipPythonUpgrade } from '../src/scip/scip-python-runner.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'scip-python-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const logs: string[] = [];
const log = (_level: string, message: string) => void logs.push(message);

/** Writes an executable stand-in for scip-python (for its failure modes only). */
function standIn(name: string, body: string): string {
  const path = join(dir, 'bin', name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('ScipPythonUpgrade.available', () => {
  it('is off by default, says so, and names what to install when it is on but missing', () => {
    const off = ScipPythonUpgrade.available({ tools: { 'scip-python': '/x/index.js' } });
    expect(off).toEqual({ missing: expect.stringMatching(/upgrade is off \(plugin option scipPython, default false/) as unknown });
    const missing = ScipPythonUpgrade.available({ scipPython: true, tools: {} });
    expect(missing).toEqual({ missing: expect.stringContaining('npm install -g @sourcegraph/scip-python@0.6.6') as unknown });
    expect(ScipPythonUpgrade.available({ scipPython: 'true', tools: { 'scip-python': '/x/index.js' } })).toEqual({ tool: '/x/index.js' });
  });
});

describe('ScipPythonUpgrade.run failures', () => {
  it('fails with SCIP_PYTHON_FAILED and scip-python’s own last lines, and runs again on the next call', async () => {
    const tool = standIn('failing', 'echo "Error: pyright could not start" >&2\nexit 3');
    const upgrade = new ScipPythonUpgrade(tool, { scratchDir: dir });
    const first = upgrade.run(dir, new AbortController().signal, log);
    await expect(first).rejects.toThrow(ScipPythonError);
    await expect(first).rejects.toMatchObject({
      code: 'SCIP_PYTHON_FAILED',
      message: expect.stringMatching(/exited with 3 .*pyright could not start.*native resolver/) as unknown,
    });
    // Not cached: a second call runs scip-python again (and fails again here).
    await expect(upgrade.run(dir, new AbortController().signal, log)).rejects.toThrow(/exited with 3/);
  });

  it('is stopped when the request is cancelled', async () => {
    const tool = standIn('hanging', 'sleep 30');
    const controller = new AbortController();
    const running = new ScipPythonUpgrade(tool, { scratchDir: dir }).run(dir, controller.signal, log);
    controller.abort();
    await expect(running).rejects.toThrow(/was stopped \(the analyze request was cancelled or ran out of time\)/);
  });

  it('logs now and then while scip-python runs, so the host does not take the plugin for hung', async () => {
    const tool = standIn('slow', 'sleep 1; exit 1');
    logs.length = 0;
    await expect(
      new ScipPythonUpgrade(tool, { scratchDir: dir, heartbeatMs: 100 }).run(dir, new AbortController().signal, log),
    ).rejects.toThrow(ScipPythonError);
    expect(logs.some((l) => /^scip-python is still indexing the repository \(\d+ s\)$/.test(l))).toBe(true);
  });
});

// ---------------------------------------------------------------- the real scip-python

/** scip-python from npm, installed once into a cache git ignores; a reason to skip when npm cannot reach its registry. */
function installScipPython(): { bin: string } | { skip: string } {
  const cache = process.env['TRAVSR_SCIP_PYTHON_CACHE'] ?? join(repoRoot, 'test', '.cache', `scip-python-${SCIP_PYTHON_VERSION}`);
  const manifest = join(cache, 'node_modules', '@sourcegraph', 'scip-python', 'package.json');
  const installed = () =>
    existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === SCIP_PYTHON_VERSION;
  if (!installed()) {
    try {
      mkdirSync(cache, { recursive: true });
      execFileSync(
        'npm',
        ['install', '--prefix', cache, '--no-audit', '--no-fund', '--ignore-scripts', `@sourcegraph/scip-python@${SCIP_PYTHON_VERSION}`],
        { stdio: 'pipe', timeout: 240_000 },
      );
    } catch (e) {
      const why = `${(e as { stderr?: Buffer }).stderr?.toString() ?? (e as Error).message}`.trim().split('\n').slice(-2).join(' ');
      return { skip: `npm could not install @sourcegraph/scip-python@${SCIP_PYTHON_VERSION} (offline?): ${why}` };
    }
    if (!installed()) return { skip: `npm install left no @sourcegraph/scip-python@${SCIP_PYTHON_VERSION} in ${cache}` };
  }
  return { bin: join(cache, 'node_modules', '.bin') };
}

const install = installScipPython();
if ('skip' in install) console.warn(`skipping the real scip-python test: ${install.skip}`);

// A package with a re-export through __init__, a base class in another module, super(),
// a classmethod reached through a subclass, a nested function, a parameter called as a
// function, a standard library call, and a call after non-ASCII text on its line.
const SOURCES: Record<string, string> = {
  'shop/__init__.py': 'from .ledger import Ledger, helper\n\n__all__ = ["Ledger", "helper"]\n',
  'shop/base.py': `class Base:
    def __init__(self, name):
        self.name = name

    def post(self, amount):
        return amount

    @classmethod
    def create(cls, name):
        return cls(name)
`,
  'shop/ledger.py': `"""Ledger — naïve bookkeeping."""
from .base import Base


class Ledger(Base):
    def __init__(self, name):
        super().__init__(name)
        self.entries = []

    def post(self, amount):
        note = "ünïcödé 😀"; return super().post(amount)

    def add(self, amount):
        self.entries.append(amount)
        return helper(self.post(amount))


def helper(x):
    return x * 2
`,
  'main.py': `import os
from shop import Ledger, helper


def run(pay):
    ledger = Ledger.create("main")
    ledger.add(3)
    helper(4)
    os.path.join("a", "b")
    pay()

    def inner():
        return helper(5)

    return inner()


run(print)
`,
};

/** 1-based line and UTF-16 column of the `nth` occurrence of `needle` on the first line of `path` holding `lineHolds`. */
function at(path: string, lineHolds: string, needle: string): { line: number; col: number } {
  const lines = SOURCES[path]!.split('\n');
  const i = lines.findIndex((l) => l.includes(lineHolds));
  if (i < 0) throw new Error(`no line with ${lineHolds} in ${path}`);
  const col = lines[i]!.indexOf(needle, lines[i]!.indexOf(lineHolds));
  return { line: i + 1, col };
}

const vname = (path: string, signature: string): VName => ({ corpus: 'test', root: '', path, language: 'python', signature });

/** The facts the native analyzer would hand over: definitions by qualified name, call sites with their callers. */
function factsOf(path: string, definitions: [string, Node['kind'], string][], calls: [string, string, string][]): PythonFileFacts {
  return {
    path,
    definitions: definitions.map(([qualified, kind, lineHolds]) => {
      const name = qualified.split('.').at(-1)!;
      const p = at(path, lineHolds, name);
      return { node: { vname: vname(path, qualified), kind, name, qualifiedName: qualified }, nameLine: p.line, nameCol: p.col };
    }),
    callSites: calls.map(([caller, lineHolds, callee]) => {
      const p = at(path, lineHolds, callee);
      return { caller: vname(path, caller), line: p.line, col: p.col, endCol: p.col + callee.length };
    }),
  };
}

const FACTS: PythonFileFacts[] = [
  factsOf('shop/__init__.py', [], []),
  factsOf(
    'shop/base.py',
    [
      ['Base', 'class', 'class Base'],
      ['Base.__init__', 'method', 'def __init__'],
      ['Base.post', 'method', 'def post'],
      ['Base.create', 'method', 'def create'],
    ],
    [['Base.create', 'return cls(name)', 'cls']],
  ),
  factsOf(
    'shop/ledger.py',
    [
      ['Ledger', 'class', 'class Ledger'],
      ['Ledger.__init__', 'method', 'def __init__'],
      ['Ledger.post', 'method', 'def post'],
      ['Ledger.add', 'method', 'def add'],
      ['helper', 'function', 'def helper'],
    ],
    [
      ['Ledger.__init__', 'super().__init__(name)', '__init__'],
      ['Ledger.post', 'super().post(amount)', 'post'],
      ['Ledger.add', 'self.entries.append', 'append'],
      ['Ledger.add', 'return helper(self.post', 'helper'],
      ['Ledger.add', 'return helper(self.post', 'post'],
    ],
  ),
  factsOf(
    'main.py',
    [
      ['run', 'function', 'def run'],
      ['run.inner', 'function', 'def inner'],
    ],
    [
      ['run', 'Ledger.create', 'create'],
      ['run', 'ledger.add(3)', 'add'],
      ['run', 'helper(4)', 'helper'],
      ['run', 'os.path.join', 'join'],
      ['run', 'pay()', 'pay'],
      ['run.inner', 'return helper(5)', 'helper'],
      ['run', 'return inner()', 'inner'],
      ['', 'run(print)', 'run'],
    ],
  ),
];

const definitionAt: DefinitionAt = (path, line, col) =>
  FACTS.find((f) => f.path === path)?.definitions.find((d) => d.nameLine === line && d.nameCol === col)?.node;

describe.skipIf('skip' in install)(`the real scip-python ${SCIP_PYTHON_VERSION}`, () => {
  it('is found on PATH as the host finds it, indexes a package offline, and resolves its calls onto the analyzer’s nodes', async () => {
    const bin = 'bin' in install ? install.bin : '';
    const tools = resolvePluginTools({ constraints: { network: false, ipc: 'none', hostApi: false, tools: ['scip-python'] } }, bin);
    const found = tools.found[0];
    expect(found?.path).toMatch(/node_modules\/@sourcegraph\/scip-python\/index\.js$/);
    expect(found?.bind).toBe(dirname(found!.path));
    const upgrade = ScipPythonUpgrade.available({ scipPython: true, tools: { 'scip-python': found!.path } });
    expect(upgrade).toEqual({ tool: found!.path });

    const repo = join(dir, 'repo');
    for (const [path, text] of Object.entries(SOURCES)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    logs.length = 0;
    const started = performance.now();
    const runner = new ScipPythonUpgrade(found!.path, { scratchDir: dir });
    const index = await runner.run(repo, new AbortController().signal, log);
    console.info(
      `scip-python ${SCIP_PYTHON_VERSION} indexed the ${Object.keys(SOURCES).length}-file fixture in ${Math.round(performance.now() - started)} ms`,
    );
    expect(index.tool).toEqual({ name: 'scip-python', version: SCIP_PYTHON_VERSION });
    expect(index.documentCount).toBe(Object.keys(SOURCES).length);
    expect(logs.at(-1)).toMatch(/^scip-python 0\.6\.6 indexed 4 files in \d+ s$/);
    // Once per session: the second call is the same index.
    expect(await runner.run(repo, new AbortController().signal, log)).toBe(index);

    const edges = FACTS.flatMap((f) => index.callEdges(f, definitionAt)).map((e) => `${e.src.signature || '<file>'} -> ${e.dst.signature}`);
    expect(edges.sort()).toEqual(
      [
        'Ledger.__init__ -> Base.__init__', // super().__init__ in another module
        'Ledger.post -> Base.post', // super().post after "ünïcödé 😀" on the line: UTF-16 columns
        'Ledger.add -> helper',
        'Ledger.add -> Ledger.post', // self.post: the override, not Base.post
        'run -> Base.create', // a classmethod reached through the subclass imported via __init__
        'run -> Ledger.add',
        'run -> helper', // re-exported through shop/__init__.py
        'run -> run.inner',
        'run.inner -> helper',
        '<file> -> run',
      ].sort(),
    );
    const outcomes = Object.fromEntries(
      FACTS.flatMap((f) => index.resolveCalls(f, definitionAt)).map((r) => [
        `${r.site.caller.signature}:${r.site.line}:${r.site.col}`,
        r.outcome,
      ]),
    );
    const outcomeOf = (path: string, caller: string, lineHolds: string, callee: string) => {
      const p = at(path, lineHolds, callee);
      return outcomes[`${caller}:${p.line}:${p.col}`];
    };
    expect(outcomeOf('main.py', 'run', 'os.path.join', 'join')).toBe('external');
    expect(outcomeOf('shop/ledger.py', 'Ledger.add', 'self.entries.append', 'append')).toBe('external');
    expect(outcomeOf('main.py', 'run', 'pay()', 'pay')).toBe('local');
    expect(outcomeOf('shop/base.py', 'Base.create', 'return cls(name)', 'cls')).toBe('local');

    const hierarchy = FACTS.flatMap((f) => index.hierarchyEdges(f, definitionAt)).map(
      (e) => `${e.src.signature} ${e.kind} ${e.dst.signature}`,
    );
    // scip-python records no override relationship for __init__.
    expect(hierarchy.sort()).toEqual(['Ledger inherits Base', 'Ledger.post overrides Base.post']);
  });
});
