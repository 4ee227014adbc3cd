// The incremental part of `py-accuracy`: one-file commits on the initialised Django repository
// (from the speed part, or initialised here), alternately a statement inserted into a function
// body and a function added at the end of a module, each reindexed by `travsr hook-run --json`
// as incremental-reindex.js does: the indexer's own `durationMs` and the wall time of the whole
// process (Node start-up, opening the store, the sandboxed plugin's start and stop). Then the same
// kind of commits with the daemon running (issue 15), the way a developer with `travsr daemon`
// works: the file is saved, committed (the installed post-commit hook tells the daemon), and the
// time runs until the daemon's graph is at the commit with Phase B stored.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { log, percentile, repoRoot, row } from './common.js';
import { git } from './lua-corpus.js';
import { PY_CORPORA, corpusCopy, corpusVersion, pythonCorpus, pythonStats } from './py-accuracy-corpus.js';
import { describePlugin, failureText, initPython } from './py-accuracy-travsr.js';
import { runTravsr, runTravsrJson } from './travsr-cli.js';

const TARGET_MS = 1000;

/**
 * The commits: modules of different reach (the ORM's query module, a text utility most of
 * Django imports, the admin, mail, HTTP requests, form fields), each changed once.
 */
const EDITS = [
  { path: 'django/db/models/query.py', change: 'body' },
  { path: 'django/utils/text.py', change: 'add' },
  { path: 'django/contrib/admin/options.py', change: 'body' },
  { path: 'django/core/mail/message.py', change: 'add' },
  { path: 'django/http/request.py', change: 'body' },
  { path: 'django/forms/fields.py', change: 'add' },
];

