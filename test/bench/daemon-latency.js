// Benchmark `daemon` (issue 15): with a running daemon over effect@3's sources (TypeScript) and
// Django 3.2 (Python): the time from saving a one-function edit to a get_callers answer that
// shows it — at Phase A quality (the call name-matched) and at Phase B quality (resolved) —; warm
// get_context through the daemon, a query-cache hit, the first answer of `travsr mcp --stdio`
// through the daemon (process start included), and the daemon's RSS.
//   TRAVSR_BENCH_DAEMON=effect, =django or =burst runs one part; TRAVSR_BENCH_DAEMON_EDITS (default 12).
import { appendFileSync, readFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GraphStore } from '../../host/dist/store/index.js';
import { log, percentile, prng, repoRoot, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { corpusRepo, packedPackage, sourceStats } from './ts-accuracy-corpus.js';
import { PY_CORPORA, corpusCopy, pythonCorpus, pythonStats } from './py-accuracy-corpus.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';
import { burst, writePackage } from './daemon-burst.js';

export const name = 'daemon';
export const title = 'daemon: edit to answer, warm queries, cache, mcp start';

const dist = (p) => pathToFileURL(join(repoRoot, 'host', 'dist', p)).href;
const BIN = join(repoRoot, 'host', 'bin', 'run.js');
const EDITS = Number(process.env.TRAVSR_BENCH_DAEMON_EDITS ?? 12);
const QUERIES = 30;
const MiB = 1024 * 1024;

const LANGUAGES = {
  effect: {
    top: /^export function (\w+)/,
    ext: '.ts',
    added: (n, callee) => `\nexport function travsrBench${n}(value: unknown) {\n  return ${callee}(value as never)\n}\n`,
    name: (n) => `travsrBench${n}`,
  },
  django: {
    top: /^def (\w+)\(/,
    ext: '.py',
    added: (n, callee) => `\n\ndef travsr_bench_${n}(value):\n    return ${callee}(value)\n`,
    name: (n) => `travsr_bench_${n}`,
  },
};

/**
 * The live nodes of `kinds` in the repository's graph, in id order, read through the store
 * (read-only, beside the daemon): `{ name, path, start_line }`, and `node_id` with `nodeIds`.
 */
function liveNodes(repo, kinds, { nodeIds = false } = {}) {
  const store = GraphStore.open(join(repo, '.travsr', 'graph.db'), { readonly: true });
  try {
    const tuples = store.liveNodeColumns().filter((t) => kinds.includes(t[1]));
    const ids = nodeIds ? new Map(store.nodesByIds(tuples.map((t) => t[0])).map((n) => [n.id, n.nodeId])) : undefined;
    return tuples.map(([id, , name, , path, start_line]) => ({ name, path, start_line, ...(ids ? { node_id: ids.get(id) } : {}) }));
  } finally {
    store.close();
  }
}

/** Files with a top-level function to call, each with that function's node id: where the edits go. */
function editTargets(repo, lang, count) {
  const rows = liveNodes(repo, ['function'], { nodeIds: true }).sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : (a.start_line ?? 0) - (b.start_line ?? 0),
  );
  // An overloaded function has one node per signature, and a call resolves to the one it
  // matches: the edit would call another node than the one asked about. One definition per name.
  const defined = new Map();
  for (const r of rows) defined.set(`${r.path}\0${r.name}`, (defined.get(`${r.path}\0${r.name}`) ?? 0) + 1);
  const byFile = new Map();
  for (const r of rows) {
    if (defined.get(`${r.path}\0${r.name}`) !== 1) continue;
    if (byFile.has(r.path) || !r.path.endsWith(lang.ext)) continue;
    const lines = readFileSync(join(repo, r.path), 'utf8').split('\n');
    if (lines.length < 100 || lines.length > 1500) continue;
    const m = lang.top.exec(lines[r.start_line - 1] ?? '');
    if (m && m[1] === r.name) byFile.set(r.path, { path: r.path, callee: r.name, calleeId: r.node_id });
  }
  const all = [...byFile.values()];
  const rand = prng(11);
  return Array.from({ length: Math.min(count, all.length) }, () => all.splice(Math.floor(rand() * all.length), 1)[0]);
}

async function waitIdle(client, repo) {
  for (;;) {
    const s = (await client.status([repo])).repos[0];
    if (s.updateState === 'idle' && s.queuedFiles === 0) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A row with a target: `value ≤ limit` passes (and nothing measured fails). */
function targetRow(bench, metric, value, unit, limit, ok = true) {
  return row(bench, metric, value, unit, `≤ ${limit}`, ok && Number.isFinite(value) && value <= limit ? 'pass' : 'FAIL');
}

/** One edit: appends a caller of `target.callee`; resolves when get_callers shows it name-matched and resolved. */
async function timeEdit(client, repo, lang, target, n) {
  const caller = lang.name(n);
  const ask = async () => {
    const r = await client.callTool({
      tool: 'get_callers',
      argumentsJson: JSON.stringify({ symbol: target.calleeId, depth: 1 }),
      repos: [repo],
      fullAccess: true,
    });
    const nodes = JSON.parse(r.structuredJson).nodes ?? [];
    return nodes.find((x) => x.name === caller);
  };
  let phaseA;
  let phaseB;
  let wake;
  // A change reported while a query was out is not lost: the next query goes at once.
  let changed = false;
  const watch = client.watchGraph([repo], () => {
    changed = true;
    wake?.();
  });
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  appendFileSync(join(repo, target.path), lang.added(n, target.callee));
  const deadline = t0 + 60_000;
  while (phaseB === undefined && performance.now() < deadline) {
    if (!changed)
      await new Promise((r) => {
        wake = r;
        setTimeout(r, 250);
      });
    changed = false;
    const found = await ask();
    const at = performance.now() - t0;
    if (found && phaseA === undefined) phaseA = at;
    if (found?.via?.certainty === 'resolved') phaseB = at;
  }
  watch.stop();
  return { phaseA, phaseB };
}

/** Time from spawning `travsr mcp --stdio` to the answer of its first tool call. */
function mcpFirstAnswer(repo, home) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'mcp', '--stdio', '--repo', repo], {
      env: { ...process.env, TRAVSR_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buf = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      for (const line of buf.split('\n').slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.id === 2) {
          const ms = performance.now() - t0;
          child.stdin.end();
          resolve({ ms, viaDaemon: !/not using the daemon|answering without the daemon/.test(err) });
        }
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    child.on('error', reject);
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_context', arguments: { query: 'how are errors handled', token_budget: 2000 } },
    });
  });
}

