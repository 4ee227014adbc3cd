// Benchmark `ts-accuracy` (issue 4): lang-typescript against scip-typescript.
// 1. Accuracy: the src/ of zod@3 (npm pack) indexed by scip-typescript and by `travsr init`;
//    call edges caller-definition → callee-definition compared (ts-accuracy-compare.js):
//    precision and recall of the Phase B edges (targets 0.97 / 0.95) and of the Phase A
//    name-matched edges (the floor).
// 2. Speed: the src/ of effect@3, full index end to end by both tools in the same run: wall
//    time and peak RSS (target: travsr at least 2× faster).
// 3. Phase A alone, in process: lines/s against the raw TypeScript parser and raw
//    web-tree-sitter on the same files.
// TRAVSR_BENCH_TS=accuracy, =speed or =phase-a runs only that part.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { loadGrammar } from '@travsr/sdk/tree-sitter';
import { log, repoRoot, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { cacheDir, corpusRepo, packedPackage, runMeasured, scipTypescript, sourceStats } from './ts-accuracy-corpus.js';
import { compareCalls, listTypeScript, loadExport, loadScip, syntaxFacts } from './ts-accuracy-compare.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

export const name = 'ts-accuracy';
export const title = 'lang-typescript vs scip-typescript';

const pluginDir = join(repoRoot, 'plugins', 'lang-typescript');
/** Rounds of the effect speed comparison (each: scip-typescript, then travsr init). */
const SPEED_ROUNDS = 3;
const mib = (kib) => (kib === undefined ? 'n/a' : kib / 1024);
const seconds = (ms) => ms / 1000;

function problem() {
  if (!existsSync(join(pluginDir, 'dist', 'main.js'))) return 'plugins/lang-typescript is not built; run `npm run build` first';
  return undefined;
}

/** scip-typescript over a repository; the index lands in a temp dir. */
async function indexWithScip(scip, repo) {
  const out = join(tempDir('scip'), 'index.scip');
  const r = await runMeasured(process.execPath, [scip.main, 'index', '--cwd', repo, '--output', out, '--no-progress-bar'], { cwd: repo });
  if (r.code !== 0) throw new Error(`scip-typescript exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return { ...r, out };
}

/** `travsr init` (Phase A + B, standard sandbox tier) then `graph export --format jsonl`. */
async function indexWithTravsr(repo, corpus, extraEnv = {}) {
  const home = benchTravsrHome();
  const env = { TRAVSR_CORPUS: corpus, ...extraEnv };
  const init = await runTravsr(['init', repo, '--no-hook', '--json'], { home, env, timeoutMs: 900_000 });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const summary = JSON.parse(init.stdout).summary;
  const ts = summary.plugins.find((p) => p.id === 'lang-typescript');
  if (!ts) throw new Error('travsr init did not run lang-typescript');
  const out = join(tempDir('export'), 'graph.jsonl');
  const exp = await runTravsr(['graph', 'export', repo, '--format', 'jsonl', '--out', out], { home, env });
  if (exp.code !== 0) throw new Error(`travsr graph export exited with ${exp.code}: ${exp.stderr.trim()}`);
  return { init, summary, plugin: ts, out };
}

async function accuracy() {
  const scip = scipTypescript();
  const pkg = packedPackage('zod@3');
  const repo = corpusRepo(pkg, 'zod');
  const stats = sourceStats(join(repo, 'src'));
  const label = `zod@${pkg.version} src/ (${stats.files} files, ${stats.lines.toLocaleString('en-US')} lines)`;
  log(`ts-accuracy: ${label}: scip-typescript ${scip.version}…`);
  const s = await indexWithScip(scip, repo);
  log(`ts-accuracy: ${label}: travsr init…`);
  const t = await indexWithTravsr(repo, 'bench.travsr.dev/zod');
  const docs = loadScip(scip.scipModule, s.out);
  const facts = syntaxFacts(repo, listTypeScript(repo));
  const graph = loadExport(t.out);
  const c = compareCalls({ docs, facts, graph });
  // The floor: the same code indexed structurally only (index.semantic = false), where every
  // call edge is a name match. (With Phase B on, a file's Phase A refs are not name-matched.)
  log(`ts-accuracy: ${label}: travsr init, Phase A only…`);
  const tA = await indexWithTravsr(corpusRepo(pkg, 'zod-phase-a'), 'bench.travsr.dev/zod', { TRAVSR_INDEX_SEMANTIC: 'false' });
  const cA = compareCalls({ docs, facts, graph: loadExport(tA.out) });

  // Disagreements, for reading (not committed: .cache is ignored by git).
  const diffDir = join(cacheDir, 'ts-accuracy');
  mkdirSync(diffDir, { recursive: true });
  const section = (title, keys) => [`## ${title} (${keys.length})`, ...keys.map(c.describe), ''];
  writeFileSync(
    join(diffDir, 'zod-disagreements.txt'),
    [
      ...section('Phase B edges SCIP does not have (false positives)', c.phaseB.falsePositives),
      ...section('SCIP call edges Phase B misses (false negatives)', c.phaseB.falseNegatives),
      ...section('Phase B edges left out as not verifiable (SCIP names no target at a call site of that name)', c.phaseB.unverifiable),
      ...section('Phase A edges SCIP does not have', cA.phaseA.falsePositives),
    ].join('\n'),
  );
  const b = c.phaseB;
  const a = cA.phaseA;
  const verdict = (v, target) => (v >= target ? 'ok' : 'below');
  const ratio = (hit, of) => `${(of === 0 ? NaN : hit / of).toFixed(3)} (${hit} of ${of})`;
  const rawPrecision = (side) => ratio(side.hit, side.edges + side.unverifiable.length);
  return [
    row(title, `accuracy corpus: ${label}`, c.reference, 'reference call edges'),
    row(
      title,
      'reference call sites left out: callee local or a parameter / outside the corpus / a type or namespace / unnamed by SCIP',
      `${c.excluded.local} / ${c.excluded.external} / ${c.excluded.notCallable} / ${c.excluded.unnamed}`,
      'call sites',
    ),
    row(
      title,
      'Phase B call edges compared (left out: callee a nested function / not verifiable)',
      `${b.edges} (${b.leftOut} / ${b.unverifiable.length})`,
      'edges',
    ),
    row(title, 'Phase B precision', ratio(b.hit, b.edges), '', '≥ 0.97', verdict(b.precision, 0.97)),
    row(title, 'Phase B recall', ratio(b.hit, c.reference), '', '≥ 0.95', verdict(b.recall, 0.95)),
    row(title, 'Phase B precision counting unverifiable edges as wrong', rawPrecision(b), ''),
    row(
      title,
      'Phase A name-matched call edges compared (left out: nested / not verifiable)',
      `${a.edges} (${a.leftOut} / ${a.unverifiable.length})`,
      'edges',
    ),
    row(title, 'Phase A precision (floor)', ratio(a.hit, a.edges), ''),
    row(title, 'Phase A recall (floor)', ratio(a.hit, c.reference), ''),
    row(title, 'zod: scip-typescript wall / peak RSS', `${seconds(s.wallMs).toFixed(1)} s / ${mib(s.peakKiB).toFixed(0)} MiB`, ''),
    row(
      title,
      'zod: travsr init wall / host, plugin peak RSS',
      `${seconds(t.init.wallMs).toFixed(1)} s / ${mib(t.init.hostPeakKiB).toFixed(0)}, ${mib(t.init.pluginPeakKiB).toFixed(0)} MiB`,
      '',
    ),
  ];
}

/** Median of runs by wall time. */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)];
}

