// One session serving several updates, as the daemon keeps it (`incremental: true`): after each
// change it is told the changed paths and must answer as a fresh session would.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Edge } from '@travsr/protocol';
import { FileGraphBuilder } from '@travsr/sdk';
import { describe, expect, it } from 'vitest';
import { PythonAnalyzer } from '../src/analyzer.js';
import { GRAMMAR, analyzeProject, calls, writeProject } from './helpers/analyze-project.js';

const end = (v: Edge['src']) => `${v.path}:${v.signature}`;

/** A session over `root`; `update` runs one run's requests: Phase A of `changedFiles`, then Phase B of `phaseB`. */
async function session(root: string) {
  const analyzer = new PythonAnalyzer({ grammar: GRAMMAR });
  await analyzer.initialize({ root, phases: ['A', 'B'], options: {} });
  const ctx = (changed: readonly string[]) => ({
    root,
    corpus: 'test',
    options: {},
    phases: ['A', 'B'] as const,
    changed,
    signal: new AbortController().signal,
    log: () => undefined,
    readFile: async (f: { path: string; language: string }) => ({ ...f, text: readFileSync(join(root, f.path), 'utf8') }),
    graphFor: (f: { path: string; language: string }) =>
      new FileGraphBuilder({ corpus: 'test', path: f.path, language: 'python', provenance: 'phase-b' }),
  });
  return {
    async update(changed: readonly string[], phaseA: readonly string[], phaseB: readonly string[]): Promise<string[]> {
      for (const path of phaseA) {
        const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'python' });
        analyzer.analyzeFile({ path, language: 'python', text: readFileSync(join(root, path), 'utf8') } as never, {
          graph,
          root,
          changed,
        });
      }
      const edges: string[] = [];
      for await (const r of analyzer.analyze(
        phaseB.map((path) => ({ path, language: 'python' })),
        ctx(changed) as never,
      ))
        for (const e of r.edges) if (e.kind === 'calls') edges.push(`${end(e.src)} -calls-> ${end(e.dst)}`);
      return edges.sort();
    },
  };
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('a lang-python session kept between updates', () => {
  it('follows a dependency edited, a module created and one deleted, as a fresh session does', async () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/util.py': 'def helper():\n    return 1\n',
      'pkg/app.py': 'from pkg.util import helper\nfrom pkg import extra\n\n\ndef main():\n    helper()\n    extra.more()\n',
    };
    const root = writeProject(files);
    const s = await session(root);
    const all = ['pkg/__init__.py', 'pkg/app.py', 'pkg/util.py'];
    expect(await s.update([], all, all)).toEqual(['pkg/app.py:main -calls-> pkg/util.py:helper']);

    // helper becomes a class in util.py; only util.py is re-read at Phase A, app.py at Phase B.
    write(root, 'pkg/util.py', 'class helper:\n    pass\n');
    expect(await s.update(['pkg/util.py'], ['pkg/util.py'], ['pkg/util.py', 'pkg/app.py'])).toEqual([
      'pkg/app.py:main -calls-> pkg/util.py:helper',
    ]);
    // The resolver sees the class now: the same as a fresh session over the same files.
    const fresh = await analyzeProject({}, ['pkg/__init__.py', 'pkg/app.py', 'pkg/util.py'], root);
    expect(await s.update([], [], ['pkg/app.py'])).toEqual(calls(fresh).filter((e) => e.startsWith('pkg/app.py')));

    // pkg/extra.py comes into being: `extra.more()` resolves now.
    write(root, 'pkg/extra.py', 'def more():\n    return 2\n');
    expect(await s.update(['pkg/extra.py'], ['pkg/extra.py'], ['pkg/extra.py', 'pkg/app.py'])).toEqual([
      'pkg/app.py:main -calls-> pkg/extra.py:more',
      'pkg/app.py:main -calls-> pkg/util.py:helper',
    ]);

    // ... and goes again: nothing may point into it.
    rmSync(join(root, 'pkg/extra.py'));
    expect(await s.update(['pkg/extra.py'], [], ['pkg/app.py'])).toEqual(['pkg/app.py:main -calls-> pkg/util.py:helper']);
  });

  it('a function renamed in a module only Phase B reads: the old name no longer resolves', async () => {
    const root = writeProject({
      'lib.py': 'def old():\n    return 1\n',
      'main.py': 'import lib\n\n\ndef run():\n    lib.old()\n',
    });
    const s = await session(root);
    expect(await s.update([], ['main.py'], ['main.py'])).toEqual(['main.py:run -calls-> lib.py:old']);
    write(root, 'lib.py', 'def new():\n    return 1\n');
    // The host re-analyzes lib.py (changed) and main.py (a dependent) — here only main.py at Phase B.
    expect(await s.update(['lib.py'], [], ['main.py'])).toEqual([]);
  });
});
