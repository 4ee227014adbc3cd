// The crates of a repository from its manifests: targets, path dependencies, workspaces.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrateGraph } from '../src/crates/crate-graph.js';

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lang-rust-crates-'));
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), t);
  }
  return root;
}

describe('CrateGraph', () => {
  it('finds the lib, bins, examples, tests, benches and build script of a package', () => {
    const g = new CrateGraph(
      repo({
        'Cargo.toml': '[package]\nname = "my-tool"\n[[bin]]\nname = "extra"\npath = "tools/extra.rs"\n',
        'src/lib.rs': '',
        'src/main.rs': '',
        'src/bin/other.rs': '',
        'src/bin/multi/main.rs': '',
        'examples/demo.rs': '',
        'tests/it.rs': '',
        'benches/speed.rs': '',
        'build.rs': '',
        'tools/extra.rs': '',
      }),
    );
    expect(g.crates.map((c) => `${c.kind}:${c.name}:${c.root}`).sort()).toEqual([
      'bench:speed:benches/speed.rs',
      'bin:extra:tools/extra.rs',
      'bin:multi:src/bin/multi/main.rs',
      'bin:my_tool:src/main.rs',
      'bin:other:src/bin/other.rs',
      'build:build_script_build:build.rs',
      'example:demo:examples/demo.rs',
      'lib:my_tool:src/lib.rs',
      'test:it:tests/it.rs',
    ]);
    const test = g.crates.find((c) => c.kind === 'test')!;
    expect([...test.deps.keys()]).toEqual(['my_tool']);
    expect(g.crates.find((c) => c.kind === 'build')!.deps.size).toBe(0);
  });

  it('links workspace members by path and workspace dependencies, dev-dependencies only for tests, and keeps registry ones external', () => {
    const g = new CrateGraph(
      repo({
        'Cargo.toml': '[workspace]\nmembers = ["a", "b"]\n[workspace.dependencies]\na = { path = "a" }\n',
        'a/Cargo.toml': '[package]\nname = "a"\n',
        'a/src/lib.rs': '',
        'b/Cargo.toml':
          '[package]\nname = "b"\n[dependencies]\na = { workspace = true }\nserde = "1"\n[dev-dependencies]\nalias = { path = "../a", package = "a" }\n',
        'b/src/lib.rs': '',
        'b/tests/t.rs': '',
      }),
    );
    const b = g.crates.find((c) => c.key === 'b#lib:b')!;
    expect([...b.deps.keys()]).toEqual(['a']);
    expect(b.externalDeps.has('serde')).toBe(true);
    const t = g.crates.find((c) => c.kind === 'test')!;
    expect([...t.deps.keys()].sort()).toEqual(['a', 'alias', 'b']);
    expect(g.modulePathOf('b/src/x/mod.rs')).toBe('b::x');
    expect(g.modulePathOf('b/src/x/y.rs')).toBe('b::x::y');
    expect(g.modulePathOf('b/src/lib.rs')).toBe('b');
  });

  it('reports a manifest it cannot read and goes on with the others', () => {
    const g = new CrateGraph(repo({ 'Cargo.toml': '[package\n', 'sub/Cargo.toml': '[package]\nname = "sub"\n', 'sub/src/lib.rs': '' }));
    expect(g.problems.map((p) => p.path)).toEqual(['Cargo.toml']);
    expect(g.crates.map((c) => c.name)).toEqual(['sub']);
  });
});
