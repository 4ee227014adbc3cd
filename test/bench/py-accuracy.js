// Benchmark `py-accuracy` (issue 13): the Python call graph against scip-python (pyright).
// 1. Accuracy: six Debian packages (requests, flask, click, jinja2, werkzeug, django), call
//    edges caller-definition → callee-definition scored by calls-bench (its truth.mjs builds the
//    reference from scip-python, its score.mjs scores `travsr graph export`): precision over
//    verifiable edges (target 0.97), precision counting every edge the reference lacks as
//    wrong, recall (target 0.95); the same for Phase A alone (index.semantic = false).
// 2. Speed: Django 3.2, a full `travsr init` (Phase A + B, sandboxed) against scip-python on
//    the same files in the same run: wall time, peak RSS of host and plugin (targets: ≤ 10 s,
//    ≥ 5× faster, plugin ≤ 600 MiB).
// 3. Incremental: one-file commits on the initialised Django repository, each reindexed by
//    `travsr hook-run` (target < 1 s end to end); then with the daemon managing the repository,
//    save + commit until its graph is at the commit with Phase B stored.
// TRAVSR_BENCH_PY=accuracy, =speed or =incremental runs one part.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log, row, sandboxAvailable, skipRow } from './common.js';
import { incremental } from './py-accuracy-incremental.js';
import {
  PY_CORPORA,
  callsBenchProblem,
  corpusCopy,
  corpusVersion,
  indexWithScipPython,
  pythonCorpus,
  pythonStats,
  pythonTruth,
  scipPython,
} from './py-accuracy-corpus.js';
import { scoreExport, scoreDir } from './py-accuracy-score.js';
import { describePlugin, exportGraph, initPython } from './py-accuracy-travsr.js';

export const name = 'py-accuracy';
export const title = 'Python call graph vs scip-python';

const PRECISION_TARGET = 0.97;
const RECALL_TARGET = 0.95;
const SPEED_WALL_TARGET_S = 10;
const SPEED_RATIO_TARGET = 5;
const PLUGIN_RSS_TARGET_MIB = 600;
/** travsr runs of the speed comparison (scip-python runs once: at ~100 s, its noise is small). */
const TRAVSR_SPEED_RUNS = 3;
/** False-positive and miss groups of score.mjs shown per corpus (all are in the kept text). */
const GROUPS_SHOWN = 3;

const mib = (kib) => (kib === undefined ? NaN : kib / 1024);
const seconds = (ms) => ms / 1000;
const fixed = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const ratio = (v, hit, of) => `${fixed(v, 3)} (${hit} of ${of})`;
const verdict = (v, target) => (Number.isFinite(v) && v >= target ? 'ok' : 'below');
const corpusLabel = (c, stats) => `${c.name} ${corpusVersion(c)} (${stats.files} files, ${stats.lines.toLocaleString('en-US')} lines)`;

/** Median of runs by wall time. */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.init.wallMs - b.init.wallMs)[Math.floor(runs.length / 2)];
}

/** Phase B and Phase A runs of one corpus, scored. */
async function scoreCorpus(c) {
  const dir = pythonCorpus(c);
  const truth = pythonTruth(c, dir);
  const stats = pythonStats(dir);
  const label = corpusLabel(c, stats);
  log(`py-accuracy: ${label}: travsr init (Phase A + B)…`);
  const repoB = corpusCopy(dir, `py-${c.name}`);
  const b = await initPython(repoB, `bench.travsr.dev/${c.name}`);
  const expB = await exportGraph(repoB, b);
  const sB = scoreExport({ truthPrefix: truth.prefix, exportFile: expB.out, corpus: c.name, label: 'phase-b' });
  log(`py-accuracy: ${label}: travsr init, Phase A only…`);
  const repoA = corpusCopy(dir, `py-${c.name}-phase-a`);
  const a = await initPython(repoA, `bench.travsr.dev/${c.name}`, { TRAVSR_INDEX_SEMANTIC: 'false' });
  const expA = await exportGraph(repoA, a);
  const sA = scoreExport({ truthPrefix: truth.prefix, exportFile: expA.out, corpus: c.name, label: 'phase-a' });
  return { c, truth, stats, label, b, expB, sB, a, sA };
}

