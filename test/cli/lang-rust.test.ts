// `travsr init` on a Cargo workspace of 30 crates with the real CLI, the built plugins and the
// standard sandbox tier: Rust goes to lang-rust (no longer lang-structural), Phase A and the
// native Phase B both run, calls across crates are resolved with `phase-b` provenance, and what
// trips a structural reader — a build script and a file included from OUT_DIR, macros by
// example, `#[cfg]` duplicates of one function, a module with syntax errors — indexes without a
// crash, with what was not resolved reported rather than guessed.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import rustManifest from '../../plugins/lang-rust/travsr-plugin.json' with { type: 'json' };
import { CRATE_COUNT, crateName, rustFiles, SPECIAL, writeWorkspace } from '../../plugins/lang-rust/test/fixture-workspace.js';
import { readLangToml, writeLangToml } from '../../host/src/catalog/lang-toml.js';
import { GraphStore } from '../../host/src/store/index.js';
import type { FileRow } from '../../host/src/store/types.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

/** The plugin under test, as its manifest names it (`lang-rust@0.10.0`); `V` for a regular expression. */
const LABEL = `lang-rust@${rustManifest.version}`;
const V = rustManifest.version.replace(/\./g, '\\.');

interface InitJson {
  languages: string[];
  steps: string[];
  summary: {
    failed: number;
    failures: unknown[];
    plugins: { id: string; languages: string[]; tier: string; phases: string[]; analyzed: number; failed: number; status: string }[];
  };
}
interface ExportNode {
  type: 'node';
  id: string;
  kind: string;
  name: string;
  qualified_name: string | null;
  path: string;
  start_line: number | null;
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
  parseErrors: Record<string, { files: number; of: number }>;
  pluginProblems: string[];
  failed: unknown[];
}
interface ListJson {
  languages: { language: string; plugin: string; state: string; phases?: string[]; phaseB?: string }[];
}

const TIMEOUT = 240_000;
const RUST_FILES = rustFiles();

let repo: GitRepo;
let init: { code: number | undefined; stdout: string; stderr: string };
let nodes: Map<string, ExportNode>;
let edges: ExportEdge[];
/** The files rows of the store after init, by path. */
let files: Map<string, FileRow>;

/** `kind src -> dst (provenance)` for every edge of `kind`, ends by qualified name. */
function edgeLines(kind: string): string[] {
  const q = (id: string) => nodes.get(id)?.qualified_name ?? nodes.get(id)?.path ?? `?${id.slice(0, 8)}`;
  return edges.filter((e) => e.kind === kind).map((e) => `${q(e.src)} -> ${q(e.dst)} (${e.provenance})`);
}

/** The definitions whose qualified name is `qualifiedName`. */
function definitions(qualifiedName: string): ExportNode[] {
  return [...nodes.values()].filter((n) => n.qualified_name === qualifiedName);
}

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

beforeAll(async () => {
  repo = new GitRepo('travsr-lang-rust-');
  writeWorkspace(repo.root);
  repo.commit('workspace');
  // At info level the host passes on the plugins' logs: lang-rust's count of unresolved call sites.
  init = await travsr(['init', repo.root, '--no-hook', '--json'], { timeoutMs: 180_000, env: { TRAVSR_LOG_LEVEL: 'info' } });
  expect(init.code, init.stderr).toBe(0);
  ({ nodes, edges } = await exportGraph());
  const store = GraphStore.open(join(repo.root, '.travsr', 'graph.db'), { readonly: true });
  try {
    files = new Map(store.listFiles().map((f) => [f.path, f]));
  } finally {
    store.close();
  }
}, TIMEOUT);
afterAll(() => repo?.dispose());

