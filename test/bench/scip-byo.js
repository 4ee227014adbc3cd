// Benchmark `scip-byo` (issue 20): "bring your own SCIP indexer" against the native Phase B. The
// src/ of zod@3 (npm pack) is indexed by `travsr init` (lang-typescript's own Phase B), then again
// with `[lang.typescript.scip] command` set to the real scip-typescript (npm), which then runs in
// lang-typescript's sandbox as its Phase B. The call edges of the two graphs (`graph export`) are
// compared where both resolve a caller: the share of the brought indexer's edges the native pass
// also has, and the other way round; and the wall time of each index run.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { log, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { corpusRepo, packedPackage, scipTypescript, sourceStats } from './ts-accuracy-corpus.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

export const name = 'scip-byo';
export const title = 'bring your own SCIP indexer (scip-typescript) vs native Phase B';

/** Call edges of a `graph export --format jsonl` file, by provenance: `caller path#name -> callee path#name`. */
function callEdges(jsonl) {
  const nodes = new Map();
  const edges = new Map();
  for (const line of readFileSync(jsonl, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.type === 'node') nodes.set(o.id, `${o.path}#${o.qualified_name ?? o.name}`);
    else if (o.type === 'edge' && o.kind === 'calls') {
      if (!edges.has(o.provenance)) edges.set(o.provenance, new Set());
      edges.get(o.provenance).add(`${nodes.get(o.src) ?? o.src} -> ${nodes.get(o.dst) ?? o.dst}`);
    }
  }
  return edges;
}

/** Agreement over the callers both graphs give call edges. */
function agreement(native, brought) {
  const callerOf = (e) => e.slice(0, e.indexOf(' -> '));
  const bCallers = new Set([...brought].map(callerOf));
  const both = new Set([...native].map(callerOf).filter((c) => bCallers.has(c)));
  const n = [...native].filter((e) => both.has(callerOf(e)));
  const b = [...brought].filter((e) => both.has(callerOf(e)));
  const shared = b.filter((e) => native.has(e)).length;
  return { callers: both.size, native: n.length, brought: b.length, shared };
}

async function indexAndExport(repo, home, env, args) {
  const started = performance.now();
  const r = await runTravsr(args, { home, env, cwd: repo, timeoutMs: 900_000 });
  const ms = performance.now() - started;
  if (r.code !== 0) throw new Error(`travsr ${args[0]} exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const out = join(tempDir('export'), 'graph.jsonl');
  const exp = await runTravsr(['graph', 'export', repo, '--format', 'jsonl', '--out', out], { home, env, cwd: repo });
  if (exp.code !== 0) throw new Error(`travsr graph export exited with ${exp.code}: ${exp.stderr.trim()}`);
  return { ms, edges: callEdges(out) };
}

export async function run() {
  if (!sandboxAvailable()) return [skipRow(title, 'no usable sandbox (bwrap) on this machine')];
  const scip = scipTypescript();
  const pkg = packedPackage('zod@3');
  const repo = corpusRepo(pkg, 'zod-byo');
  const stats = sourceStats(join(repo, 'src'));
  const label = `zod@${pkg.version} src/ (${stats.files} files, ${stats.lines.toLocaleString('en-US')} lines)`;
  const home = benchTravsrHome();
  const env = { TRAVSR_CORPUS: 'bench.travsr.dev/zod' };
  log(`scip-byo: ${label}: travsr init (native Phase B)…`);
  const native = await indexAndExport(repo, home, env, ['init', repo, '--no-hook', '--json']);
  log(`scip-byo: ${label}: travsr index with scip-typescript ${scip.version} brought for TypeScript…`);
  const brought = await indexAndExport(
    repo,
    home,
    {
      ...env,
      PATH: `${join(dirname(dirname(dirname(dirname(dirname(scip.main))))), '.bin')}:${process.env.PATH}`,
      TRAVSR_LANG_SCIP_COMMAND: 'typescript=scip-typescript index --cwd {root} --output {output} --no-progress-bar',
    },
    ['index', '--rebuild', '--json'],
  );
  const n = native.edges.get('phase-b') ?? new Set();
  const b = brought.edges.get('scip') ?? new Set();
  const a = agreement(n, b);
  if (process.env.TRAVSR_BENCH_BYO_DIFF) {
    const callerOf = (e) => e.slice(0, e.indexOf(' -> '));
    const bc = new Set([...b].map(callerOf));
    const only = [...n].filter((e) => bc.has(callerOf(e)) && !b.has(e));
    log(`native-only edges (${only.length}), a sample:\n${only.slice(0, 40).join('\n')}`);
  }
  const share = (hit, of) => `${(of === 0 ? NaN : hit / of).toFixed(3)} (${hit} of ${of})`;
  return [
    row(title, `corpus: ${label}`, `${n.size} / ${b.size}`, 'call edges native / brought'),
    row(title, 'callers both resolve', a.callers, 'callers'),
    row(title, 'brought edges the native Phase B also has (where both resolve)', share(a.shared, a.brought), '', '≥ 0.9'),
    row(title, 'native edges the brought indexer also has (where both resolve)', share(a.shared, a.native), '', '≥ 0.9'),
    row(title, 'travsr init, native Phase B (wall)', native.ms / 1000, 's'),
    row(title, 'travsr index --rebuild, scip-typescript brought (wall)', brought.ms / 1000, 's'),
  ];
}
