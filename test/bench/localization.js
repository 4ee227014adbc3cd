// Benchmark `localization`: given a real issue's text, does `travsr ask` rank the files and
// functions its fix edits near the top? 66 SWE-bench instances over psf/requests, pallets/flask,
// pylint-dev/pylint and pytest-dev/pytest (shared/eval/swe-dev.jsonl, scored as its README says:
// Acc@k counts an instance when the top k distinct files hold min(|gold|, k) gold files).
// Three retrievers per instance, on the tree at its base commit:
// - BM25 over files and BM25 over functions (files in the order of their first function hit),
//   the README's baseline, reimplemented here (localization/bm25.js);
// - Travsr: `travsr init` (once, cached), then `travsr ask --json <issue> --budget 8000`; its
//   files and its function stage's `functions`.
// Every figure is given for all instances, for the part get_context's weights were tuned on and
// for the part set aside from tuning (localization/split.js), and per repository.
// Inputs: the eval file (TRAVSR_EVAL_DATA, default ../shared/eval/swe-dev.jsonl) and the fetched
// git dirs (TRAVSR_EVAL_REPOS, default /work/.mirror, holding <owner>+<name>/repo). Each base
// commit is extracted once into test/bench/.cache/localization/<instance_id>/src (ignored by git)
// and its graph stays in src/.travsr/graph.db; TRAVSR_BENCH_REINDEX=1 indexes again.
//
// Standalone: node test/bench/localization.js [--limit N] [--repo owner/name] [--dump FILE] [--reindex]
//   --dump writes one JSON line per instance (gold, BM25 top 10, Travsr top 10) for error analysis.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanupTemps, log, markdownTable, mean, repoRoot, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { buildBaseline, filesOfFunctions } from './localization/bm25.js';
import { instanceDir, loadInstances, materialize } from './localization/instances.js';
import { FILE_KS, FUNCTION_KS, accuracy } from './localization/score.js';
import { isSetAside } from './localization/split.js';
import {
  applyMinedSynonyms,
  ask,
  clearSynonyms,
  cliEntry,
  defaultCliEntry,
  definitionKinds,
  ensureIndex,
  rankingsOf,
} from './localization/travsr.js';

export const name = 'localization';
export const title = 'localization (SWE-bench dev)';

const BUDGET = 8000;
const TOP = 10;

/**
 * The README's baseline table (2026-11-29), to compare the reimplementation with. The README
 * prints Fn@5/10 in its "BM25 over files" row; a file ranking names no functions, so they are
 * compared with the function ranking here.
 */
const README_BASELINE = {
  'BM25 files': { file: [40.9, 57.6, 66.7, 78.8] },
  'BM25 functions': { file: [42.4, 57.6, 68.2, 77.3], function: [33.3, 44.4] },
};

const README_INSTANCES = 66;

function fmt(values) {
  return values.map((v) => (Number.isFinite(v) ? v.toFixed(1) : '–')).join(' / ');
}

/** `+2 0 −1` instances between our percentages and the README's over `n` instances. */
function deltaInstances(ours, theirs, n) {
  return ours
    .slice(0, theirs.length)
    .map((v, i) => {
      const d = Math.round(((v - theirs[i]) * n) / 100);
      return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '0';
    })
    .join(' ');
}

/**
 * Scores one retriever over `results` (`{ repo, files, functions, goldFiles, goldFunctions }`)
 * overall and per repository: one row each, file Acc@1/3/5/10 and function Acc@5/10.
 */
function accuracyRows(retriever, results, allInstances) {
  const rows = [];
  const scopes = [
    ['all', results],
    ['tuned part', results.filter((r) => !isSetAside(r.instanceId))],
    ['set-aside part', results.filter((r) => isSetAside(r.instanceId))],
  ];
  const repos = [...new Set(allInstances.map((i) => i.repo))].sort();
  if (repos.length > 1) for (const repo of repos) scopes.push([repo, results.filter((r) => r.repo === repo)]);
  for (const [scope, rs] of scopes) {
    if (rs.length === 0) continue;
    const a = accuracy(rs);
    const file = FILE_KS.map((k) => a.file[k]);
    const fn = FUNCTION_KS.map((k) => a.function[k]);
    const hasFunctions = rs.some((r) => r.functions);
    const value = hasFunctions ? `${fmt(file)} · ${fmt(fn)}` : fmt(file);
    let target = '—';
    let verdict = '—';
    const readme = README_BASELINE[retriever];
    if (readme && scope === 'all' && rs.length === README_INSTANCES) {
      target = readme.function ? `${fmt(readme.file)} · ${fmt(readme.function)}` : fmt(readme.file);
      const fileDelta = deltaInstances(file, readme.file, a.instances);
      verdict = readme.function
        ? `Δ inst. ${fileDelta} · ${deltaInstances(fn, readme.function, a.functionInstances)}`
        : `Δ inst. ${fileDelta}`;
    }
    const label = `${scope} (${a.instances}${hasFunctions && a.functionInstances !== a.instances ? `, ${a.functionInstances} with functions` : ''})`;
    rows.push(
      row(
        `${title}: ${retriever}`,
        `${label}: file Acc@1/3/5/10${hasFunctions ? ' · function Acc@5/10' : ''}`,
        value,
        '%',
        target,
        verdict,
      ),
    );
  }
  return rows;
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--limit') opts.limit = Number(argv[++i]);
    else if (a === '--repo') opts.repo = argv[++i];
    else if (a === '--dump') opts.dump = argv[++i];
    else if (a === '--reindex') opts.reindex = true;
    else
      throw new Error(
        `unknown argument ${a}; usage: node test/bench/localization.js [--limit N] [--repo owner/name] [--dump FILE] [--reindex]`,
      );
  }
  if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit > 0)) throw new Error('--limit takes a positive integer');
  return opts;
}