/** The durations (ms) of the tool-call traces `ids` the daemon saved in the repository's trace store (those found). */
async function toolDurations(repo, ids) {
  const { TraceStore } = await import(dist('traces/trace-store.js'));
  const store = TraceStore.forRepo(repo);
  try {
    return ids.flatMap((id) => {
      try {
        const t = store.get(id);
        return t.kind === 'tool-call' ? [t.durationMs] : [];
      } catch {
        return []; // not saved (yet)
      }
    });
  } finally {
    store.close();
  }
}

function questions(repo, n) {
  const names = liveNodes(repo, ['function', 'method']).map((r) => r.name);
  const rand = prng(5);
  const words = (s) =>
    s
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase();
  return Array.from(
    { length: n },
    () => `how does ${words(names[Math.floor(rand() * names.length)])} handle ${words(names[Math.floor(rand() * names.length)])}?`,
  );
}

async function measure(label, key, repo) {
  const lang = LANGUAGES[key];
  const home = benchTravsrHome();
  const rows = [];
  const bench = `daemon ${label}`;
  log(`daemon: indexing ${label}…`);
  // No TRAVSR_CORPUS: the daemon derives the corpus from the repository, as `init` does.
  const init = await runTravsr(['init', repo, '--no-hook'], { home, timeoutMs: 900_000 });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-3).join(' ')}`);
  // Edits are picked before the daemon runs, from the index `init` made.
  const targets = editTargets(repo, lang, EDITS);
  const start = await runTravsr(['daemon', 'start', '--repo', repo], { home });
  if (start.code !== 0) throw new Error(`travsr daemon start exited with ${start.code}: ${start.stderr.trim()}`);
  const { connectDaemon } = await import(dist('daemon/daemon-client.js'));
  const { daemonPaths } = await import(dist('daemon/daemon-paths.js'));
  const client = await connectDaemon({ paths: daemonPaths({ TRAVSR_HOME: home }) });
  try {
    await waitIdle(client, repo);
    const idle = (await client.status()).rss;
    // The first edit starts the plugins' sessions; the daemon keeps fresh ones ready from then on.
    const a = [];
    const b = [];
    for (const [i, t] of targets.entries()) {
      const r = await timeEdit(client, repo, lang, t, i);
      await waitIdle(client, repo);
      if (i === 0) {
        log(
          `daemon: ${label}: first edit (cold plugins) Phase A ${Math.round(r.phaseA ?? -1)} ms, Phase B ${Math.round(r.phaseB ?? -1)} ms`,
        );
        continue;
      }
      if (r.phaseA !== undefined) a.push(r.phaseA);
      if (r.phaseB !== undefined) b.push(r.phaseB);
      // A developer saves every few seconds, not back to back: the ready sessions start meanwhile.
      await new Promise((res) => setTimeout(res, 1500));
    }
    const edits = targets.length - 1;
    rows.push(targetRow(bench, `edit → get_callers at Phase A, p50 (${a.length}/${edits} edits)`, percentile(a, 50), 'ms', 300));
    rows.push(row(bench, 'edit → get_callers at Phase A, p95', percentile(a, 95), 'ms'));
    rows.push(
      targetRow(bench, `edit → get_callers at Phase B (resolved), p50 (${b.length}/${edits} edits)`, percentile(b, 50), 'ms', 2000),
    );
    rows.push(row(bench, 'edit → get_callers at Phase B, p95', percentile(b, 95), 'ms'));
    const qs = questions(repo, QUERIES);
    // As `travsr ask` asks: the text it prints (ANSWER_PARTS_TEXT); `both` as a client that
    // reads the structured content too (an MCP client's answers come through McpSession).
    const call = async (q, parts = 'ANSWER_PARTS_TEXT') => {
      const t = performance.now();
      const r = await client.callTool({
        tool: 'get_context',
        argumentsJson: JSON.stringify({ query: q, token_budget: 4000 }),
        repos: [repo],
        fullAccess: true,
        parts,
      });
      if (r.isError) throw new Error(r.text);
      return { ms: performance.now() - t, cached: r.cached, traceId: r.traceId };
    };
    await call('warm up: how are errors handled'); // each worker thread loads the snapshot once
    await call('warm up: where is the configuration read');
    const warm = [];
    const traceIds = [];
    for (const q of qs) {
      const r = await call(q);
      warm.push(r.ms);
      traceIds.push(r.traceId);
    }
    const hits = [];
    for (const q of qs) {
      const r = await call(q);
      if (r.cached) hits.push(r.ms);
    }
    // An answer made for the text holds no structured content: a first call asking for both
    // makes each whole answer (not timed), then the hits.
    for (const q of qs) await call(q, 'ANSWER_PARTS_BOTH');
    const bothHits = [];
    for (const q of qs) {
      const both = await call(q, 'ANSWER_PARTS_BOTH');
      if (both.cached) bothHits.push(both.ms);
    }
    rows.push(
      targetRow(bench, `warm get_context through the daemon, the text, p50 (${QUERIES} questions)`, percentile(warm, 50), 'ms', 20),
    );
    rows.push(row(bench, 'warm get_context, p95', percentile(warm, 95), 'ms'));
    // The same calls' time inside the tool (their traces), the rest being the worker's dispatch,
    // the reply's JSON and the gRPC round trip.
    const inTool = await toolDurations(repo, traceIds);
    rows.push(
      row(bench, `warm get_context inside the tool (its trace), p50 (${inTool.length}/${QUERIES} traces)`, percentile(inTool, 50), 'ms'),
    );
    rows.push(
      targetRow(
        bench,
        `query-cache hit, the text as \`travsr ask\` asks, p50 (${hits.length}/${QUERIES} hits)`,
        percentile(hits, 50),
        'ms',
        2,
        hits.length === QUERIES,
      ),
    );
    rows.push(
      row(bench, `query-cache hit, text and structured content, p50 (${bothHits.length}/${QUERIES} hits)`, percentile(bothHits, 50), 'ms'),
    );
    const mcp = [];
    let allViaDaemon = true;
    for (let i = 0; i < 5; i++) {
      const r = await mcpFirstAnswer(repo, home);
      mcp.push(r.ms);
      allViaDaemon &&= r.viaDaemon;
    }
    rows.push(
      row(
        bench,
        `first answer of mcp --stdio through the daemon, p50 (process start included${allViaDaemon ? '' : '; NOT via the daemon'})`,
        percentile(mcp, 50),
        'ms',
        '≤ 300',
        allViaDaemon && percentile(mcp, 50) <= 300 ? 'pass' : 'FAIL',
      ),
    );
    const afterEdits = (await client.status()).rss;
    log(`daemon: ${label}: rebuilding through the daemon…`);
    await client.index(repo, 'rebuild');
    const afterIndex = (await client.status()).rss;
    rows.push(row(bench, 'daemon RSS idle (repository open, catch-up done)', idle / MiB, 'MiB'));
    rows.push(row(bench, `daemon RSS after ${targets.length} edits and the queries`, afterEdits / MiB, 'MiB'));
    rows.push(row(bench, 'daemon RSS after a rebuild through the daemon', afterIndex / MiB, 'MiB'));
    return rows;
  } finally {
    client.close();
    await runTravsr(['daemon', 'stop'], { home });
  }
}

