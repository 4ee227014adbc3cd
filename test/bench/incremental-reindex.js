// Benchmark 6: incremental reindex after a one-file commit. Repositories of ~25k and ~100k
// lines are built from the Lua corpus (copied into subdirectories when it is smaller), set up
// with `travsr init` (post-commit hook installed), then take one-file commits: function bodies
// edited, functions added. Each commit is made with TRAVSR_HOOK_DISABLE=1 and the reindex is
// timed by running `travsr hook-run --json` ourselves: its own `durationMs` and the wall time
// of the whole process (Node start-up, plugin start in the sandbox, exit). A few more commits
// go through the real hook, timing `git commit` as the user waits for it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLuaProblem, log, percentile, row, sandboxAvailable, skipRow } from './common.js';
import { corpusRepo, fallbackRow, git, luaCorpus } from './lua-corpus.js';
import { benchTravsrHome, runTravsr, runTravsrJson } from './travsr-cli.js';

export const name = 'incremental';
export const title = 'incremental reindex';

const SIZES = [
  { label: '25k', lines: 25_000 },
  { label: '100k', lines: 100_000 },
];
const TIMED_COMMITS = 6;
const HOOK_COMMITS = 2;
const TARGET_MS = 1000;
/** Issue 14: the whole one-file `hook-run` process on the 100k-line repository. */
const PROCESS_TARGET_MS = 400;
const CORPUS = 'bench.travsr.dev/lua';

// A function header that ends its line, so that a statement inserted after it is in the body.
const FUNCTION_HEADER = /^\s*(local\s+)?function\s+[\w.:]+\s*\([^)]*\)\s*$/;

/**
 * Changes one file the way a developer would: commit `n` even → a statement inserted into a
 * function body; odd → a new function (before the module's final `return`). Files are spread
 * over the repository.
 */
function editOneFile(repo, n, total) {
  const candidates = repo.files.filter((_, i) => i % 7 === 3);
  for (let k = 0; k < candidates.length; k++) {
    const file = candidates[(Math.floor(((n + 0.5) * candidates.length) / total) + k) % candidates.length];
    const abs = join(repo.root, file.path);
    const lines = readFileSync(abs, 'utf8').split('\n');
    if (n % 2 === 0) {
      const at = lines.findIndex((l) => FUNCTION_HEADER.test(l));
      if (at === -1) continue;
      lines.splice(at + 1, 0, `  local bench_edit_${n} = ${n} -- benchmark edit`);
      writeFileSync(abs, lines.join('\n'));
      return { path: file.path, change: 'function body edited' };
    }
    let at = lines.length;
    for (let i = lines.length - 1; i >= 0; i--) {
      if (/^return\b/.test(lines[i])) {
        at = i;
        break;
      }
      if (lines[i].trim() !== '') break;
    }
    lines.splice(at, 0, `local function bench_added_${n}(value)`, `  return tostring(value) .. "${n}"`, `end`, '');
    writeFileSync(abs, lines.join('\n'));
    return { path: file.path, change: 'function added' };
  }
  throw new Error(`no file with a one-line function header to edit in ${repo.root}`);
}

