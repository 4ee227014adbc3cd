// Benchmark `rust-accuracy` (issue 18): the Rust call graph against a compiler-grade reference.
// 1. Accuracy: four crates from Debian's librust-*-dev packages (regex, serde_json and clap, the
//    issue's examples, and aho-corasick, which it does not name). The reference is rustc 1.63's
//    -Zsave-analysis of each crate's library (rust-accuracy-truth.js): call edges caller
//    definition → callee definition as the compiler resolved them, a trait method call counted
//    against the trait item. travsr indexes a git copy of the crate (`travsr init`, Phase A + B,
//    sandboxed) and `travsr graph export` is scored (rust-accuracy-score.js): precision (target
//    0.95) and recall (target 0.85) of `calls` edges, `implements` edges apart, and the same for
//    the crate indexed with Phase A only (index.semantic = false: the host's name matching, the
//    floor).
// 2. Speed: the largest corpus (clap), a full `travsr init` against a clean `cargo check` of the
//    same sources in the same run, 3 rounds: wall, lines/s, peak RSS (target: ≥ 3× faster), each
//    init in a fresh Travsr home; then 3 more in one home a first init set up.
// TRAVSR_BENCH_RUST=regex,clap picks corpora (the speed part takes the largest of them); any other
// name is that crate from Debian's registry (TRAVSR_BENCH_RUST=indexmap), as a crate the issue does not name;
// TRAVSR_BENCH_RUST_PART=accuracy or =speed runs one part.
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { log, percentile, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { describePlugin, exportGraph, failureText } from './py-accuracy-travsr.js';
import {
  RUST_CORPORA,
  cacheDir,
  crateRepo,
  prerequisiteProblem,
  registryDir,
  runCargo,
  rustStats,
  rustTruth,
  toolchainVersions,
} from './rust-accuracy-reference.js';
import { scoreExport, writeDisagreements } from './rust-accuracy-score.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

export const name = 'rust-accuracy';
export const title = 'Rust call graph vs rustc save-analysis';

const PRECISION_TARGET = 0.95;
const RECALL_TARGET = 0.85;
const SPEED_RATIO_TARGET = 3;
/** Rounds of the speed comparison, each a clean cargo check then a travsr init. */
const SPEED_ROUNDS = 3;

const mib = (kib) => (kib === undefined ? NaN : kib / 1024);
const seconds = (ms) => ms / 1000;
const fixed = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const ratio = (v, hit, of) => `${fixed(v, 3)} (${hit} of ${of})`;
const verdict = (v, target) => (Number.isFinite(v) && v >= target ? 'ok' : 'below');
const thousands = (n) => n.toLocaleString('en-US');
/** `{ a: 2, b: 1 }` → "a 2, b 1", largest first; "none" when empty. */
const counts = (o) =>
  Object.entries(o)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${v}`)
    .join('; ') || 'none';
const median = (values) => percentile(values, 50);
const implementsScore = (s) => `${fixed(s.precision, 3)} / ${fixed(s.recall, 3)} (TP ${s.tp}, FP ${s.fp}, FN ${s.fn})`;

/**
 * The corpora TRAVSR_BENCH_RUST names (comma-separated), or all of RUST_CORPORA. A name that is
 * not one of them is any other crate of Debian's registry (`indexmap`, `petgraph`: its
 * librust-*-dev package installed), measured as a crate the issue does not name.
 */
function selectedCorpora() {
  const names = process.env.TRAVSR_BENCH_RUST?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!names?.length) return RUST_CORPORA;
  return names.map(
    (n) =>
      RUST_CORPORA.find((c) => c.name === n) ?? {
        name: n,
        deb: `librust-${n.replace(/_/g, '-')}-dev`,
        ident: n.replace(/-/g, '_'),
        notInIssue: true,
      },
  );
}

// ---- travsr ----

/** The plugin entry of an index summary that analyzed the `.rs` files, or undefined. */
const rustPlugin = (summary) => summary.plugins.find((p) => p.languages.includes('rust') && p.files > 0);

/**
 * `travsr init <repo> --no-hook --json` in `home` (default a fresh TRAVSR_HOME; `extraEnv` added,
 * e.g. TRAVSR_INDEX_SEMANTIC=false), measured by runTravsr. Returns `{ init, summary, plugin, home, env }`.
 */
async function initRust(repo, corpus, extraEnv = {}, home = benchTravsrHome()) {
  const env = { TRAVSR_CORPUS: `bench.travsr.dev/${corpus.name}`, ...extraEnv };
  const init = await runTravsr(['init', repo, '--no-hook', '--json'], { home, env, timeoutMs: 1_800_000 });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const summary = JSON.parse(init.stdout).summary;
  const plugin = rustPlugin(summary);
  if (!plugin) throw new Error(`travsr init analyzed no .rs file in ${repo} (unclaimed: ${JSON.stringify(summary.unclaimed)})`);
  if (summary.failed > 0) log(`rust-accuracy: ${corpus.name}: ${summary.failed} files failed, e.g. ${failureText(summary)}`);
  return { init, summary, plugin, home, env };
}

/** A crate indexed (with `extraEnv`), exported and scored against the reference; its disagreements written to the cache. */
async function indexAndScore(corpus, truth, label, extraEnv = {}) {
  const { repo } = crateRepo(corpus, `rust-${corpus.name}-${label}`);
  const run = await initRust(repo, corpus, extraEnv);
  const exp = await exportGraph(repo, run);
  const score = scoreExport(truth, exp.out, repo);
  writeDisagreements(cacheDir, corpus.name, label, score.calls, score.graph);
  return { run, score, provenance: score.graph.provenance };
}

// ---- accuracy ----

/** `.rs` files and lines of a corpus (the registry's sources, which every copy holds). */
const crateRepoStats = (corpus) => rustStats(registryDir(corpus).dir);

async function scoreCorpus(corpus) {
  log(`rust-accuracy: ${corpus.name}: reference (save-analysis, cached per crate version)…`);
  const { truth, version } = await rustTruth(corpus);
  const stats = crateRepoStats(corpus);
  log(`rust-accuracy: ${corpus.name} ${version}: travsr init (Phase A + B)…`);
  const b = await indexAndScore(corpus, truth, 'phase-b');
  log(`rust-accuracy: ${corpus.name} ${version}: travsr init, Phase A only…`);
  const a = await indexAndScore(corpus, truth, 'phase-a', { TRAVSR_INDEX_SEMANTIC: 'false' });
  return { corpus, truth, version, stats, b, a };
}

function corpusRows(r) {
  const { corpus, truth, version, stats, b, a } = r;
  const n = corpus.name;
  const ranB = b.run.plugin.phases.includes('B');
  const phase = ranB ? 'Phase B' : 'Phase A+B run (no Phase B ran)';
  const c = b.score.calls;
  const im = b.score.implements;
  const ca = a.score.calls;
  const t = truth.stats;
  const label = `${n} ${version}${corpus.notInIssue ? ' (not named in issue 18)' : ''} (${stats.files} .rs files, ${thousands(stats.lines)} lines)`;
  return [
    row(
      title,
      `${label}: reference call edges (${t.callEdgesToTraitItems} to trait items; ${t.refEdges} value uses, ${t.fnDefs} functions, ${t.macroRulesRegions} macro_rules!)`,
      t.callEdges,
      'edges',
    ),
    row(
      title,
      `${n}: Rust served by; calls edges phase-b / phase-a`,
      `${describePlugin(b.run.plugin)}; ${b.provenance['phase-b'] ?? 0} / ${b.provenance['phase-a'] ?? 0}`,
      '',
    ),
    row(
      title,
      `${n}: reference functions with a node (definitions matched by file, name and line)`,
      `${c.fnDefsMatched} of ${c.fnDefs}`,
      '',
    ),
    row(
      title,
      `${n}: ${phase} calls edges scored / set aside: ${counts(c.setAside)}`,
      `${c.scored} / ${b.score.graph.calls.length - c.scored}`,
      'edges',
    ),
    row(
      title,
      `${n}: ${phase} precision`,
      ratio(c.precision, c.tp, c.scored),
      '',
      `≥ ${PRECISION_TARGET}`,
      ranB ? verdict(c.precision, PRECISION_TARGET) : 'no Phase B',
    ),
    row(
      title,
      `${n}: ${phase} recall`,
      ratio(c.recall, c.found, c.truthEdges),
      '',
      `≥ ${RECALL_TARGET}`,
      ranB ? verdict(c.recall, RECALL_TARGET) : 'no Phase B',
    ),
    row(title, `${n}: ${phase} false positives by kind`, counts(c.falsePositiveKinds), ''),
    row(title, `${n}: ${phase} misses by kind`, counts(c.missKinds), ''),
    row(
      title,
      `${n}: implements impl method → trait item P / R (${im.method.setAside} to traits outside the crate set aside)`,
      implementsScore(im.method),
      '',
    ),
    row(
      title,
      `${n}: implements type → trait P / R (${im.type.setAside} set aside; ${im.other} implements edges of associated types and consts)`,
      implementsScore(im.type),
      '',
    ),
    row(title, `${n}: supertraits, trait → supertrait (implements or inherits) P / R`, implementsScore(im.supertrait), ''),
    row(
      title,
      `${n}: Phase A (name matching) precision / recall (${ca.scored} scored, ${a.score.graph.calls.length - ca.scored} set aside)`,
      `${fixed(ca.precision, 3)} / ${fixed(ca.recall, 3)}`,
      '',
    ),
    row(
      title,
      `${n}: travsr init wall A+B / A only; disagreements in ${join('test', 'bench', '.cache', 'rust-accuracy')}/${n}.*.disagreements.txt`,
      `${seconds(b.run.init.wallMs).toFixed(1)} / ${seconds(a.run.init.wallMs).toFixed(1)}`,
      's',
    ),
  ];
}

async function accuracy(corpora) {
  const rows = [row(title, 'reference: save-analysis of each crate library (default features)', toolchainVersions(), '')];
  const met = [];
  for (const corpus of corpora) {
    try {
      const r = await scoreCorpus(corpus);
      rows.push(...corpusRows(r));
      const c = r.b.score.calls;
      if (c.precision >= PRECISION_TARGET && c.recall >= RECALL_TARGET && r.b.run.plugin.phases.includes('B')) met.push(corpus.name);
    } catch (e) {
      rows.push(skipRow(`${title} (accuracy, ${corpus.name})`, `not run: ${e.message.split('\n')[0]}`, 'error'));
    }
  }
  rows.push(
    row(
      title,
      `corpora meeting both accuracy targets (${met.join(', ') || 'none'})`,
      `${met.length} of ${corpora.length}`,
      '',
      `${corpora.length} of ${corpora.length}`,
      met.length === corpora.length ? 'ok' : 'below',
    ),
  );
  return rows;
}

// ---- speed ----

/** The largest of the corpora by `.rs` lines. */
function largest(corpora) {
  return corpora.map((c) => ({ c, ...crateRepoStats(c) })).sort((x, y) => y.lines - x.lines)[0].c;
}

/**
 * One round: `cargo check` on a clean target directory (dependencies and crate, default jobs),
 * `cargo check` again after touching the crate root (the crate alone), then `travsr init` with
 * `.travsr/` removed, in a fresh TRAVSR_HOME (the sandbox probed and the plugin's files hashed
 * in the round, as on a machine's first run).
 */
async function speedRound(corpus, repo) {
  const target = join(tempDir(`rust-speed-target-${corpus.name}`), 'target');
  const clean = await runCargo(repo, ['check', '-q', '--target-dir', target]);
  const now = new Date();
  utimesSync(join(repo, 'src', 'lib.rs'), now, now);
  const crateOnly = await runCargo(repo, ['check', '-q', '--target-dir', target]);
  rmSync(target, { recursive: true, force: true });
  rmSync(join(repo, '.travsr'), { recursive: true, force: true });
  const travsr = await initRust(repo, corpus);
  return { clean, crateOnly, travsr };
}

async function speed(corpora) {
  const corpus = largest(corpora);
  const { version } = registryDir(corpus);
  const { repo, files, lines } = crateRepo(corpus, `rust-speed-${corpus.name}`);
  const n = corpus.name;
  const rounds = [];
  for (let i = 0; i < SPEED_ROUNDS; i++) {
    log(`rust-accuracy: ${n} ${version}: speed round ${i + 1}/${SPEED_ROUNDS} (cargo check, then travsr init)…`);
    rounds.push(await speedRound(corpus, repo));
  }
  // The same init in a Travsr home a first init set up (the sandbox probed, the plugin's files
  // hashed): what indexing another crate costs on a machine that ran Travsr before, as a clean
  // `cargo check` finds its registry in place.
  const home = benchTravsrHome();
  rmSync(join(repo, '.travsr'), { recursive: true, force: true });
  await initRust(repo, corpus, {}, home);
  const warm = [];
  for (let i = 0; i < SPEED_ROUNDS; i++) {
    rmSync(join(repo, '.travsr'), { recursive: true, force: true });
    warm.push((await initRust(repo, corpus, {}, home)).init.wallMs);
  }
  const warmS = median(warm.map(seconds));
  const list = (pick) => rounds.map((r) => seconds(pick(r)).toFixed(1)).join(', ');
  const cleanS = median(rounds.map((r) => seconds(r.clean.wallMs)));
  const crateS = median(rounds.map((r) => seconds(r.crateOnly.wallMs)));
  const byWall = [...rounds].sort((x, y) => x.travsr.init.wallMs - y.travsr.init.wallMs);
  const t = byWall[Math.floor(byWall.length / 2)].travsr;
  const wallS = seconds(t.init.wallMs);
  const ranB = t.plugin.phases.includes('B');
  const note = ranB ? '' : ' (no Phase B ran)';
  const speedUp = cleanS / wallS;
  return [
    row(title, `speed corpus: ${n} ${version} (${files} .rs files; cargo check compiles the library and its dependencies)`, lines, 'lines'),
    row(
      title,
      `${n}: cargo check, clean target (dependencies + crate, default jobs), median of ${rounds.length} (${list((r) => r.clean.wallMs)})`,
      cleanS,
      's',
    ),
    row(
      title,
      `${n}: cargo check of the crate alone (dependencies built, src/lib.rs touched), median (${list((r) => r.crateOnly.wallMs)})`,
      crateS,
      's',
    ),
    row(title, `${n}: Rust served by`, describePlugin(t.plugin), ''),
    row(
      title,
      `${n}: travsr init wall (Phase A + B, sandboxed)${note}, median of ${rounds.length} (${list((r) => r.travsr.init.wallMs)})`,
      wallS,
      's',
    ),
    row(
      title,
      `${n}: full index lines/s (whole init wall; index durationMs ${fixed(seconds(t.summary.durationMs), 2)} s)`,
      lines / wallS,
      'lines/s',
    ),
    row(
      title,
      `${n}: speed-up over a clean cargo check (wall)${note}`,
      speedUp,
      '×',
      `≥ ${SPEED_RATIO_TARGET}×`,
      ranB ? verdict(speedUp, SPEED_RATIO_TARGET) : 'no Phase B',
    ),
    row(
      title,
      `${n}: travsr init wall in a Travsr home set up before (sandbox probed, plugin files hashed), median of ${warm.length} (${warm.map((w) => seconds(w).toFixed(2)).join(', ')})`,
      warmS,
      's',
    ),
    row(title, `${n}: speed-up over a clean cargo check, home set up before (wall)`, cleanS / warmS, '×'),
    row(title, `${n}: speed-up over cargo check of the crate alone (wall)`, crateS / wallS, '×'),
    row(
      title,
      `${n}: travsr peak RSS host / plugin (VmHWM)`,
      `${fixed(mib(t.init.hostPeakKiB), 0)} / ${fixed(mib(t.init.pluginPeakKiB), 0)}`,
      'MiB',
    ),
    row(
      title,
      `${n}: travsr CPU host / plugin`,
      `${fixed(seconds(t.init.hostCpuMs ?? NaN), 1)} / ${fixed(seconds(t.init.pluginCpuMs ?? NaN), 1)}`,
      's',
    ),
  ];
}

export async function run() {
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  let corpora;
  try {
    corpora = selectedCorpora();
  } catch (e) {
    return [skipRow(title, e.message, 'error')];
  }
  const problem = prerequisiteProblem(corpora);
  if (problem) return [skipRow(title, problem)];
  const only = process.env.TRAVSR_BENCH_RUST_PART;
  const parts = [
    ['accuracy', accuracy],
    ['speed', speed],
  ];
  if (only && !parts.some(([p]) => p === only))
    return [skipRow(title, `TRAVSR_BENCH_RUST_PART=${only} is not a part; choose accuracy or speed`, 'error')];
  const rows = [];
  for (const [part, fn] of parts) {
    if (only && only !== part) continue;
    try {
      rows.push(...(await fn(corpora)));
    } catch (e) {
      rows.push(skipRow(`${title} (${part})`, `not run: ${e.message.split('\n')[0]}`, 'error'));
    }
  }
  return rows;
}
