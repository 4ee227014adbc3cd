// Code that breaks naive analyzers: every file still gets a graph, and what cannot be
// resolved is reported, not guessed.
import { describe, expect, it } from 'vitest';
import { analyzeProject, calls } from './helpers/analyze-project.js';

describe('robustness', () => {
  it('indexes Python 2 files and files with syntax errors, keeping what parsed', async () => {
    const r = await analyzeProject({
      'py2.py': 'def greet(name):\n    print "hello", name\n    exec "x = 1"\n\ndef main():\n    greet(u"x")\n',
      'broken.py': 'def ok():\n    pass\n\ndef broken(:\n    pass\n\ndef after():\n    ok()\n',
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toContain('py2.py:main -calls-> py2.py:greet');
    expect(r.diagnostics.get('broken.py')!.map((d) => d.code)).toContain('PARSE_ERRORS');
    expect(r.nodes.get('broken.py')!.map((n) => n.name)).toEqual(expect.arrayContaining(['ok', 'after']));
  });

  it('survives circular imports and import cycles through __init__.py', async () => {
    const r = await analyzeProject({
      'cyc/__init__.py': 'from .a import A\nfrom .b import B\nfrom . import *\n',
      'cyc/a.py': 'from cyc import B\nfrom .b import *\n\nclass A(B):\n    def fa(self):\n        return self.fb()\n',
      'cyc/b.py': 'from cyc import A\nfrom .a import *\n\nclass B(A):\n    def fb(self):\n        return B().fa()\n',
      'loop.py': 'from loop import thing\nthing = thing\n\ndef use():\n    thing()\n',
    });
    expect(r.failed).toEqual([]);
    // A and B inherit from each other: no MRO to trust beyond the class itself, and no crash.
    expect(calls(r)).toContain('cyc/b.py:B.fb -calls-> cyc/b.py:B');
  });

  it('indexes a 50,000-line generated module', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++) lines.push(`def f${i}(x):`, `    return f${i === 0 ? 0 : i - 1}(x)`, '', `C${i} = f${i}`, '');
    const r = await analyzeProject({ 'gen.py': `${lines.join('\n')}\n` });
    expect(r.failed).toEqual([]);
    expect(r.nodes.get('gen.py')!.length).toBeGreaterThan(20_000);
    expect(calls(r)).toContain('gen.py:f9999 -calls-> gen.py:f9998');
  });

  it('reports relative imports that name no module of the repository', async () => {
    const r = await analyzeProject({
      'pkg/__init__.py': '',
      'pkg/m.py': 'from .missing import thing\nfrom ..outside import other\n\ndef f():\n    thing()\n',
    });
    expect(calls(r)).toEqual([]);
    const d = r.diagnostics.get('pkg/m.py')!.find((x) => x.code === 'UNRESOLVED_IMPORT');
    expect(d?.message).toMatch(/\.missing, \.\.outside/);
  });
});