async function speed() {
  const scip = scipTypescript();
  const pkg = packedPackage('effect@3');
  const repo = corpusRepo(pkg, 'effect');
  const stats = sourceStats(join(repo, 'src'));
  const label = `effect@${pkg.version} src/ (${stats.files} files, ${stats.lines.toLocaleString('en-US')} lines)`;
  // Interleaved, so that a change in the machine's load hits both tools alike.
  const scipRuns = [];
  const travsrRuns = [];
  for (let i = 0; i < SPEED_ROUNDS; i++) {
    log(`ts-accuracy: ${label}: round ${i + 1}/${SPEED_ROUNDS}: scip-typescript ${scip.version}…`);
    scipRuns.push(await indexWithScip(scip, repo));
    log(`ts-accuracy: ${label}: round ${i + 1}/${SPEED_ROUNDS}: travsr init…`);
    rmSync(join(repo, '.travsr'), { recursive: true, force: true });
    travsrRuns.push(await indexWithTravsr(repo, 'bench.travsr.dev/effect'));
  }
  const s = medianRun(scipRuns);
  const t = medianRun(travsrRuns.map((r) => ({ ...r, wallMs: r.init.wallMs })));
  const graph = loadExport(t.out);
  const callsB = graph.edges.filter((e) => e.provenance === 'phase-b').length;
  const ratio = s.wallMs / t.init.wallMs;
  const walls = (runs, f) => runs.map((r) => seconds(f(r)).toFixed(1)).join(', ');
  return [
    row(title, `speed corpus: ${label}`, stats.lines, 'lines'),
    row(
      title,
      `effect: scip-typescript index wall, median of ${SPEED_ROUNDS} (${walls(scipRuns, (r) => r.wallMs)})`,
      seconds(s.wallMs),
      's',
    ),
    row(title, 'effect: scip-typescript peak RSS', mib(s.peakKiB), 'MiB'),
    row(
      title,
      `effect: travsr init wall (Phase A + B, sandboxed), median (${walls(travsrRuns, (r) => r.init.wallMs)})`,
      seconds(t.init.wallMs),
      's',
    ),
    row(title, 'effect: travsr index durationMs (walk … name matching)', seconds(t.summary.durationMs), 's'),
    row(
      title,
      'effect: travsr peak RSS host / plugin',
      `${mib(t.init.hostPeakKiB).toFixed(0)} / ${mib(t.init.pluginPeakKiB).toFixed(0)}`,
      'MiB',
    ),
    row(
      title,
      'effect: travsr CPU host / plugin',
      `${seconds(t.init.hostCpuMs ?? NaN).toFixed(1)} / ${seconds(t.init.pluginCpuMs ?? NaN).toFixed(1)}`,
      's',
    ),
    row(title, 'effect: files analyzed / failed, Phase B call edges', `${t.plugin.analyzed} / ${t.plugin.failed}, ${callsB}`, ''),
    row(title, 'effect: scip-typescript CPU', seconds(s.cpuMs ?? NaN), 's'),
    row(title, 'effect: speed-up over scip-typescript (median wall)', ratio, '×', '≥ 2×', ratio >= 2 ? 'ok' : 'below'),
    row(
      title,
      'effect: CPU time scip-typescript ÷ travsr (host + plugin): less sensitive to load',
      (s.cpuMs ?? NaN) / ((t.init.hostCpuMs ?? NaN) + (t.init.pluginCpuMs ?? NaN)),
      '×',
    ),
  ];
}

