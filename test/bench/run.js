// `npm run bench`: runs the benchmarks of the plugin boundary and of indexing, and prints one
// markdown table.
//   node test/bench/run.js              every benchmark
//   node test/bench/run.js ping graph   only those (names: frames, ping, graph, hello, index,
//                                       incremental, store, structural, ts-accuracy, ts-attributed, py-accuracy, rust-accuracy, retrieval,
//                                       context, localization, install, ignore-depth, startup, daemon,
//                                       scip-stream, scip-byo, vectors, embed, semantic)
// Results are also written to test/bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDir, cleanupTemps, log, machineInfo, markdownTable, skipRow } from './common.js';
import * as frames from './frame-codec.js';
import * as ping from './ping.js';
import * as graph from './graph-throughput.js';
import * as hello from './start-to-hello.js';
import * as index from './index-throughput.js';
import * as incremental from './incremental-reindex.js';
import * as store from './store-write-rate.js';
import * as structural from './structural-coverage.js';
import * as tsAccuracy from './ts-accuracy.js';
import * as tsAttributed from './ts-attributed.js';
import * as pyAccuracy from './py-accuracy.js';
import * as rustAccuracy from './rust-accuracy.js';
import * as retrieval from './retrieval-algorithms.js';
import * as context from './context-latency.js';
import * as localization from './localization.js';
import * as install from './plugin-install.js';
import * as ignoreDepth from './ignore-depth.js';
import * as startup from './cli-startup.js';
import * as daemon from './daemon-latency.js';
import * as scipStream from './scip-stream.js';
import * as scipByo from './scip-byo.js';
import * as vectors from './vector-search.js';
import * as embed from './embed-throughput.js';
import * as semantic from './semantic-channels.js';

const BENCHMARKS = [
  frames,
  ping,
  graph,
  hello,
  index,
  incremental,
  store,
  tsAccuracy,
  tsAttributed,
  pyAccuracy,
  rustAccuracy,
  structural,
  retrieval,
  context,
  localization,
  install,
  ignoreDepth,
  startup,
  daemon,
  scipStream,
  scipByo,
  vectors,
  embed,
  semantic,
];

/** Runs the named benchmarks (all when `names` is empty) and returns machine and rows. */
export async function runBenchmarks(names = []) {
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length > 0) {
    throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; choose from ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  }
  const selected = names.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => names.includes(b.name));
  const machine = machineInfo();
  const rows = [];
  const started = performance.now();
  try {
    for (const b of selected) {
      log(`${b.name}: ${b.title}…`);
      const t0 = performance.now();
      try {
        rows.push(...(await b.run()));
      } catch (e) {
        rows.push(skipRow(b.title, `failed: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(e)}`.replaceAll('\n', ' '), 'error'));
      }
      log(`${b.name}: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    cleanupTemps();
  }
  return { machine, benchmarks: selected.map((b) => b.name), seconds: (performance.now() - started) / 1000, rows };
}

function header(m) {
  return [
    '# Travsr benchmarks',
    '',
    `- machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, ${m.kernel}`,
    `- node ${m.node}, ${m.bwrap}, host msgpackr native acceleration ${m.hostMsgpackNative ? 'on' : 'off'}`,
    `- load average at start ${m.loadAverage.join(' / ')}${m.loadAverage[0] > m.cores / 2 ? ' — other work was running; expect noisy numbers' : ''}`,
    `- ${m.date}, commit ${m.commit}`,
    '',
  ].join('\n');
}

/** JSON as Prettier would write it, so that `npm run lint` accepts the results file. */
async function formatJson(value) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  try {
    const prettier = await import('prettier');
    return await prettier.format(text, { parser: 'json', ...(await prettier.resolveConfig(join(benchDir, 'results', 'latest.json'))) });
  } catch {
    return text;
  }
}

async function main(names) {
  let result;
  try {
    result = await runBenchmarks(names);
  } catch (e) {
    process.stderr.write(`bench: ${e.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${header(result.machine)}\n${markdownTable(result.rows)}\n\n_total ${result.seconds.toFixed(1)} s_\n`);
  const outDir = join(benchDir, 'results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'latest.json'), await formatJson(result));
  log(`results written to ${join('test', 'bench', 'results', 'latest.json')}`);
  if (result.rows.some((r) => r.verdict === 'error')) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
