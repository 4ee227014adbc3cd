// Shared pieces of the benchmarks: the machine header, timing and statistics, the result
// table, the sandbox check, and the fixtures built at bench time (the graph-flood plugin,
// tiny repositories).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';
import { isNativeAccelerationEnabled } from 'msgpackr';
import { probeSandbox } from '../../host/dist/sandbox/index.js';

export const benchDir = fileURLToPath(new URL('.', import.meta.url));
export const repoRoot = join(benchDir, '..', '..');
export const exampleLuaDir = join(repoRoot, 'plugins', 'example-lua');

/** Progress lines go to stderr so that stdout holds only the table. */
export function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

// ---- results ----

/** One row of the final table. `target` and `verdict` are '—' when the issue sets no target. */
export function row(benchmark, metric, value, unit, target = '—', verdict = '—') {
  return { benchmark, metric, value, unit, target, verdict };
}

/** A row saying why a benchmark could not run (no bwrap, plugin not built, an error). */
export function skipRow(benchmark, reason, verdict = 'skipped') {
  return row(benchmark, 'not run', reason, '', '—', verdict);
}

export function formatValue(v) {
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 10_000) return Math.round(v).toLocaleString('en-US');
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

/** Renders rows as a markdown table. */
export function markdownTable(rows) {
  const head = ['benchmark', 'metric', 'value', 'unit', 'target', 'verdict'];
  const cells = rows.map((r) =>
    [r.benchmark, r.metric, formatValue(r.value), r.unit, r.target, r.verdict].map((c) => String(c).replaceAll('|', '\\|')),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((x, i) => (i === 2 ? x.padStart(widths[i]) : x.padEnd(widths[i]))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => (i === 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(head), sep, ...cells.map(line)].join('\n');
}

// ---- machine ----

function firstLine(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 })
      .split('\n')[0]
      .trim();
  } catch {
    return undefined;
  }
}

/** What the numbers were measured on. */
export function machineInfo() {
  let cpu;
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim();
  } catch {
    // not Linux
  }
  return {
    cpu: cpu ?? cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    bwrap: firstLine('bwrap', ['--version']) ?? 'not found',
    kernel: `${process.platform} ${release()}`,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    // The host decodes with msgpackr's native string extraction when msgpackr-extract is
    // installed; bundled plugins always run the pure-JS path.
    hostMsgpackNative: isNativeAccelerationEnabled === true,
    date: new Date().toISOString(),
    commit: firstLine('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD']) ?? 'unknown',
  };
}

// ---- timing ----

/**
 * Calls `batch()` (which does some work and returns how many operations it did) until
 * `ms` milliseconds have passed; returns operations and elapsed seconds.
 */
export function runFor(ms, batch) {
  let ops = 0;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    ops += batch();
    elapsed = performance.now() - t0;
  } while (elapsed < ms);
  return { ops, seconds: elapsed / 1000 };
}

/** The p-th percentile (0–100) of numbers, by nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function mean(values) {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

// ---- sandbox ----

let sandboxCheck;
/** Whether a real bwrap sandbox can start here: `{ ok: true }` or `{ ok: false, reason }`. */
export function sandboxAvailable() {
  sandboxCheck ??= probeSandbox().then(
    (p) => (p.ok ? { ok: true } : { ok: false, reason: `no sandbox: ${p.reason}; ${p.fix}` }),
    (e) => ({ ok: false, reason: `sandbox probe failed: ${e.message}` }),
  );
  return sandboxCheck;
}

/** Why example-lua cannot be started, or undefined when it is built. */
export function exampleLuaProblem() {
  return existsSync(join(exampleLuaDir, 'dist', 'main.js')) ? undefined : 'plugins/example-lua is not built; run `npm run build` first';
}

// ---- fixtures ----

const temps = [];
/** A temp dir removed by {@link cleanupTemps} when the run ends. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `travsr-bench-${prefix}-`));
  temps.push(dir);
  return dir;
}

export function cleanupTemps() {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A repository of `count` tiny text files: `src/f0000.txt`, … */
export function makeTextRepo(count) {
  const root = tempDir('repo');
  mkdirSync(join(root, 'src'));
  const files = [];
  for (let i = 0; i < count; i++) {
    const path = `src/f${String(i).padStart(4, '0')}.txt`;
    writeFileSync(join(root, path), `file ${i}\n`);
    files.push({ path, language: 'text' });
  }
  return { root, files };
}

let floodPlugin;
/** Bundles fixtures/graph-flood.ts into a temp plugin directory (manifest + main.js), once. */
export function graphFloodPluginDir() {
  floodPlugin ??= (async () => {
    const dir = tempDir('graph-flood');
    await build(pluginBundleOptions(join(benchDir, 'fixtures', 'graph-flood.ts'), join(dir, 'main.js')));
    writeFileSync(
      join(dir, 'travsr-plugin.json'),
      JSON.stringify({
        id: 'bench-graph-flood',
        version: '1.0.0',
        description: 'Benchmark analyzer: a synthetic graph of a fixed size per requested file',
        languages: ['text'],
        extensions: ['.txt'],
        entrypoint: { runtime: 'node', path: 'main.js' },
        protocolVersions: ['1'],
        phases: ['A'],
        constraints: { network: false, ipc: 'none', hostApi: false },
      }),
    );
    return dir;
  })();
  return floodPlugin;
}

let syntheticModule;
/** The synthetic graph generator (fixtures/synthetic-graph.ts) compiled for in-process use. */
export function loadSyntheticGraph() {
  syntheticModule ??= (async () => {
    const out = join(tempDir('synthetic'), 'synthetic-graph.mjs');
    await build({
      entryPoints: [join(benchDir, 'fixtures', 'synthetic-graph.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    return import(pathToFileURL(out).href);
  })();
  return syntheticModule;
}

/** mulberry32: a seeded PRNG, so generated inputs are the same in every run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