function corpusRows(r) {
  const { c, truth, label, b, expB, sB, a, sA } = r;
  const ranB = b.plugin?.phases.includes('B') === true;
  // Without a Phase B (lang-python not built yet) the "Phase B" run is name matching too: said in every row.
  const phase = ranB ? 'Phase B' : 'Phase A+B run (no Phase B ran)';
  const n = c.name;
  const rows = [
    row(title, `${label}: reference call edges (${truth.meta.tool ?? 'scip-python'})`, truth.meta.edges, 'edges'),
    row(
      title,
      `${n}: Python served by; calls edges phase-b / phase-a`,
      `${describePlugin(b.plugin)}; ${expB.calls['phase-b'] ?? 0} / ${expB.calls['phase-a'] ?? 0}`,
      '',
    ),
    row(
      title,
      `${n}: ${phase} calls edges scored / set aside as outside the reference (module-level caller, variable or property callee)`,
      `${sB.oursEdges - sB.outOfScope} / ${sB.outOfScope}`,
      'edges',
    ),
    row(
      title,
      `${n}: ${phase} precision over verifiable edges (${sB.unverifiable} unverifiable left out)`,
      ratio(sB.verifiablePrecision, sB.tp, sB.tp + sB.verifiableFp),
      '',
      `≥ ${PRECISION_TARGET}`,
      ranB ? verdict(sB.verifiablePrecision, PRECISION_TARGET) : 'no Phase B',
    ),
    row(title, `${n}: ${phase} precision, every edge the reference lacks counted wrong`, ratio(sB.precision, sB.tp, sB.tp + sB.fp), ''),
    row(
      title,
      `${n}: ${phase} recall`,
      ratio(sB.recall, sB.tp, sB.tp + sB.fn),
      '',
      `≥ ${RECALL_TARGET}`,
      ranB ? verdict(sB.recall, RECALL_TARGET) : 'no Phase B',
    ),
    row(
      title,
      `${n}: Phase A (name matching) precision verifiable / all, recall`,
      `${fixed(sA.verifiablePrecision, 3)} / ${fixed(sA.precision, 3)}, ${fixed(sA.recall, 3)}`,
      '',
    ),
  ];
  const groups = (kind, list) =>
    list
      .slice(0, GROUPS_SHOWN)
      // Counts as text, so the table prints 24 and not 24.0; examples are in the kept score text.
      .map((g, i) => row(title, `${n}: ${phase} ${kind} #${i + 1}: ${g.cat}`, String(g.n), 'edges'));
  rows.push(
    ...groups('false positives', sB.falsePositives),
    ...groups('misses', sB.misses),
    row(
      title,
      `${n}: travsr init wall A+B / A only; score text in ${join('test', 'bench', '.cache', 'py-accuracy')}/${n}.*.score.txt`,
      `${seconds(b.init.wallMs).toFixed(1)} / ${seconds(a.init.wallMs).toFixed(1)}`,
      's',
    ),
  );
  return rows;
}

/**
 * The accuracy corpora, or the ones TRAVSR_BENCH_PY_CORPORA names (comma-separated), for a
 * quicker look. A name that is not one of them is any other Debian package's top-level Python
 * package (`markdown` from python3-markdown; `yaml=python3-yaml` when the package is named
 * otherwise), measured beside them.
 */
function selectedCorpora() {
  const names = process.env.TRAVSR_BENCH_PY_CORPORA?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!names?.length) return PY_CORPORA;
  return names.map((entry) => {
    const [name, deb] = entry.split('=');
    return PY_CORPORA.find((c) => c.name === name) ?? { name, deb: deb || `python3-${name}`, builder: 'bench' };
  });
}

