// `travsr init` on a small Python project with the real CLI, the built plugins and the standard
// sandbox tier: Python goes to lang-python (no longer lang-structural), Phase A and the native
// Phase B both run, calls across modules are resolved with `phase-b` provenance, and a call the
// resolver cannot prove gets no edge — not even a name-matched one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readLangToml, writeLangToml } from '../../host/src/catalog/lang-toml.js';
import { GraphStore } from '../../host/src/store/index.js';
import { GitRepo } from '../helpers/git-repo.js';
import { lastPluginSession } from '../helpers/plugin-trace.js';
import { travsr } from '../helpers/run-cli.js';

interface InitJson {
  languages: string[];
  steps: string[];
  summary: {
    failed: number;
    plugins: { id: string; languages: string[]; tier: string; phases: string[]; analyzed: number; failed: number }[];
  };
}
interface ExportNode {
  type: 'node';
  id: string;
  kind: string;
  name: string;
  qualified_name: string | null;
  path: string;
}
interface ExportEdge {
  type: 'edge';
  src: string;
  dst: string;
  kind: string;
  provenance: string;
}
interface StatusJson {
  languages: { language: string; plugin: string | null; phases: string; phaseB: string[] }[];
  plugins: { id: string; languages: string[] }[];
}

const FILES: Record<string, string> = {
  // The package re-exports from its modules; app.py imports through it.
  'shop/__init__.py': [
    'from .models import Account',
    'from .service import open_account',
    '',
    '__all__ = ["Account", "open_account"]',
    '',
  ].join('\n'),
  'shop/models.py': [
    'class Base:',
    '    def save(self):',
    '        return self.validate()',
    '',
    '    def validate(self):',
    '        return True',
    '',
    '',
    'class Account(Base):',
    '    def __init__(self, owner):',
    '        self.owner = owner',
    '',
    '    def deposit(self, amount):',
    '        self.save()',
    '        return amount',
    '',
  ].join('\n'),
  'shop/service.py': [
    'from .models import Account',
    '',
    '',
    'def open_account(owner):',
    '    account = Account(owner)',
    '    account.deposit(10)',
    '    return account',
    '',
    '',
    'def replay(entry):',
    '    # `entry` has no type the resolver can prove: no edge, though Account.deposit exists.',
    '    return entry.deposit(0)',
    '',
  ].join('\n'),
  'shop/text.py': ['def shout(owner):', '    return owner.upper()', ''].join('\n'),
  // A language lang-structural still serves, so that it is registered and runs beside lang-python.
  'tools/deploy.ex': ['defmodule Deploy do', '  def run(target), do: IO.puts(target)', 'end', ''].join('\n'),
  'app.py': [
    'from shop import open_account',
    '',
    '',
    'def main():',
    '    account = open_account("ada")',
    '    # shout is defined in shop/text.py but never imported here: a NameError, not a call of it.',
    '    return shout(account.owner)',
    '',
  ].join('\n'),
};

let repo: GitRepo;
let init: { code: number | undefined; stdout: string; stderr: string };
let nodes: Map<string, ExportNode>;
let edges: ExportEdge[];

/** `kind caller -> callee (provenance)` for every edge between two definitions, by qualified name. */
function edgeLines(kind: string): string[] {
  const q = (id: string) => nodes.get(id)?.qualified_name ?? `?${id.slice(0, 8)}`;
  return edges.filter((e) => e.kind === kind).map((e) => `${q(e.src)} -> ${q(e.dst)} (${e.provenance})`);
}

interface HookRunJson {
  mode: string;
  analyzed: number;
  dependents: number;
  dependentsUnaffected: number;
  failed: number;
}

/** The last lang-python session, as its trace recorded it: its analyze requests and its sandbox. */
const lastPythonSession = () => lastPluginSession(repo.root, 'lang-python');

/** The repository's graph, as `travsr graph export` writes it. */
async function exportGraph(): Promise<{ nodes: Map<string, ExportNode>; edges: ExportEdge[] }> {
  const r = await travsr(['graph', 'export', repo.root, '--format', 'jsonl']);
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExportNode | ExportEdge);
  return {
    nodes: new Map(lines.filter((l): l is ExportNode => l.type === 'node').map((n) => [n.id, n])),
    edges: lines.filter((l): l is ExportEdge => l.type === 'edge'),
  };
}

/** Every edge of the graph as `kind src-qualified-name -> dst-qualified-name`, sorted. */
async function exportedEdges(): Promise<string[]> {
  const g = await exportGraph();
  const q = (id: string) => g.nodes.get(id)?.qualified_name ?? id;
  return g.edges.map((e) => `${e.kind} ${q(e.src)} -> ${q(e.dst)}`).sort();
}

