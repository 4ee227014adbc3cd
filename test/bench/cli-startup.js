// Benchmark: how long the CLI takes before and around a command that does little work — the
// start-up every `travsr` run pays (Node, oclif, the command's bundle, the store). Wall time of
// whole processes, medians after one warm-up run: `travsr --version`, and `travsr status` on an
// indexed repository (a ~25k-line Lua repository, initialised first). A bare `node -e 0` is the
// floor. The one-file `hook-run` start-up is part of the `incremental` benchmark.
import { spawnSync } from 'node:child_process';
import { exampleLuaProblem, log, percentile, row, skipRow } from './common.js';
import { corpusRepo, fallbackRow, luaCorpus } from './lua-corpus.js';
import { benchTravsrHome, runTravsr, runTravsrJson } from './travsr-cli.js';

export const name = 'startup';
export const title = 'CLI start-up';

const RUNS = 9;
const VERSION_TARGET_MS = 150;
const STATUS_TARGET_MS = 300;

async function medianWall(args, opts) {
  const walls = [];
  for (let i = 0; i <= RUNS; i++) {
    const r = await runTravsr(args, opts);
    if (r.code !== 0) throw new Error(`travsr ${args.join(' ')} exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
    if (i > 0) walls.push(r.wallMs);
  }
  return percentile(walls, 50);
}

function bareNodeMs(env = process.env) {
  const walls = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env });
    if (i > 0) walls.push(performance.now() - t0);
  }
  return percentile(walls, 50);
}

export async function run() {
  const problem = exampleLuaProblem();
  if (problem) return [skipRow(title, problem)];
  const rows = [];
  const home = benchTravsrHome();
  const floor = bareNodeMs();
  rows.push(row(title, `bare \`node -e 0\` (the floor), median of ${RUNS}`, Math.round(floor), 'ms'));
  // Node reads and parses the certificates NODE_EXTRA_CA_CERTS names at every start, before any
  // JavaScript runs; some machines set it for their TLS proxy. Shown, so a reader knows how much
  // of each start-up below is that.
  if (process.env.NODE_EXTRA_CA_CERTS) {
    const { NODE_EXTRA_CA_CERTS: _extra, ...without } = process.env;
    rows.push(
      row(title, `bare \`node -e 0\` without this machine's NODE_EXTRA_CA_CERTS, median of ${RUNS}`, Math.round(bareNodeMs(without)), 'ms'),
    );
  }
  const version = await medianWall(['--version'], { home });
  const verdict = (ms, target) => (ms <= target ? 'ok' : 'below');
  rows.push(
    row(
      title,
      `travsr --version, median of ${RUNS}`,
      Math.round(version),
      'ms',
      `≤ ${VERSION_TARGET_MS} ms`,
      verdict(version, VERSION_TARGET_MS),
    ),
  );

  const corpus = await luaCorpus();
  if (corpus.kind === 'synthetic') rows.push(fallbackRow(title, corpus));
  const env = { TRAVSR_CORPUS: 'bench.travsr.dev/lua' };
  const repo = corpusRepo(corpus, { targetLines: 25_000, prefix: 'startup' });
  log(`startup: ${repo.files.length} files, ${repo.lines} lines; travsr init…`);
  await runTravsrJson(['init', repo.root, '--no-hook'], { home, env });
  const status = await medianWall(['status', repo.root, '--json'], { home, env });
  rows.push(
    row(
      title,
      `travsr status on an indexed repository (${repo.lines.toLocaleString('en-US')} lines), median of ${RUNS}`,
      Math.round(status),
      'ms',
      `≤ ${STATUS_TARGET_MS} ms`,
      verdict(status, STATUS_TARGET_MS),
    ),
  );
  return rows;
}