/** 1,000 random edits, renames, deletes over 60 s under the daemon; then its graph against a rebuild. */
async function burstRows() {
  const repo = tempDir('daemon-burst');
  const home = benchTravsrHome();
  execFileSync('git', ['init', '-q', repo]);
  writePackage(repo, 80, 3);
  const init = await runTravsr(['init', repo, '--no-hook'], { home });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim()}`);
  await runTravsr(['daemon', 'start', '--repo', repo], { home });
  const { connectDaemon } = await import(dist('daemon/daemon-client.js'));
  const { daemonPaths } = await import(dist('daemon/daemon-paths.js'));
  const client = await connectDaemon({ paths: daemonPaths({ TRAVSR_HOME: home }) });
  try {
    await waitIdle(client, repo);
    log('daemon: burst of 1,000 operations over 60 s…');
    const done = await burst(repo, 1000, 60_000, 9);
    const t0 = performance.now();
    await waitIdle(client, repo);
    await new Promise((r) => setTimeout(r, 1000));
    await waitIdle(client, repo);
    const quietMs = performance.now() - t0;
    const updates = (await client.status([repo])).repos[0].updates;
    const exportOf = async () =>
      (await runTravsr(['graph', 'export', repo], { home, env: { TRAVSR_DAEMON: '0' } })).stdout.split('\n').filter(Boolean).sort();
    const live = await exportOf();
    client.close();
    await runTravsr(['daemon', 'stop'], { home });
    await runTravsr(['index', repo, '--rebuild'], { home, env: { TRAVSR_DAEMON: '0' } });
    const rebuilt = await exportOf();
    const equal = live.length === rebuilt.length && live.every((l, i) => l === rebuilt[i]);
    const ops = Object.entries(done)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    return [
      row(
        'daemon burst',
        `1,000 operations in 60 s (${ops}) → graph equals a rebuild (${live.length} export lines, ${updates} updates)`,
        equal ? 'yes' : 'NO',
        '',
        'yes',
        equal ? 'pass' : 'FAIL',
      ),
      row('daemon burst', 'quiet after the burst ended', quietMs, 'ms'),
    ];
  } finally {
    client.close();
    await runTravsr(['daemon', 'stop'], { home });
  }
}

export async function run() {
  if (!sandboxAvailable()) return [skipRow(title, 'bwrap is not usable here: the plugins cannot run')];
  const only = process.env.TRAVSR_BENCH_DAEMON;
  const rows = [];
  if (!only || only === 'burst') {
    try {
      rows.push(...(await burstRows()));
    } catch (e) {
      rows.push(skipRow('daemon burst', `failed: ${e.message}`, 'error'));
    }
  }
  if (!only || only === 'effect') {
    try {
      const pkg = packedPackage('effect@3');
      const repo = corpusRepo(pkg, 'effect-daemon');
      const stats = sourceStats(join(repo, 'src'));
      rows.push(...(await measure(`effect@${pkg.version} (${stats.lines.toLocaleString('en-US')} lines)`, 'effect', repo)));
    } catch (e) {
      rows.push(skipRow('daemon effect', `failed: ${e.message}`, 'error'));
    }
  }
  if (!only || only === 'django') {
    try {
      const corpus = PY_CORPORA.find((c) => c.name === 'django');
      const dir = pythonCorpus(corpus);
      const repo = corpusCopy(dir, 'django-daemon');
      const stats = pythonStats(repo);
      rows.push(...(await measure(`Django (${stats.lines.toLocaleString('en-US')} lines)`, 'django', repo)));
    } catch (e) {
      rows.push(skipRow('daemon django', `failed: ${e.message}`, 'error'));
    }
  }
  return rows;
}