beforeAll(async () => {
  repo = new GitRepo('travsr-lang-python-');
  repo.write(FILES).commit('shop');
  init = await travsr(['init', repo.root, '--no-hook', '--json'], { timeoutMs: 180_000 });
  expect(init.code, init.stderr).toBe(0);
  ({ nodes, edges } = await exportGraph());
}, 240_000);
afterAll(() => repo?.dispose());

describe('travsr init on a Python repository', () => {
  it('registers lang-python for Python and runs Phase A and B in the standard sandbox', () => {
    const out = JSON.parse(init.stdout) as InitJson;
    expect(out.languages).toContain('python');
    expect(out.steps).toContain('registered lang-python for python');
    const python = out.summary.plugins.find((p) => p.id === 'lang-python');
    expect(python).toMatchObject({ languages: ['python'], tier: 'standard', phases: ['A', 'B'], analyzed: 5, failed: 0 });
    // lang-structural runs for the Elixir file alone: it no longer declares Python.
    const structural = out.summary.plugins.find((p) => p.id === 'lang-structural');
    expect(structural).toMatchObject({ phases: ['A'], analyzed: 1, failed: 0 });
    expect(structural?.languages).not.toContain('python');
    expect(out.summary.failed).toBe(0);
  });

  it('resolves calls across modules, through the package re-export and the MRO, with phase-b provenance', () => {
    const calls = edgeLines('calls');
    expect(calls).toEqual(
      expect.arrayContaining([
        // app.py imports open_account from the package, which re-exports it from shop/service.py.
        'app.main -> shop.service.open_account (phase-b)',
        // A call of a class is a call of the class; the method is found on the instance.
        'shop.service.open_account -> shop.models.Account (phase-b)',
        'shop.service.open_account -> shop.models.Account.deposit (phase-b)',
        // self.save() on an Account is Base.save, through the method resolution order.
        'shop.models.Account.deposit -> shop.models.Base.save (phase-b)',
        'shop.models.Base.save -> shop.models.Base.validate (phase-b)',
      ]),
    );
    expect(edgeLines('inherits')).toContain('shop.models.Account -> shop.models.Base (phase-b)');
    // Nothing of a Phase B file is left to name matching: every call from Python is phase-b.
    const fromPython = edges.filter((e) => e.kind === 'calls' && nodes.get(e.src)?.path.endsWith('.py'));
    expect(fromPython.length).toBeGreaterThanOrEqual(5);
    expect(fromPython.filter((e) => e.provenance !== 'phase-b')).toEqual([]);
  });

  it('gives a call it cannot prove no edge, not even a name-matched one', () => {
    const calls = edgeLines('calls');
    expect(calls.filter((c) => c.startsWith('app.main -> ') && c.includes('shout'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith('shop.service.replay -> '))).toEqual([]);
    // The definitions a name match would have picked are there.
    const names = [...nodes.values()].map((n) => n.qualified_name);
    expect(names).toEqual(expect.arrayContaining(['shop.text.shout', 'shop.models.Account.deposit', 'shop.service.replay']));
  });

  it('status says Python ran A+B with the native Phase B, and lang-structural no longer claims .py', async () => {
    const text = await travsr(['status', repo.root]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/python\s+5 files\s+\d+ nodes\s+phase A\+B \(native; lang-python@0\.1\.0, standard\)/);
    const json = JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as StatusJson;
    expect(json.languages.find((l) => l.language === 'python')).toMatchObject({
      plugin: 'lang-python@0.1.0',
      phases: 'A+B',
      phaseB: ['native'],
    });
    expect(json.plugins.map((p) => p.id)).toEqual(['lang-python', 'lang-structural']);
    expect(json.plugins.filter((p) => p.languages.includes('python')).map((p) => p.id)).toEqual(['lang-python']);

    const list = await travsr(['lang', 'list', '--repo', repo.root]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^python\s+lang-python\s+0\.1\.0\s+standard\s+active at Phase A\+B \(native\)/m);
    // Installed and in the built-in registry, lang-structural offers no Python row at all.
    expect(list.stdout).toMatch(/^elixir\s+lang-structural\s+0\.1\.0\s+standard\s+active at Phase A\s/m);
    expect(list.stdout).not.toMatch(/^python\s+lang-structural/m);
  });

  it('a one-file commit importers cannot see: hook-run re-analyzes that file alone, and every file keeps its text index', async () => {
    repo.write({ 'shop/models.py': `${FILES['shop/models.py']!}\n\ndef audit(account):\n    return account.owner\n` }).commit('audit');
    // As a process: bin/run.js keeps V8's code of the lean entry (checked below).
    const r = await travsr(['hook-run', repo.root, '--json'], { timeoutMs: 180_000, process: true });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as HookRunJson;
    expect(s).toMatchObject({ mode: 'incremental', failed: 0, analyzed: 1, dependents: 0 });
    // service.py and shop/__init__.py import from models.py, but none of them names `audit`:
    // models.py's interface changed only there, so their stored analysis stands.
    expect(s.dependentsUnaffected).toBeGreaterThanOrEqual(2);
    const session = await lastPythonSession();
    expect(session.requests).toEqual(['analyze 1 file(s), phase A', 'analyze 1 file(s), phase B']);
    // A commit of a few files: a brief session (no optimizing WebAssembly compiles).
    expect(session.sandbox.join('\n')).toMatch(/--liftoff-only/);
    const store = GraphStore.open(join(repo.root, '.travsr', 'graph.db'), { readonly: true });
    try {
      expect(store.filesWithoutText()).toEqual([]);
      expect(store.filesWithPhrase(['audit'])).toEqual(['shop/models.py']);
      expect(store.filesWithPhrase(['open', 'account'])).toEqual(expect.arrayContaining(['app.py', 'shop/__init__.py', 'shop/service.py']));
      const hits = store.nodesByIds(store.searchDefinitions('replay entry deposit').map((d) => d.id));
      expect(hits.map((n) => n.name)).toContain('replay');
    } finally {
      store.close();
    }
  }, 240_000);

  it('a commit importers can see: the dependents that name what changed are analyzed again, and the graph equals a full index', async () => {
    // `deposit` becomes `credit`: service.py calls account.deposit, so it resolves differently now.
    const models = `${FILES['shop/models.py']!.replace('def deposit(self, amount):', 'def credit(self, amount):')}\n\ndef audit(account):\n    return account.owner\n`;
    repo.write({ 'shop/models.py': models }).commit('credit');
    const r = await travsr(['hook-run', repo.root, '--json'], { timeoutMs: 180_000, process: true });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as HookRunJson;
    expect(s).toMatchObject({ mode: 'incremental', failed: 0 });
    expect(s.dependents).toBeGreaterThanOrEqual(1);
    expect(s.analyzed).toBe(s.dependents + 1);
    expect((await lastPythonSession()).requests).toEqual(['analyze 1 file(s), phase A', `analyze ${s.dependents + 1} file(s), phase B`]);
    // The first hook-run left V8's code of its bundle, which this one ran from (bin/run.js).
    expect(readdirSync(join(process.env.TRAVSR_HOME!, 'cache', 'v8')).filter((f) => f.startsWith('lean.cjs-hook-run-'))).toHaveLength(1);
    const incremental = await exportedEdges();
    expect(incremental.some((e) => e.endsWith('shop.models.Account.deposit'))).toBe(false);
    const rebuilt = await travsr(['index', repo.root, '--rebuild', '--json'], { timeoutMs: 180_000 });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    // The rebuild of a small repository is a brief session too (test/indexer/brief-sessions.test.ts).
    expect((await lastPythonSession()).sandbox.join('\n')).toMatch(/--liftoff-only/);
    expect(incremental).toEqual(await exportedEdges());
  }, 240_000);

  it('an installation updated from before the move: status names the stale mapping and the fix, and init applies it', async () => {
    // lang.toml as an older travsr left it: Python mapped to lang-structural, lang-python unknown.
    const reg = readLangToml();
    reg.languages['python'] = { ...reg.languages['python']!, plugin: 'lang-structural' };
    delete reg.plugins['lang-python'];
    writeLangToml(reg);

    const stale = await travsr(['status', repo.root]);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stdout).toMatch(
      /! \[LANGUAGE_NOT_SERVED\] lang\.toml maps python to lang-structural@0\.1\.0, which no longer serves python/,
    );
    expect(stale.stdout).toContain(`run \`travsr init ${repo.root}\``);

    const again = await travsr(['init', repo.root, '--no-hook', '--json'], { timeoutMs: 180_000 });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as InitJson).steps).toContain('registered lang-python for python');
    expect(readLangToml().languages['python']?.plugin).toBe('lang-python');
    const fixed = await travsr(['status', repo.root]);
    expect(fixed.stdout).not.toContain('LANGUAGE_NOT_SERVED');
    expect(fixed.stdout).toMatch(/python\s+5 files\s+\d+ nodes\s+phase A\+B \(native; lang-python@0\.1\.0, standard\)/);
  }, 240_000);
});