/**
 * Phase A against raw parsing, in this process on one core, over effect's files: the
 * TypeScript parser alone, Phase A (the same parse, plus definitions, skeletons and refs,
 * as the plugin does it: src/phase-a.ts bundled here), and web-tree-sitter with the
 * TypeScript grammar of tree-sitter-wasms (which the issue names as the physical limit).
 */
async function phaseASpeed() {
  const pkg = packedPackage('effect@3');
  const srcDir = join(pkg.dir, 'src');
  const files = listTypeScript(pkg.dir).map((p) => ({ path: p, text: readFileSync(join(pkg.dir, p), 'utf8') }));
  const lines = files.reduce((n, f) => n + f.text.split('\n').length, 0);
  void srcDir;
  const out = join(tempDir('phase-a'), 'phase-a.mjs');
  await build({
    stdin: {
      contents: [
        "export { default as ts } from 'typescript';",
        "export { analyzePhaseA } from './phase-a.js';",
        "export { parseSource } from './syntax.js';",
        "export { FileGraphBuilder } from '@travsr/sdk';",
      ].join('\n'),
      resolveDir: join(pluginDir, 'src'),
      loader: 'ts',
    },
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['msgpackr-extract'],
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
    },
    logLevel: 'warning',
  });
  const m = await import(pathToFileURL(out).href);
  const { ts } = m;
  const rawParse = () => {
    for (const f of files)
      ts.createSourceFile(
        f.path,
        f.text,
        { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeInfo },
        false,
      );
  };
  let units = 0;
  const phaseA = () => {
    for (const f of files) {
      const graph = new m.FileGraphBuilder({ corpus: 'bench', path: f.path, language: 'typescript' });
      const r = m.analyzePhaseA(
        { path: f.path, language: 'typescript', absolutePath: f.path, bytes: Buffer.from(f.text), text: f.text },
        graph,
        m.parseSource(f.path, f.text),
      );
      units += r.nodes.length + r.edges.length + (r.refs?.length ?? 0);
    }
  };
  const tsGrammar = await loadGrammar(join(repoRoot, 'node_modules', 'tree-sitter-wasms', 'out', 'tree-sitter-typescript.wasm'));
  const tsxGrammar = await loadGrammar(join(repoRoot, 'node_modules', 'tree-sitter-wasms', 'out', 'tree-sitter-tsx.wasm'));
  let treeSitterErrors = 0;
  const treeSitter = () => {
    treeSitterErrors = 0;
    for (const f of files) {
      const tree = (f.path.endsWith('x') ? tsxGrammar : tsGrammar).parse(f.text);
      if (tree.rootNode.hasError) treeSitterErrors++;
      tree.delete();
    }
  };
  const time = (fn) => {
    fn(); // warm-up
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      fn();
      runs.push(performance.now() - t0);
    }
    return runs.sort((a, b) => a - b)[1] / 1000;
  };
  const raw = time(rawParse);
  const a = time(phaseA);
  const tsit = time(treeSitter);
  const perS = (s) => lines / s;
  return [
    row(
      title,
      `Phase A corpus: effect@${pkg.version} src/ (${files.length} files, ${lines.toLocaleString('en-US')} lines), one core, median of 3`,
      lines,
      'lines',
    ),
    row(title, 'TypeScript parser alone (ts.createSourceFile)', perS(raw), 'lines/s'),
    row(title, 'Phase A (parse + definitions, skeletons, refs)', perS(a), 'lines/s'),
    row(
      title,
      `web-tree-sitter, tree-sitter-wasms TypeScript grammar (files with parse errors: ${treeSitterErrors})`,
      perS(tsit),
      'lines/s',
    ),
    row(title, 'Phase A ÷ raw parse (TypeScript / tree-sitter)', `${(raw / a).toFixed(2)} / ${(tsit / a).toFixed(2)}`, ''),
  ];
}

export async function run() {
  const p = problem();
  if (p) return [skipRow(title, p)];
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  const only = process.env.TRAVSR_BENCH_TS;
  const rows = [];
  for (const [part, fn] of [
    ['accuracy', accuracy],
    ['speed', speed],
    ['phase-a', phaseASpeed],
  ]) {
    if (only && only !== part) continue;
    try {
      rows.push(...(await fn()));
    } catch (e) {
      rows.push(skipRow(`${title} (${part})`, `not run: ${e.message.split('\n')[0]}`, 'error'));
    }
  }
  return rows;
}
