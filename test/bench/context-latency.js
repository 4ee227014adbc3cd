// Benchmark `context` (issue 5): get_context latency (p50/p95) on the graph of effect@3 (indexed
// by the real plugins) and on a generated graph of 1M edges, and the MCP tool-call overhead
// over stdio (the real server process and the real SDK client).
// TRAVSR_BENCH_CONTEXT=effect, =generated or =mcp runs only that part.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { log, prng, repoRoot, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { corpusRepo, packedPackage, sourceStats } from './ts-accuracy-corpus.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

export const name = 'context';
export const title = 'get_context latency';

const dist = (p) => pathToFileURL(join(repoRoot, 'host', 'dist', p)).href;
const QUERIES = 60;

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Questions made from the graph's own names: "how does <words of a function name> handle <words of another>". */
export function questions(store, n, seed) {
  const names = store
    .liveNodeColumns()
    .filter((r) => r[1] === 'function' || r[1] === 'method')
    .map((r) => r[2]);
  const rand = prng(seed);
  const split = (s) =>
    s
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase();
  return Array.from({ length: n }, () => {
    const a = names[Math.floor(rand() * names.length)] ?? 'main';
    const b = names[Math.floor(rand() * names.length)] ?? 'run';
    return `how does ${split(a)} handle ${split(b)} when it fails?`;
  });
}

/**
 * An issue as users paste it, about `chars` long: a sentence, a stack trace through eight of the
 * graph's functions, then log lines naming others, as a 100 kB issue with its log is.
 */
function longIssue(store, chars, seed) {
  const defs = store.liveNodeColumns().filter((r) => r[1] === 'function' || r[1] === 'method');
  const rand = prng(seed);
  const pick = () => defs[Math.floor(rand() * defs.length)];
  const lines = ['The call below fails after the upgrade; full log attached.', 'Error: unexpected state'];
  for (let i = 0; i < 8; i++) {
    const d = pick();
    lines.push(`    at ${d?.[2] ?? 'main'} (${d?.[4] ?? 'src/index.ts'}:${1 + Math.floor(rand() * 200)}:${1 + Math.floor(rand() * 40)})`);
  }
  for (let i = 0; lines.join('\n').length < chars; i++)
    lines.push(
      `2026-11-30T10:00:${String(i % 60).padStart(2, '0')}Z DEBUG [worker-${i % 7}] ${pick()?.[2] ?? 'step'} took ${i % 113} ms (request ${i})`,
    );
  return lines.join('\n').slice(0, chars);
}

async function measure(label, root, corpus) {
  const { GraphStore } = await import(dist('store/index.js'));
  const { CodeGraph } = await import(dist('retrieval/code-graph.js'));
  const { getContext } = await import(dist('retrieval/context-assembly.js'));
  const { FULL_ACCESS } = await import(dist('retrieval/access-policy.js'));
  const store = GraphStore.open(join(root, '.travsr', 'graph.db'), { readonly: true });
  try {
    const counts = store.counts();
    const cg = new CodeGraph(root, store, corpus);
    const t0 = performance.now();
    cg.snapshot();
    const loadMs = performance.now() - t0;
    const qs = questions(store, QUERIES, 7);
    const first = performance.now();
    getContext(cg, qs[0], { policy: FULL_ACCESS, budget: 8000 }); // k-core shells, file index, tokenizer warm-up
    const firstMs = performance.now() - first;
    const times = [];
    let tokens = 0;
    for (const q of qs) {
      const s = performance.now();
      const r = getContext(cg, q, { policy: FULL_ACCESS, budget: 8000 });
      times.push(performance.now() - s);
      tokens += r.tokens;
    }
    // A whole issue with its log: the query cost of long texts is capped (issue 16).
    const longTimes = [];
    for (let i = 0; i < 5; i++) {
      const issue = longIssue(store, 100_000, 11 + i);
      const s = performance.now();
      getContext(cg, issue, { policy: FULL_ACCESS, budget: 8000 });
      longTimes.push(performance.now() - s);
    }
    return [
      row(
        title,
        `${label}: graph (nodes / edges)`,
        `${counts.nodes.toLocaleString('en-US')} / ${counts.edges.toLocaleString('en-US')}`,
        '',
      ),
      row(title, `${label}: snapshot load (once per graph version)`, loadMs, 'ms'),
      row(title, `${label}: first query (k-core, caches)`, firstMs, 'ms'),
      row(title, `${label}: get_context p50 (budget 8000, ${QUERIES} queries)`, percentile(times, 50), 'ms'),
      row(
        title,
        `${label}: get_context p95`,
        percentile(times, 95),
        'ms',
        label.startsWith('generated') ? '≤ 300 ms' : '≤ 100 ms',
        percentile(times, 95) <= (label.startsWith('generated') ? 300 : 100) ? 'pass' : 'below',
      ),
      row(title, `${label}: mean answer tokens`, Math.round(tokens / QUERIES), 'tokens'),
      row(title, `${label}: get_context on a 100 kB issue text (stack trace + log), p50 of 5`, percentile(longTimes, 50), 'ms'),
    ];
  } finally {
    store.close();
  }
}

