// The real scip-python for the lang-python tests (npm, installed once into a cache git
// ignores) and a small Python package with the facts the native analyzer would give for it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, VName } from '@travsr/protocol';
import type { DefinitionAt, PythonFileFacts } from '../src/scip/facts.js';
import { SCIP_PYTHON_VERSION } from '../src/scip/scip-python-runner.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** scip-python from npm, installed once into a cache git ignores; a reason to skip when npm cannot reach its registry. */
export function installScipPython(): { bin: string } | { skip: string } {
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

// A package with a re-export through __init__, a base class in another module, super(),
// a classmethod reached through a subclass, a nested function, a parameter called as a
// function, a standard library call, and a call after non-ASCII text on its line.
export const SOURCES: Record<string, string> = {
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
export function at(path: string, lineHolds: string, needle: string): { line: number; col: number } {
  const lines = SOURCES[path]!.split('\n');
  const i = lines.findIndex((l) => l.includes(lineHolds));
  if (i < 0) throw new Error(`no line with ${lineHolds} in ${path}`);
  const col = lines[i]!.indexOf(needle, lines[i]!.indexOf(lineHolds));
  return { line: i + 1, col };
}

export const vname = (path: string, signature: string): VName => ({ corpus: 'test', root: '', path, language: 'python', signature });

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

export const FACTS: PythonFileFacts[] = [
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

export const definitionAt: DefinitionAt = (path, line, col) =>
  FACTS.find((f) => f.path === path)?.definitions.find((d) => d.nameLine === line && d.nameCol === col)?.node;

/** Writes {@link SOURCES} under `dir`. */
export function writeFixture(dir: string): void {
  for (const [path, text] of Object.entries(SOURCES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
