// One session serving two runs (the daemon's): what changed in between is read again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileGraphBuilder } from '@travsr/sdk';
import { RustAnalyzer } from '../src/analyzer.js';
import { GRAMMAR, writeProject } from './helpers/analyze-project.js';

async function phaseB(analyzer: RustAnalyzer, root: string, paths: string[], changed: string[]): Promise<string[]> {
  const out: string[] = [];
  const ctx = {
    root,
    corpus: 'test',
    options: {},
    phases: ['A', 'B'],
    changed,
    signal: new AbortController().signal,
    log: () => undefined,
    readFile: async (f: { path: string }) => ({ path: f.path, language: 'rust', text: readFileSync(join(root, f.path), 'utf8') }),
    graphFor: (f: { path: string }) => new FileGraphBuilder({ corpus: 'test', path: f.path, language: 'rust', provenance: 'phase-b' }),
  };
  for await (const r of analyzer.analyze(
    paths.map((path) => ({ path, language: 'rust' })),
    ctx as never,
  ))
    for (const e of r.edges) if (e.kind === 'calls') out.push(`${e.src.path}:${e.src.signature} -> ${e.dst.path}:${e.dst.signature}`);
  return out.sort();
}

describe('an incremental session', () => {
  it('reads changed files again, and starts afresh when a module file comes', async () => {
    const root = writeProject({
      'Cargo.toml': '[package]\nname = "inc"\nversion = "0.1.0"\n',
      'src/lib.rs': 'mod a;\npub fn main() { a::one(); }\n',
      'src/a.rs': 'pub fn one() {}\n',
    });
    const analyzer = new RustAnalyzer({ grammar: GRAMMAR });
    await analyzer.initialize({ root, phases: ['A', 'B'], options: {} });
    expect(await phaseB(analyzer, root, ['src/lib.rs', 'src/a.rs'], [])).toEqual(['src/lib.rs:main -> src/a.rs:one']);

    writeFileSync(join(root, 'src/a.rs'), 'pub fn two() {}\n');
    writeFileSync(join(root, 'src/lib.rs'), 'mod a;\nmod b;\npub fn main() { a::two(); b::three(); }\n');
    writeFileSync(join(root, 'src/b.rs'), 'pub fn three() {}\n');
    expect(await phaseB(analyzer, root, ['src/lib.rs'], ['src/a.rs', 'src/lib.rs', 'src/b.rs'])).toEqual([
      'src/lib.rs:main -> src/a.rs:two',
      'src/lib.rs:main -> src/b.rs:three',
    ]);
  });

  it('reads the cfgs of a build script again when it changes', async () => {
    const script = (cfg: string) => `fn main() { println!("cargo:rustc-cfg=${cfg}"); }\n`;
    const root = writeProject({
      'Cargo.toml': '[package]\nname = "cfgs"\nversion = "0.1.0"\n',
      'build.rs': script('fast'),
      'src/lib.rs': '#[cfg(fast)]\nfn f() {}\n#[cfg(not(fast))]\nfn f() {}\npub fn go() { f() }\n',
    });
    const analyzer = new RustAnalyzer({ grammar: GRAMMAR });
    await analyzer.initialize({ root, phases: ['A', 'B'], options: {} });
    expect(await phaseB(analyzer, root, ['src/lib.rs'], [])).toEqual(['src/lib.rs:go -> src/lib.rs:f']);
    writeFileSync(join(root, 'build.rs'), script('slow'));
    expect(await phaseB(analyzer, root, ['src/lib.rs'], ['build.rs'])).toEqual(['src/lib.rs:go -> src/lib.rs:f@2']);
  });

  it("takes a wrapper macro's attributes from its definition as it is now, in files that did not change", async () => {
    const wrap = (name: string, cfg: string) => `macro_rules! ${name} { ($($i:item)*) => { $( #[cfg(${cfg})] $i )* } }\n`;
    const root = writeProject({
      'Cargo.toml': '[package]\nname = "wrap"\nversion = "0.1.0"\nedition = "2021"\n[features]\nx = []\n',
      'src/macros.rs': wrap('cfg_on', 'feature = "x"') + wrap('cfg_off', 'not(feature = "x")'),
      'src/lib.rs': '#[macro_use]\nmod macros;\nmod a;\npub fn go() { a::f() }\n',
      'src/a.rs': 'cfg_on! { pub fn f() {} }\ncfg_off! { pub fn f() {} }\n',
    });
    const analyzer = new RustAnalyzer({ grammar: GRAMMAR });
    await analyzer.initialize({ root, phases: ['A', 'B'], options: {} });
    const all = ['src/lib.rs', 'src/macros.rs', 'src/a.rs'];
    expect(await phaseB(analyzer, root, all, [])).toEqual(['src/lib.rs:go -> src/a.rs:f@2']);

    writeFileSync(join(root, 'src/macros.rs'), wrap('cfg_on', 'not(feature = "x")') + wrap('cfg_off', 'feature = "x"'));
    expect(await phaseB(analyzer, root, ['src/macros.rs'], ['src/macros.rs'])).toEqual([]);
    expect(await phaseB(analyzer, root, ['src/lib.rs'], [])).toEqual(['src/lib.rs:go -> src/a.rs:f']);
  });

  it("expands another file's item macro in a session whose Phase A read nothing, and again once the macro changes", async () => {
    const make = (method: string) => `macro_rules! make { ($n:ident) => { pub struct $n; impl $n { pub fn ${method}(&self) {} } }; }\n`;
    const root = writeProject({
      'Cargo.toml': '[package]\nname = "mk"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/macros.rs': make('one'),
      'src/lib.rs': '#[macro_use]\nmod macros;\nmod user;\n',
      'src/user.rs': 'make!(Thing);\npub fn go(t: Thing) { t.one(); t.two(); }\n',
    });
    const analyzer = new RustAnalyzer({ grammar: GRAMMAR });
    await analyzer.initialize({ root, phases: ['A', 'B'], options: {} });
    const all = ['src/lib.rs', 'src/macros.rs', 'src/user.rs'];
    expect(await phaseB(analyzer, root, all, [])).toEqual(['src/user.rs:go -> src/user.rs:Thing::one']);
    writeFileSync(join(root, 'src/macros.rs'), make('two'));
    expect(await phaseB(analyzer, root, ['src/user.rs'], ['src/macros.rs'])).toEqual(['src/user.rs:go -> src/user.rs:Thing::two']);
  });
});