let effectRepo;
export async function effectGraph() {
  if (effectRepo) return effectRepo;
  if (!sandboxAvailable()) throw new Error('bwrap is not usable here: the plugins cannot run');
  const pkg = packedPackage('effect@3');
  const repo = corpusRepo(pkg, 'effect-context');
  const stats = sourceStats(join(repo, 'src'));
  log(`context: indexing effect@${pkg.version} (${stats.files} files)…`);
  const init = await runTravsr(['init', repo, '--no-hook', '--json'], {
    home: benchTravsrHome(),
    env: { TRAVSR_CORPUS: 'bench.travsr.dev/effect' },
    timeoutMs: 900_000,
  });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-3).join(' ')}`);
  effectRepo = { repo, label: `effect@${pkg.version} (${stats.lines.toLocaleString('en-US')} lines)` };
  return effectRepo;
}

/** A generated repository graph: 2,000 files, ~100k definitions, 1M call/import/reference edges. */
async function generatedGraph() {
  const { GraphStore } = await import(dist('store/index.js'));
  const root = tempDir('context-generated');
  const store = GraphStore.open(join(root, '.travsr', 'graph.db'));
  const rand = prng(42);
  const words = [
    'parse',
    'render',
    'fetch',
    'cache',
    'token',
    'session',
    'user',
    'order',
    'invoice',
    'route',
    'handler',
    'config',
    'schema',
    'query',
    'index',
    'graph',
    'node',
    'edge',
    'stream',
    'buffer',
    'retry',
    'auth',
    'policy',
    'plugin',
    'worker',
    'queue',
    'event',
    'metric',
    'trace',
    'span',
    'codec',
    'frame',
  ];
  const FILES = 2000;
  const PER_FILE = 50;
  const EDGES = 1_000_000;
  const vname = (f, i) => ({
    corpus: 'gen',
    root: '',
    path: `src/m${f}/file${f}.ts`,
    language: 'typescript',
    signature: i < 0 ? '' : `#fn${i}`,
  });
  const nameOf = (f, i) =>
    `${words[(f * 7 + i) % words.length]}${words[(f + i * 3) % words.length].replace(/^./, (c) => c.toUpperCase())}${i}`;
  const perFileEdges = Math.floor(EDGES / FILES);
  const zipf = () => Math.floor(FILES * Math.pow(rand(), 2.5)); // popular files get more incoming edges
  const inputs = [];
  for (let f = 0; f < FILES; f++) {
    const nodes = [{ vname: vname(f, -1), kind: 'file', name: `file${f}.ts` }];
    for (let i = 0; i < PER_FILE; i++)
      nodes.push({
        vname: vname(f, i),
        kind: 'function',
        name: nameOf(f, i),
        qualifiedName: nameOf(f, i),
        range: { startLine: i * 3 + 1, startCol: 0, endLine: i * 3 + 3, endCol: 1 },
      });
    const edges = [];
    for (let i = 0; i < PER_FILE; i++)
      edges.push({ src: vname(f, -1), dst: vname(f, i), kind: 'contains', provenance: 'phase-a', confidence: 1 });
    const seen = new Set();
    while (edges.length < perFileEdges) {
      const i = Math.floor(rand() * PER_FILE);
      const g = zipf();
      const j = Math.floor(rand() * PER_FILE);
      const kind = rand() < 0.8 ? 'calls' : rand() < 0.5 ? 'references' : 'types';
      const key = `${i}/${g}/${j}/${kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ src: vname(f, i), dst: vname(g, j), kind, provenance: 'phase-a', confidence: 1 });
    }
    inputs.push({
      path: vname(f, -1).path,
      sha256: `gen${f}`,
      language: 'typescript',
      phase: 'A',
      plugin: 'gen@0',
      status: 'ok',
      nodes,
      edges,
      refs: [],
      diagnostics: [],
      text: nodes.map((n) => n.name).join('\n'),
    });
    if (inputs.length === 100) store.replaceFiles(inputs.splice(0));
  }
  if (inputs.length) store.replaceFiles(inputs.splice(0));
  store.setMeta('index_state', 'complete');
  const { storeCoreShells } = await import(dist('retrieval/kcore-cache.js'));
  storeCoreShells(store);
  store.close();
  return root;
}

async function mcpOverhead() {
  const { repo } = await effectGraph();
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, 'host', 'bin', 'run.js'), 'mcp', '--stdio', '--repo', repo],
      env: { TRAVSR_HOME: benchTravsrHome(), PATH: process.env.PATH ?? '' },
    }),
  );
  try {
    const time = async (name, args, n) => {
      const t = [];
      const inner = [];
      for (let i = 0; i < n; i++) {
        const s = performance.now();
        const r = await client.callTool({ name, arguments: args });
        t.push(performance.now() - s);
        inner.push(r.structuredContent?.stats?.ms ?? 0);
      }
      return { p50: percentile(t, 50), p95: percentile(t, 95), inner: percentile(inner, 50) };
    };
    await time('get_index_status', {}, 3);
    const status = await time('get_index_status', {}, 50);
    const search = await time('search_symbols', { query: 'stream map' }, 50);
    const ctx = await time('get_context', { query: 'how does Effect.retry schedule attempts', token_budget: 4000 }, 30);
    return [
      row(title, 'MCP stdio: get_index_status round trip p50 / p95', `${status.p50.toFixed(2)} / ${status.p95.toFixed(2)}`, 'ms'),
      row(title, 'MCP stdio: search_symbols round trip p50 / p95', `${search.p50.toFixed(2)} / ${search.p95.toFixed(2)}`, 'ms'),
      row(title, 'MCP stdio: get_context round trip p50 (in-server work p50)', `${ctx.p50.toFixed(1)} (${ctx.inner.toFixed(1)})`, 'ms'),
      row(title, 'MCP stdio: overhead of a call (round trip − work), get_context', ctx.p50 - ctx.inner, 'ms'),
    ];
  } finally {
    await client.close();
  }
}

export async function run() {
  const only = process.env.TRAVSR_BENCH_CONTEXT;
  const rows = [];
  const part = async (key, fn) => {
    if (only && only !== key) return;
    try {
      rows.push(...(await fn()));
    } catch (e) {
      rows.push(skipRow(title, `${key}: ${e.message}`.replaceAll('\n', ' '), 'error'));
    }
  };
  await part('effect', async () => {
    const { repo, label } = await effectGraph();
    return measure(label, repo, 'bench.travsr.dev/effect');
  });
  await part('generated', async () => {
    log('context: generating a 1M-edge graph…');
    const root = await generatedGraph();
    return measure('generated 1M edges', root, 'gen');
  });
  await part('mcp', mcpOverhead);
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { markdownTable } = await import('./common.js');
  console.log(markdownTable(await run()));
}