async function measureSize(corpus, size, home) {
  const env = { TRAVSR_CORPUS: CORPUS };
  const repo = corpusRepo(corpus, { targetLines: size.lines, prefix: `incr-${size.label}` });
  log(`incremental: ${size.label} repository, ${repo.files.length} files, ${repo.lines} lines; travsr init…`);
  const init = await runTravsrJson(['init', repo.root], { home, env });
  if (!init.json.steps.some((s) => s.startsWith('post-commit hook')))
    throw new Error(`travsr init installed no hook: ${init.json.steps.join('; ')}`);

  // Node.js reads the certificates NODE_EXTRA_CA_CERTS names before it runs anything (the 2-core
  // box sets it for its proxy): on the large repository, each timed commit is followed by one
  // more whose hook-run starts without them, the start-up a machine without that variable has.
  const pairWithoutExtraCa = size.lines >= 100_000 && Boolean(process.env.NODE_EXTRA_CA_CERTS);
  const withoutExtraCa = [];
  const hookRun = async (n, runEnv) => {
    const edit = editOneFile(repo, n, 2 * TIMED_COMMITS + HOOK_COMMITS);
    git(repo.root, ['commit', '-q', '-am', `bench: ${edit.change} in ${edit.path}`], { TRAVSR_HOOK_DISABLE: '1' });
    const r = await runTravsrJson(['hook-run', repo.root], { home, env: runEnv });
    const s = r.json;
    if (s.mode !== 'incremental' || s.analyzed < 1 || s.failed > 0)
      throw new Error(`hook-run after one commit: ${s.analyzed} analyzed, ${s.failed} failed (${s.mode}) in ${repo.root}`);
    return { edit, r, s };
  };
  const hookRuns = [];
  for (let n = 0; n < TIMED_COMMITS; n++) {
    const { edit, r, s } = await hookRun(n, env);
    hookRuns.push({
      ...edit,
      durationMs: s.durationMs,
      wallMs: r.wallMs,
      analyzed: s.analyzed,
      dependents: s.dependents,
      hostPeakKiB: r.hostPeakKiB,
    });
    if (pairWithoutExtraCa)
      withoutExtraCa.push((await hookRun(TIMED_COMMITS + HOOK_COMMITS + n, { ...env, NODE_EXTRA_CA_CERTS: '' })).r.wallMs);
  }

  // The plugin runs in its sandbox's own environment: its session steps count from every run above.
  const sessionSteps = await pluginSessionSteps(repo.root, hookRuns.length + withoutExtraCa.length, { home, env });

  // The same kind of commit through the real post-commit hook, as the user waits for it.
  const hookCommits = [];
  for (let n = TIMED_COMMITS; n < TIMED_COMMITS + HOOK_COMMITS; n++) {
    const edit = editOneFile(repo, n, TIMED_COMMITS + HOOK_COMMITS);
    const t0 = performance.now();
    git(repo.root, ['commit', '-q', '-am', `bench: ${edit.change} in ${edit.path}`], { TRAVSR_HOME: home, ...env });
    hookCommits.push(performance.now() - t0);
  }
  const hookLog = readFileSync(join(repo.root, '.travsr', 'hook.log'), 'utf8');
  const logged = [...hookLog.matchAll(/^reindexed .* in ([\d.]+) s: (\d+) analyzed/gm)].map((m) => Number(m[1]) * 1000);
  if (logged.length !== HOOK_COMMITS || /travsr hook(-run)?: /.test(hookLog))
    throw new Error(`the post-commit hook did not reindex cleanly; see ${hookLog.slice(-400)}`);
  const status = await runTravsrJson(['status', repo.root], { home, env });
  const head = git(repo.root, ['rev-parse', 'HEAD']).trim();
  if (status.json.lastIndexedCommit !== head)
    throw new Error(`after the hook, the index is at ${status.json.lastIndexedCommit}, HEAD is ${head}`);
  return { size, repo, init, hookRuns, hookCommits, logged, sessionSteps, withoutExtraCa };
}

/**
 * The steps of a plugin session between its state transitions (its trace), in ms: where the
 * plugin's part of a hook-run goes. Each step ends at the next transition.
 */
const SESSION_STEPS = [
  ['verify (tree hash)', 'verifying'],
  ['launch (sandbox prepared, process spawned)', 'launching'],
  ['start → hello (sandbox, Node, plugin code)', 'handshaking'],
  ['initialize', 'initializing'],
  ['analyze (one request)', 'busy'],
  ['stop', 'stopping'],
];

/** The {@link SESSION_STEPS} of the last `count` plugin sessions in the repository's traces: step → ms per session. */
async function pluginSessionSteps(root, count, opts) {
  const list = await runTravsrJson(['trace', 'list'], { ...opts, cwd: root });
  const ids = list.json.traces
    .filter((t) => t.kind === 'plugin-session')
    .slice(0, count)
    .map((t) => t.id);
  const steps = new Map(SESSION_STEPS.map(([label]) => [label, []]));
  for (const id of ids) {
    const { json: trace } = await runTravsrJson(['trace', 'show', id], { ...opts, cwd: root });
    const t = trace.transitions;
    for (const [label, state] of SESSION_STEPS) {
      const i = t.findIndex((x) => x.state === state);
      if (i !== -1 && i + 1 < t.length) steps.get(label).push(Date.parse(t[i + 1].at) - Date.parse(t[i].at));
    }
  }
  return steps;
}

