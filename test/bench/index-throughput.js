// Benchmark 5: full index throughput. `travsr init <repo> --no-hook --json`, spawned as a user
// runs it, on a git repository holding the Lua files of Debian packages (lua-corpus.js), with
// example-lua in the standard tier. Files/s and lines/s, the graph it made, and the peak RSS
// of the indexer (host) process and of the sandboxed plugin process.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { GraphStore } from '../../host/dist/store/index.js';
import { exampleLuaProblem, row, sandboxAvailable, skipRow } from './common.js';
import { corpusRepo, fallbackRow, luaCorpus } from './lua-corpus.js';
import { benchTravsrHome, runTravsrJson } from './travsr-cli.js';

export const name = 'index';
export const title = 'full index';

const RUNS = 3;
const CORPUS = 'bench.travsr.dev/lua';

const cpuS = (ms) => (ms === undefined ? 'n/a' : (ms / 1000).toFixed(2));
const mib = (kib) => (kib === undefined ? 'n/a' : kib / 1024);

/** Lines of the files the run analyzed (status ok in the store), and how many there are. */
function analyzedLines(repo) {
  const store = GraphStore.open(join(repo.root, '.travsr', 'graph.db'), { readonly: true });
  try {
    const ok = new Set(
      store
        .listFiles()
        .filter((f) => f.status === 'ok')
        .map((f) => f.path),
    );
    return { files: ok.size, lines: repo.files.filter((f) => ok.has(f.path)).reduce((n, f) => n + f.lines, 0) };
  } finally {
    store.close();
  }
}

export async function run() {
  const problem = exampleLuaProblem();
  if (problem) return [skipRow(title, problem)];
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];

  const corpus = await luaCorpus();
  const rows = [];
  if (corpus.kind === 'synthetic') rows.push(fallbackRow(title, corpus));
  const repo = corpusRepo(corpus, { prefix: 'index' });
  const home = benchTravsrHome();
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    rmSync(join(repo.root, '.travsr'), { recursive: true, force: true });
    runs.push(await runTravsrJson(['init', repo.root, '--no-hook'], { home, env: { TRAVSR_CORPUS: CORPUS } }));
  }
  const byWall = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const med = byWall[Math.floor(byWall.length / 2)];
  const s = med.json.summary;
  const { files, lines } = analyzedLines(repo);
  const indexS = s.durationMs / 1000;
  const wallS = med.wallMs / 1000;
  const label = corpus.kind === 'synthetic' ? 'synthetic' : 'Debian';
  rows.push(
    row(
      title,
      `corpus (${label}): ${corpus.kind === 'debian' ? corpus.packages.map((p) => `${p.name} ${p.version}`).join(', ') : corpus.label}`,
      corpus.files.length,
      'files',
    ),
    row(title, 'files analyzed (example-lua, standard tier)', files, 'files'),
    row(title, 'lines analyzed', lines, 'lines'),
  );
  if (s.failed > 0) rows.push(row(title, 'files failed', s.failed, 'files'));
  rows.push(
    row(title, `travsr init --no-hook: wall, median of ${RUNS} (Node start-up included)`, wallS, 's'),
    row(title, `  min / max of ${RUNS}`, `${(byWall[0].wallMs / 1000).toFixed(2)} / ${(byWall.at(-1).wallMs / 1000).toFixed(2)}`, 's'),
    row(title, 'index run (summary durationMs)', indexS, 's'),
    row(title, 'throughput, index run: files/s', files / indexS, 'files/s'),
    row(title, 'throughput, index run: lines/s', lines / indexS, 'lines/s'),
    row(title, 'throughput, whole init: lines/s', lines / wallS, 'lines/s'),
    row(title, 'graph: nodes', s.nodes, 'nodes'),
    row(title, 'graph: edges (name-matched included)', s.edges, 'edges'),
    row(
      title,
      'graph: name-matched edges / ambiguous refs / unresolved refs',
      `${s.refs.edges} / ${s.refs.ambiguous} / ${s.refs.unresolved}`,
      '',
    ),
    row(title, 'CPU time of the median run: host (indexer) / plugin process', `${cpuS(med.hostCpuMs)} / ${cpuS(med.pluginCpuMs)}`, 's'),
    row(
      title,
      `peak RSS, host (indexer) process, max of ${RUNS}`,
      mib(Math.max(...runs.map((r) => r.hostPeakKiB ?? 0)) || undefined),
      'MiB',
    ),
    row(
      title,
      `peak RSS, plugin process (node under bwrap), max of ${RUNS}`,
      mib(Math.max(...runs.map((r) => r.pluginPeakKiB ?? 0)) || undefined),
      'MiB',
    ),
  );
  return rows;
}