/** Why Travsr cannot run here (CLI not built, no sandbox), or undefined. */
async function travsrProblem() {
  if (!existsSync(cliEntry)) return `no CLI at ${cliEntry}; run \`npm run build\` first`;
  if (cliEntry === defaultCliEntry && !existsSync(join(repoRoot, 'host', 'dist', 'bundle', '.bundled')))
    return 'the host is not built; run `npm run build` first';
  const sandbox = await sandboxAvailable();
  return sandbox.ok ? undefined : sandbox.reason;
}

/** Runs the benchmark and returns its rows; `opts` are the standalone flags: `{ limit, repo, dump, reindex }`. */
export async function run(opts = {}) {
  const loaded = loadInstances({ repo: opts.repo, limit: opts.limit });
  if (loaded.problem) return [skipRow(title, loaded.problem)];
  const { instances, reposDir } = loaded;
  const reindex = opts.reindex ?? process.env.TRAVSR_BENCH_REINDEX === '1';
  // TRAVSR_BENCH_SYNONYMS=mine: each graph with the synonyms `travsr synonym mine` proposes (issue 21).
  const mined = (opts.synonyms ?? process.env.TRAVSR_BENCH_SYNONYMS) === 'mine';
  const minedPairs = [];
  let travsrSkip = await travsrProblem();
  const home = tempDir('localization-home');

  const perInstance = [];
  const indexRuns = [];
  const askMs = [];
  const getContextMs = [];
  const askErrors = [];
  const cutQueries = [];
  for (const [n, inst] of instances.entries()) {
    log(`localization: ${n + 1}/${instances.length} ${inst.instance_id}`);
    const src = materialize(inst, reposDir);
    const gold = { instanceId: inst.instance_id, repo: inst.repo, goldFiles: inst.gold_files, goldFunctions: inst.gold_functions };
    const baseline = buildBaseline(src);
    const bm25Functions = baseline.rankFunctions(inst.problem_statement);
    const record = {
      instance: inst,
      bm25Files: { ...gold, files: baseline.rankFiles(inst.problem_statement) },
      bm25Functions: { ...gold, files: filesOfFunctions(bm25Functions), functions: bm25Functions },
    };
    if (!travsrSkip) {
      try {
        const index = await ensureIndex(src, join(instanceDir(inst), 'INDEX_COMPLETE'), { home, reindex });
        indexRuns.push({ ...index, repo: inst.repo });
        record.index = index;
        if (mined) minedPairs.push(await applyMinedSynonyms(src, { home }));
        const answer = await ask(src, inst.problem_statement, { home, budget: BUDGET }).finally(() => mined && clearSynonyms(src));
        if (answer.status === 'unavailable') {
          travsrSkip = `ask not available: \`${cliEntry.replace(/.*\/host\//, 'host/')} ask\` is not a command of this build (BM25 rows above are unaffected)`;
        } else if (answer.status === 'error') {
          askErrors.push(`${inst.instance_id}: ${answer.reason}`);
          record.travsr = { ...gold, files: [], functions: [], error: answer.reason };
        } else {
          askMs.push(answer.wallMs);
          if (answer.cutTo !== undefined) cutQueries.push(`${inst.instance_id} (${inst.problem_statement.length} → ${answer.cutTo})`);
          if (Number.isFinite(answer.answer.stats?.ms)) getContextMs.push(answer.answer.stats.ms);
          record.travsr = { ...gold, ...rankingsOf(answer.answer, definitionKinds(src)), wallMs: answer.wallMs };
        }
      } catch (e) {
        askErrors.push(`${inst.instance_id}: ${e.message}`);
        record.travsr = { ...gold, files: [], functions: [], error: e.message };
      }
    }
    perInstance.push(record);
  }

  const rows = [
    ...accuracyRows(
      'BM25 files',
      perInstance.map((r) => r.bm25Files),
      instances,
    ),
    ...accuracyRows(
      'BM25 functions',
      perInstance.map((r) => r.bm25Functions),
      instances,
    ),
  ];
  if (travsrSkip && !perInstance.some((r) => r.travsr)) {
    rows.push(skipRow(`${title}: Travsr ask`, travsrSkip));
  } else {
    const label = mined ? `Travsr ask, mined synonyms (mean ${Math.round(mean(minedPairs))} pairs)` : 'Travsr ask';
    rows.push(...accuracyRows(label, perInstance.map((r) => r.travsr).filter(Boolean), instances));
    if (travsrSkip) rows.push(skipRow(`${title}: Travsr ask`, `stopped part way: ${travsrSkip}`));
  }
  if (indexRuns.length > 0) {
    const fresh = indexRuns.filter((r) => !r.cached);
    const source =
      fresh.length === indexRuns.length ? 'this run' : `${fresh.length} this run, ${indexRuns.length - fresh.length} from the cache marker`;
    rows.push(
      row(`${title}: Travsr ask`, `travsr init per instance, mean wall (${source})`, mean(indexRuns.map((r) => r.wallMs)) / 1000, 's'),
      row(
        `${title}: Travsr ask`,
        'travsr init per instance, mean index run (summary durationMs)',
        mean(indexRuns.map((r) => r.durationMs)) / 1000,
        's',
      ),
      row(
        `${title}: Travsr ask`,
        'travsr init mean wall per repository',
        [...new Set(indexRuns.map((r) => r.repo))]
          .sort()
          .map((repo) => `${repo.split('/')[1]} ${(mean(indexRuns.filter((r) => r.repo === repo).map((r) => r.wallMs)) / 1000).toFixed(1)}`)
          .join(' · '),
        's',
      ),
      row(
        `${title}: Travsr ask`,
        'graph per instance, mean nodes / edges',
        `${Math.round(mean(indexRuns.map((r) => r.nodes)))} / ${Math.round(mean(indexRuns.map((r) => r.edges)))}`,
        '',
      ),
    );
  }
  if (askMs.length > 0) {
    rows.push(row(`${title}: Travsr ask`, `travsr ask --budget ${BUDGET}, mean wall (process)`, mean(askMs) / 1000, 's'));
    if (getContextMs.length > 0)
      rows.push(row(`${title}: Travsr ask`, 'get_context in process (stats.ms), mean', mean(getContextMs), 'ms'));
  }
  if (cutQueries.length > 0) {
    rows.push(
      row(`${title}: Travsr ask`, 'queries cut to the get_context length cap', `${cutQueries.length}: ${cutQueries.join(', ')}`, 'chars'),
    );
  }
  if (askErrors.length > 0) {
    rows.push(
      skipRow(`${title}: Travsr ask`, `${askErrors.length} instance(s) failed, first: ${askErrors[0]}`.replaceAll('\n', ' '), 'error'),
    );
  }

  if (opts.dump) {
    const top = (list) => (list ?? []).slice(0, TOP);
    const lines = perInstance.map((r) =>
      JSON.stringify({
        instance_id: r.instance.instance_id,
        repo: r.instance.repo,
        gold_files: r.instance.gold_files,
        gold_functions: r.instance.gold_functions,
        bm25_files: top(r.bm25Files.files),
        bm25_functions: top(r.bm25Functions.functions),
        bm25_function_files: top(r.bm25Functions.files),
        travsr_files: r.travsr ? top(r.travsr.files) : null,
        travsr_functions: r.travsr ? top(r.travsr.functions) : null,
        travsr_error: r.travsr?.error ?? (r.travsr ? undefined : travsrSkip),
        index_ms: r.index ? Math.round(r.index.wallMs) : undefined,
        index_cached: r.index?.cached,
        ask_ms: r.travsr?.wallMs !== undefined ? Math.round(r.travsr.wallMs) : undefined,
      }),
    );
    writeFileSync(opts.dump, `${lines.join('\n')}\n`);
    log(`localization: per-instance rankings written to ${opts.dump}`);
  }
  return rows;
}

async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`localization: ${e.message}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    const rows = await run(opts);
    process.stdout.write(`${markdownTable(rows)}\n`);
    if (rows.some((r) => r.verdict === 'error')) process.exitCode = 1;
  } finally {
    cleanupTemps();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