export async function run() {
  const problem = exampleLuaProblem();
  if (problem) return [skipRow(title, problem)];
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  const corpus = await luaCorpus();
  const rows = [];
  if (corpus.kind === 'synthetic') rows.push(fallbackRow(title, corpus));
  const home = benchTravsrHome();
  const results = [];
  for (const size of SIZES) results.push(await measureSize(corpus, size, home));

  for (const r of results) {
    const big = r.size.lines >= 100_000;
    const durations = r.hookRuns.map((h) => h.durationMs);
    const walls = r.hookRuns.map((h) => h.wallMs);
    const target = big ? `< ${TARGET_MS.toLocaleString('en-US')} ms` : '—';
    const verdict = (ms) => (big ? (ms < TARGET_MS ? 'pass' : 'FAIL') : '—');
    const processTarget = big ? `≤ ${PROCESS_TARGET_MS} ms` : '—';
    const processVerdict = (ms) => (big ? (ms <= PROCESS_TARGET_MS ? 'pass' : 'FAIL') : '—');
    const p = `${r.size.label} repo`;
    const analyzed = r.hookRuns.map((h) => h.analyzed);
    rows.push(
      row(title, `${p}: files / lines (${corpus.kind})`, `${r.repo.files.length} / ${r.repo.lines.toLocaleString('en-US')}`, ''),
      row(title, `${p}: travsr init (hook installed), wall`, r.init.wallMs / 1000, 's'),
      row(
        title,
        `${p}: hook-run durationMs, p50 of ${r.hookRuns.length} one-file commits`,
        percentile(durations, 50),
        'ms',
        target,
        verdict(percentile(durations, 50)),
      ),
      row(title, `${p}: hook-run durationMs, max`, Math.max(...durations), 'ms', target, verdict(Math.max(...durations))),
      row(
        title,
        `${p}: hook-run process wall (Node start-up included), p50`,
        percentile(walls, 50),
        'ms',
        processTarget,
        processVerdict(percentile(walls, 50)),
      ),
      row(title, `${p}: hook-run process wall, max`, Math.max(...walls), 'ms', target, verdict(Math.max(...walls))),
      ...(r.withoutExtraCa.length > 0
        ? [
            row(
              title,
              `${p}: hook-run process wall without this machine's NODE_EXTRA_CA_CERTS, p50 of ${r.withoutExtraCa.length} commits between those`,
              percentile(r.withoutExtraCa, 50),
              'ms',
            ),
          ]
        : []),
      row(
        title,
        `${p}: files re-analyzed per commit (changed + dependents), min–max`,
        `${Math.min(...analyzed)}–${Math.max(...analyzed)}`,
        'files',
      ),
      row(title, `${p}: git commit through the post-commit hook, wall, max of ${r.hookCommits.length}`, Math.max(...r.hookCommits), 'ms'),
      row(title, `${p}: reindex time the hook logged (.travsr/hook.log), max`, Math.max(...r.logged), 'ms'),
      row(title, `${p}: peak RSS of hook-run, max`, Math.max(...r.hookRuns.map((h) => h.hostPeakKiB ?? 0)) / 1024 || 'n/a', 'MiB'),
    );
    // Where the plugin's part of those hook-runs went (its session trace), on the large repository.
    if (big)
      for (const [label, ms] of r.sessionSteps)
        if (ms.length > 0) rows.push(row(title, `${p}: hook-run's plugin session, ${label}, p50`, percentile(ms, 50), 'ms'));
  }
  const [small, big] = results.map((r) =>
    percentile(
      r.hookRuns.map((h) => h.durationMs),
      50,
    ),
  );
  rows.push(row(title, 'size dependence: durationMs p50, 100k ÷ 25k', big / small, '×'));
  return rows;
}