// A `def` header on one line (what a statement can be inserted after).
const DEF_HEADER = /^(\s*)(async\s+)?def\s+\w+\s*\(.*\)\s*(->\s*[^:]+)?:\s*(#.*)?$/;

/** Changes one file as a developer would; returns a description. */
function editPython(root, edit, n) {
  const abs = join(root, edit.path);
  const text = readFileSync(abs, 'utf8');
  if (edit.change === 'add') {
    writeFileSync(abs, `${text.endsWith('\n') ? text : `${text}\n`}\n\ndef bench_added_${n}(value):\n    return str(value) + "${n}"\n`);
    return 'function added';
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = DEF_HEADER.exec(lines[i]);
    if (!m) continue;
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    const indent = /^\s*/.exec(next ?? '')[0];
    if (indent.length <= m[1].length) continue;
    lines.splice(i + 1, 0, `${indent}bench_edit_${n} = ${n}  # benchmark edit`);
    writeFileSync(abs, lines.join('\n'));
    return 'function body edited';
  }
  throw new Error(`no one-line def header to edit in ${edit.path}`);
}

/** Commits on the Django repository, each reindexed by `travsr hook-run --json`; rows under `title`. */
export async function incremental(state, title) {
  let django = state.django;
  if (!django) {
    const corpus = PY_CORPORA.find((c) => c.name === 'django');
    const dir = pythonCorpus(corpus);
    const stats = pythonStats(dir);
    const label = `${corpus.name} ${corpusVersion(corpus)} (${stats.files} files, ${stats.lines.toLocaleString('en-US')} lines)`;
    const repo = corpusCopy(dir, 'py-django-incr');
    log(`py-accuracy: ${label}: travsr init for the incremental commits…`);
    const init = await initPython(repo, 'bench.travsr.dev/django');
    django = { repo, home: init.home, env: init.env, stats, label };
  }
  const runs = [];
  for (let n = 0; n < EDITS.length; n++) {
    const edit = EDITS[n];
    const change = editPython(django.repo, edit, n);
    git(django.repo, ['commit', '-q', '-am', `bench: ${change} in ${edit.path}`], { TRAVSR_HOOK_DISABLE: '1' });
    log(`py-accuracy: django: hook-run after ${change} in ${edit.path}…`);
    const r = await runTravsrJson(['hook-run', django.repo], { home: django.home, env: django.env });
    const s = r.json;
    if (s.mode !== 'incremental' || s.analyzed < 1 || s.failed > 0)
      throw new Error(
        `hook-run after one commit (${edit.path}): ${s.analyzed} analyzed, ${s.failed} failed (${s.mode}) in ${django.repo}: ${failureText(s)}`,
      );
    runs.push({
      ...edit,
      change,
      durationMs: s.durationMs,
      wallMs: r.wallMs,
      analyzed: s.analyzed,
      dependents: s.dependents,
      unaffected: s.dependentsUnaffected ?? 0,
      plugin: s.plugins.find((p) => p.languages.includes('python') && p.files > 0),
      hostCpuMs: r.hostCpuMs,
      pluginCpuMs: r.pluginCpuMs,
      hostPeakKiB: r.hostPeakKiB,
      pluginPeakKiB: r.pluginPeakKiB,
    });
  }
  const daemonRows = await daemonCommits(django, title);
  const walls = runs.map((r) => r.wallMs);
  const durations = runs.map((r) => r.durationMs);
  const v = (ms) => (ms < TARGET_MS ? 'ok' : 'below');
  const target = `< ${TARGET_MS.toLocaleString('en-US')} ms`;
  const maxOf = (f) => Math.max(...runs.map((r) => f(r) ?? 0)) / 1024 || 'n/a';
  return [
    row(title, `incremental on ${django.label}: Python served by`, describePlugin(runs[0]?.plugin), ''),
    ...runs.map((r, i) =>
      row(
        title,
        `django commit ${i + 1}: ${r.change} in ${r.path}: hook-run wall (durationMs ${Math.round(r.durationMs)}; CPU host ${cpu(r.hostCpuMs)}, plugin ${cpu(r.pluginCpuMs)} ms; ${r.analyzed} re-analyzed, ${r.dependents} dependents, ${r.unaffected} dependents unaffected)`,
        r.wallMs,
        'ms',
      ),
    ),
    row(
      title,
      `django: hook-run end to end (process wall), p50 of ${runs.length} one-file commits`,
      percentile(walls, 50),
      'ms',
      target,
      v(percentile(walls, 50)),
    ),
    row(title, 'django: hook-run end to end, max', Math.max(...walls), 'ms', target, v(Math.max(...walls))),
    row(
      title,
      'django: hook-run durationMs (what the indexer measures), p50 / max',
      `${Math.round(percentile(durations, 50))} / ${Math.round(Math.max(...durations))}`,
      'ms',
    ),
    row(
      title,
      'django: hook-run peak RSS host / plugin, max',
      `${fixedMiB(maxOf((r) => r.hostPeakKiB))} / ${fixedMiB(maxOf((r) => r.pluginPeakKiB))}`,
      'MiB',
    ),
    ...daemonRows,
  ];
}

/** The indexed commit the repository's store records (read-only, beside the daemon). */
function indexedCommit(repo) {
  const db = new Database(join(repo, '.travsr', 'graph.db'), { readonly: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'last_indexed_commit'").pluck().get();
  } finally {
    db.close();
  }
}

/**
 * One-file commits with the daemon managing the repository: each file is saved and committed at
 * once (the post-commit hook, installed here, notifies the daemon and returns), and the clock
 * stops when the daemon says its graph is at the commit with nothing queued and Phase B stored
 * (`Notify` with wait, as `travsr hook-run` run by hand does). The first commit after the daemon
 * started pays the plugin sessions' start and is shown on its own.
 */
async function daemonCommits(django, title) {
  const { repo, home, env } = django;
  // `init` again without --no-hook: the repository is indexed already, this installs the hook.
  const init = await runTravsr(['init', repo], { home, env });
  if (init.code !== 0)
    throw new Error(`travsr init (hook) exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const start = await runTravsr(['daemon', 'start', '--repo', repo], { home, env });
  if (start.code !== 0) throw new Error(`travsr daemon start exited with ${start.code}: ${start.stderr.trim()}`);
  const dist = (p) => pathToFileURL(join(repoRoot, 'host', 'dist', p)).href;
  const { connectDaemon } = await import(dist('daemon/daemon-client.js'));
  const { daemonPaths } = await import(dist('daemon/daemon-paths.js'));
  const client = await connectDaemon({ paths: daemonPaths({ TRAVSR_HOME: home }) });
  const runs = [];
  try {
    await client.notify(repo, true, 600_000);
    for (let n = 0; n < EDITS.length + 1; n++) {
      const edit = EDITS[n % EDITS.length];
      const t0 = performance.now();
      const change = editPython(django.repo, edit, 100 + n);
      git(repo, ['commit', '-q', '-am', `bench: ${change} in ${edit.path} (daemon)`], { TRAVSR_HOME: home, ...env });
      const committed = performance.now() - t0;
      await client.notify(repo, true, 60_000);
      const wallMs = performance.now() - t0;
      const head = git(repo, ['rev-parse', 'HEAD']).trim();
      if (indexedCommit(repo) !== head)
        throw new Error(`the daemon's graph is not at HEAD ${head.slice(0, 12)} after the commit to ${edit.path}`);
      runs.push({ ...edit, change, wallMs, committed });
      log(
        `py-accuracy: django via the daemon: ${change} in ${edit.path}: ${Math.round(wallMs)} ms (git commit ${Math.round(committed)} ms)`,
      );
      // A developer commits every few seconds at most: the daemon readies fresh sessions meanwhile.
      await new Promise((r) => setTimeout(r, 1500));
    }
  } finally {
    client.close();
    await runTravsr(['daemon', 'stop'], { home, env });
  }
  const [first, ...rest] = runs;
  const walls = rest.map((r) => r.wallMs);
  const p50 = percentile(walls, 50);
  const target = `< ${TARGET_MS.toLocaleString('en-US')} ms`;
  return [
    row(
      title,
      `django via the daemon: save + commit → graph at the commit, Phase B stored, p50 of ${walls.length}`,
      p50,
      'ms',
      target,
      p50 < TARGET_MS ? 'ok' : 'below',
    ),
    row(title, 'django via the daemon: same, max', Math.max(...walls), 'ms', target, Math.max(...walls) < TARGET_MS ? 'ok' : 'below'),
    row(
      title,
      'django via the daemon: of which `git commit` with the hook, p50',
      percentile(
        rest.map((r) => r.committed),
        50,
      ),
      'ms',
    ),
    row(title, 'django via the daemon: first commit after the daemon started (plugin sessions start)', first.wallMs, 'ms'),
  ];
}

function cpu(ms) {
  return ms === undefined ? 'n/a' : Math.round(ms);
}

function fixedMiB(v) {
  return typeof v === 'number' ? v.toFixed(0) : v;
}