async function accuracy() {
  const rows = [];
  const met = [];
  const corpora = selectedCorpora();
  for (const c of corpora) {
    try {
      const r = await scoreCorpus(c);
      rows.push(...corpusRows(r));
      if (r.sB.verifiablePrecision >= PRECISION_TARGET && r.sB.recall >= RECALL_TARGET && r.b.plugin?.phases.includes('B'))
        met.push(c.name);
    } catch (e) {
      rows.push(skipRow(`${title} (accuracy, ${c.name})`, `not run: ${e.message.split('\n')[0]}`, 'error'));
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
  log(`py-accuracy: score texts in ${scoreDir}`);
  return rows;
}

/** Django indexed by scip-python once and by `travsr init` TRAVSR_SPEED_RUNS times; the last travsr repository stays initialised. */
async function speed(state) {
  const django = PY_CORPORA.find((c) => c.name === 'django');
  const dir = pythonCorpus(django);
  const stats = pythonStats(dir);
  const label = corpusLabel(django, stats);
  const scip = scipPython();
  log(`py-accuracy: ${label}: scip-python ${scip.version}, uncached…`);
  const s = await indexWithScipPython(scip, corpusCopy(dir, 'py-django-scip'), 'django');
  const repo = corpusCopy(dir, 'py-django');
  const runs = [];
  for (let i = 0; i < TRAVSR_SPEED_RUNS; i++) {
    log(`py-accuracy: ${label}: travsr init ${i + 1}/${TRAVSR_SPEED_RUNS}…`);
    rmSync(join(repo, '.travsr'), { recursive: true, force: true });
    runs.push(await initPython(repo, 'bench.travsr.dev/django'));
  }
  const last = runs.at(-1);
  // Once more in the last run's TRAVSR_HOME: what a plugin keeps in its cache there (lang-python:
  // the module IRs) is warm, as when a user indexes again.
  log(`py-accuracy: ${label}: travsr init again, plugin cache warm…`);
  rmSync(join(repo, '.travsr'), { recursive: true, force: true });
  const warm = await initPython(repo, 'bench.travsr.dev/django', {}, { home: last.home });
  const exp = await exportGraph(repo, warm);
  state.django = { repo, home: warm.home, env: warm.env, stats, label };
  const t = medianRun(runs);
  // The median run's summary (per-plugin counts, durationMs), for reading beside the score texts.
  mkdirSync(scoreDir, { recursive: true });
  writeFileSync(join(scoreDir, 'django-init-summary.json'), `${JSON.stringify(t.summary, null, 2)}\n`);
  const ranB = t.plugin?.phases.includes('B') === true;
  const speedUp = s.wallMs / t.init.wallMs;
  const wall = seconds(t.init.wallMs);
  const pluginMiB = mib(t.init.pluginPeakKiB);
  const note = ranB ? '' : ' (no Phase B ran)';
  return [
    row(title, `speed corpus: ${label}`, stats.lines, 'lines'),
    row(title, `django: scip-python ${scip.version} index wall (uncached, as calls-bench runs it)`, seconds(s.wallMs), 's'),
    row(title, 'django: scip-python peak RSS / CPU', `${fixed(mib(s.peakKiB), 0)} MiB / ${fixed(seconds(s.cpuMs ?? NaN), 1)} s`, ''),
    row(title, 'django: Python served by', describePlugin(t.plugin), ''),
    row(
      title,
      `django: travsr init wall (Phase A + B, sandboxed)${note}, median of ${runs.length} (${runs.map((r) => seconds(r.init.wallMs).toFixed(1)).join(', ')})`,
      wall,
      's',
      `≤ ${SPEED_WALL_TARGET_S} s`,
      wall <= SPEED_WALL_TARGET_S ? 'ok' : 'below',
    ),
    row(title, 'django: travsr index durationMs (walk … store, name matching)', seconds(t.summary.durationMs), 's'),
    row(
      title,
      'django: travsr init again in the same TRAVSR_HOME (.travsr/ removed, plugin cache warm): wall / durationMs',
      `${seconds(warm.init.wallMs).toFixed(1)} / ${seconds(warm.summary.durationMs).toFixed(1)}`,
      's',
    ),
    row(
      title,
      `django: speed-up over scip-python (wall)${note}`,
      speedUp,
      '×',
      `≥ ${SPEED_RATIO_TARGET}×`,
      speedUp >= SPEED_RATIO_TARGET ? 'ok' : 'below',
    ),
    row(title, 'django: travsr peak RSS host', mib(t.init.hostPeakKiB), 'MiB'),
    row(
      title,
      `django: travsr peak RSS plugin (${t.init.pluginProcesses} sandboxed node process${t.init.pluginProcesses === 1 ? '' : 'es'}, VmHWM)`,
      pluginMiB,
      'MiB',
      `≤ ${PLUGIN_RSS_TARGET_MIB} MiB`,
      pluginMiB <= PLUGIN_RSS_TARGET_MIB ? 'ok' : 'below',
    ),
    row(
      title,
      'django: travsr CPU host / plugin',
      `${fixed(seconds(t.init.hostCpuMs ?? NaN), 1)} / ${fixed(seconds(t.init.pluginCpuMs ?? NaN), 1)}`,
      's',
    ),
    row(
      title,
      'django: files analyzed / failed; calls edges phase-b / phase-a',
      `${t.plugin?.analyzed ?? 0} / ${t.plugin?.failed ?? 0}; ${exp.calls['phase-b'] ?? 0} / ${exp.calls['phase-a'] ?? 0}`,
      '',
    ),
    row(
      title,
      'django: CPU time scip-python ÷ travsr (host + plugin): less sensitive to load',
      (s.cpuMs ?? NaN) / ((t.init.hostCpuMs ?? NaN) + (t.init.pluginCpuMs ?? NaN)),
      '×',
    ),
  ];
}

export async function run() {
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  const problem = callsBenchProblem();
  if (problem) return [skipRow(title, problem)];
  const only = process.env.TRAVSR_BENCH_PY;
  const parts = [
    ['accuracy', accuracy],
    ['speed', speed],
    ['incremental', (state) => incremental(state, title)],
  ];
  if (only && !parts.some(([p]) => p === only))
    return [skipRow(title, `TRAVSR_BENCH_PY=${only} is not a part; choose accuracy, speed or incremental`, 'error')];
  const state = {};
  const rows = [];
  for (const [part, fn] of parts) {
    if (only && only !== part) continue;
    try {
      rows.push(...(await fn(state)));
    } catch (e) {
      rows.push(skipRow(`${title} (${part})`, `not run: ${e.message.split('\n')[0]}`, 'error'));
    }
  }
  return rows;
}