describe('travsr init on a Cargo workspace of 30 crates', () => {
  it('registers lang-rust for Rust and runs Phase A and B in the standard sandbox; lang-structural no longer claims .rs', () => {
    const out = JSON.parse(init.stdout) as InitJson;
    expect(out.languages).toContain('rust');
    expect(out.steps).toContain('registered lang-rust for rust');
    const rust = out.summary.plugins.find((p) => p.id === 'lang-rust');
    expect(rust).toMatchObject({
      languages: ['rust'],
      tier: 'standard',
      phases: ['A', 'B'],
      analyzed: RUST_FILES.length,
      failed: 0,
      status: 'ok',
    });
    // lang-structural runs for the shell script alone: it no longer declares Rust.
    const structural = out.summary.plugins.find((p) => p.id === 'lang-structural');
    expect(structural).toMatchObject({ phases: ['A'], analyzed: 1, failed: 0 });
    expect(structural?.languages).not.toContain('rust');
    expect(out.summary.plugins.filter((p) => p.languages.includes('rust')).map((p) => p.id)).toEqual(['lang-rust']);
    expect(out.summary.failed).toBe(0);
    expect(out.summary.failures).toEqual([]);
  });

  it('indexes every .rs file — the 30 crates, the build script, the binary, the integration test, the broken module — at Phase B', () => {
    const rust = [...files.values()].filter((f) => f.language === 'rust');
    expect(rust.map((f) => f.path).sort()).toEqual(RUST_FILES);
    for (const f of rust)
      expect({ path: f.path, status: f.status, plugin: f.plugin, phase: f.phase }).toEqual({
        path: f.path,
        status: 'ok',
        plugin: LABEL,
        phase: 'B',
      });
  });

  it('crashes nothing: no failed file, no plugin problem, no session that ended in an error', async () => {
    expect(init.stderr).not.toMatch(/PLUGIN_(CRASHED|DISABLED|TIMEOUT)|crash/i);
    const status = JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as StatusJson;
    expect(status.pluginProblems).toEqual([]);
    expect(status.failed).toEqual([]);
    const traces = await travsr(['trace', 'list', '--repo', repo.root, '--status', 'error', '--json']);
    expect(traces.code, traces.stderr).toBe(0);
    expect((JSON.parse(traces.stdout) as { traces: unknown[] }).traces).toEqual([]);
  });

  it('status and lang list: Rust ran A+B with the native Phase B, served by lang-rust alone', async () => {
    const text = await travsr(['status', repo.root]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`rust\\s+${RUST_FILES.length} files\\s+\\d+ nodes\\s+phase A\\+B \\(native; lang-rust@${V}, standard\\)`),
    );
    const status = JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as StatusJson;
    expect(status.languages.find((l) => l.language === 'rust')).toMatchObject({
      plugin: LABEL,
      phases: 'A+B',
      phaseB: ['native'],
    });
    expect(status.plugins.filter((p) => p.languages.includes('rust')).map((p) => p.id)).toEqual(['lang-rust']);

    const list = await travsr(['lang', 'list', '--repo', repo.root, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const rows = (JSON.parse(list.stdout) as ListJson).languages.filter((l) => l.language === 'rust');
    expect(rows.find((l) => l.state === 'active')).toMatchObject({ plugin: 'lang-rust', phases: ['A', 'B'], phaseB: 'native' });
    // Installed and in the built-in registry, lang-structural offers no Rust row at all.
    expect(rows.filter((l) => l.plugin === 'lang-structural')).toEqual([]);
    const human = await travsr(['lang', 'list', '--repo', repo.root]);
    expect(human.stdout).toMatch(new RegExp(`^rust\\s+lang-rust\\s+${V}\\s+standard\\s+active at Phase A\\+B \\(native\\)`, 'm'));
  });

  it('resolves the calls from crate to crate through path dependencies, with phase-b provenance', () => {
    const calls = edgeLines('calls');
    // c01 names c00 through [workspace.dependencies]; every other member its predecessor by path.
    for (let i = 1; i < CRATE_COUNT; i++) expect(calls).toContain(`${crateName(i)}::run -> ${crateName(i - 1)}::run (phase-b)`);
    expect(calls).toEqual(
      expect.arrayContaining([
        // A binary and an integration test name their package's library.
        'c29::main -> c29::run (phase-b)',
        expect.stringMatching(/^\S*smoke -> c29::run \(phase-b\)$/),
        // A module directory: `net::tcp::connect()` from the crate root.
        'c20::run -> c20::net::tcp::connect (phase-b)',
      ]),
    );
    // Nothing of a Phase B file is left to name matching: every call from Rust is phase-b.
    const fromRust = edges.filter((e) => e.kind === 'calls' && nodes.get(e.src)?.path.endsWith('.rs'));
    expect(fromRust.length).toBeGreaterThanOrEqual(CRATE_COUNT);
    expect(fromRust.filter((e) => e.provenance !== 'phase-b')).toEqual([]);
  });

  it('resolves associated functions, method calls and trait items across crates, with implements edges', () => {
    expect(edgeLines('calls')).toEqual(
      expect.arrayContaining([
        // `Counter` through c05's `pub use counter::Counter`; `counter.bump()` on the value `Counter::new()` returns.
        'c06::run -> c05::counter::Counter::new (phase-b)',
        'c06::run -> c05::counter::Counter::bump (phase-b)',
        // A call through `&dyn Stage` names the trait's item.
        'c08::drive -> c08::Stage::step (phase-b)',
        'c09::run -> c08::drive (phase-b)',
      ]),
    );
    expect(edgeLines('implements')).toContain('c09::<Gear as Stage>::step -> c08::Stage::step (phase-b)');
  });

  it('keeps both #[cfg(unix)] and #[cfg(windows)] definitions of one function, and calls the one a Linux build compiles', () => {
    const both = definitions('c17::platform_name').sort((a, b) => (a.start_line ?? 0) - (b.start_line ?? 0));
    expect(both).toHaveLength(2);
    expect(both.every((n) => n.path === SPECIAL.cfgDuplicates && n.kind === 'function')).toBe(true);
    // The #[cfg(unix)] one comes first in the file.
    const [unix] = both;
    const targets = edges.filter(
      (e) => e.kind === 'calls' && nodes.get(e.src)?.qualified_name === 'c17::run' && nodes.get(e.dst)?.name === 'platform_name',
    );
    expect(targets.map((e) => e.dst)).toEqual([unix!.id]);
  });

  it('macros by example: defined as macros, and a call in a macro body resolved where the macro is invoked', () => {
    for (const name of ['twice', 'constant_fn', 'call_run'])
      expect(
        definitions(`c12::${name}`).map((n) => n.kind),
        `c12::${name}`,
      ).toEqual(['macro']);
    // `twice!(…)` expands to `{ note(); … }`: c12::run calls c12::note.
    expect(edgeLines('calls')).toContain('c12::run -> c12::note (phase-b)');
  });

  it('macros by example: the functions a macro_rules! invocation writes are definitions, and calls of them resolved', () => {
    // `constant_fn!(twelve, 12);` writes `pub fn twelve() -> u64`.
    expect(definitions('c12::twelve').map((n) => n.kind)).toEqual(['function']);
    expect(definitions('c12::thirteen').map((n) => n.kind)).toEqual(['function']);
    expect(edgeLines('calls')).toEqual(
      expect.arrayContaining(['c12::run -> c12::twelve (phase-b)', 'c12::run -> c12::thirteen (phase-b)']),
    );
  });

  it('a module with syntax errors: reported in status, its good items kept and resolved', async () => {
    const broken = files.get(SPECIAL.syntaxErrors);
    expect(broken?.status).toBe('ok');
    expect(broken?.diagnostics.filter((d) => d.severity === 'warning' && /syntax error/.test(d.message))).toHaveLength(1);
    expect(definitions('c21::broken::before_the_break')).toHaveLength(1);
    expect(definitions('c21::broken::after_the_break')).toHaveLength(1);
    expect(edgeLines('calls')).toContain('c21::broken::after_the_break -> c21::broken::before_the_break (phase-b)');
    // Status counts it in Rust's parse-error share, as for every other language (the PARSE_ERRORS diagnostic).
    const status = JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as StatusJson;
    expect(status.parseErrors['rust']).toEqual({ files: 1, of: RUST_FILES.length });
  });

  it('build.rs and the file included from OUT_DIR: indexed, the generated function not guessed, and what was not resolved reported', () => {
    expect(files.get(SPECIAL.buildScript)?.status).toBe('ok');
    expect([...nodes.values()].some((n) => n.path === SPECIAL.buildScript && n.name === 'main' && n.kind === 'function')).toBe(true);
    const calls = edgeLines('calls');
    expect(calls).toContain('c03::run -> c02::run (phase-b)');
    // generated_table is defined in OUT_DIR/gen.rs, which is not in the repository; c10 has one of
    // that name, which c03 cannot even name: no edge, not a name-matched one either.
    expect(definitions('c10::generated_table')).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('c03::run -> ') && c.includes('generated_table'))).toEqual([]);
    // The run's call sites that got no edge are counted in the plugin's log…
    expect(init.stderr).toMatch(new RegExp(`\\[lang-rust@${V}\\][^\\n]*\\bunknown\\b`));
    // …and the include of a file the repository does not hold is reported on the file that makes it.
    const reported = files.get(SPECIAL.generatedInclude)?.diagnostics ?? [];
    expect(reported.map((d) => d.message).join('\n')).toMatch(/OUT_DIR|gen\.rs/);
  });

  it(
    'an installation updated from before the move: status names the stale mapping and the fix, and init applies it',
    async () => {
      // lang.toml as an older travsr left it: Rust mapped to lang-structural, lang-rust unknown.
      const reg = readLangToml();
      reg.languages['rust'] = { ...reg.languages['rust']!, plugin: 'lang-structural' };
      delete reg.plugins['lang-rust'];
      writeLangToml(reg);

      const stale = await travsr(['status', repo.root]);
      expect(stale.code, stale.stderr).toBe(0);
      expect(stale.stdout).toMatch(
        /! \[LANGUAGE_NOT_SERVED\] lang\.toml maps rust to lang-structural@0\.1\.0, which no longer serves rust/,
      );
      expect(stale.stdout).toContain(`run \`travsr init ${repo.root}\``);

      const again = await travsr(['init', repo.root, '--no-hook', '--json'], { timeoutMs: 180_000 });
      expect(again.code, again.stderr).toBe(0);
      expect((JSON.parse(again.stdout) as InitJson).steps).toContain('registered lang-rust for rust');
      expect(readLangToml().languages['rust']?.plugin).toBe('lang-rust');
      const fixed = await travsr(['status', repo.root]);
      expect(fixed.stdout).not.toContain('LANGUAGE_NOT_SERVED');
      expect(fixed.stdout).toMatch(new RegExp(`rust\\s+\\d+ files\\s+\\d+ nodes\\s+phase A\\+B \\(native; lang-rust@${V}, standard\\)`));
    },
    TIMEOUT,
  );
});
