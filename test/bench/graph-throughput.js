// Benchmark 3: sustained graph throughput through the plugin boundary. The graph-flood
// plugin (fixtures/graph-flood.ts) answers one analyze request over many tiny files with a
// synthetic graph per file; the host receives it
//   a. through PluginSupervisor.analyze (the real path: schema validation + per-file checks),
//   b. through a plain Connection with validation on, then off (same sandboxed process kind),
//   c. through a byte counter that decodes nothing (what the sandboxed plugin can produce).
// In-process rows then split the cost of one file between the plugin and the host.
import { Unpackr } from 'msgpackr';
import {
  assertEnvelope,
  assertSchema,
  encodeFrame,
  FrameDecoder,
  GraphFileParamsSchema,
  PLUGIN_COOKIE_ENV,
  PLUGIN_COOKIE_VALUE,
  PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS_ENV,
  unpackValue,
} from '@travsr/protocol';
import { Connection } from '@travsr/protocol/node';
import { FileGraphBuilder } from '@travsr/sdk';
import { loadPluginDir, PluginSupervisor, spawnPlugin } from '../../host/dist/plugins/index.js';
import { defaultLimits, prepareLaunch } from '../../host/dist/sandbox/index.js';
import { graphFloodPluginDir, loadSyntheticGraph, log, makeTextRepo, row, runFor, sandboxAvailable, skipRow } from './common.js';

export const name = 'graph';
export const title = 'graph throughput';

const FILES = 200;
const WARMUP_FILES = 20;
const NODES_PER_FILE = 1000;
const EDGES_PER_FILE = 1000;
const REPEATS = 3;
const TARGET_ITEMS_PER_S = 200_000;
const CORPUS = 'github.com/acme/shop';
const pluginOptions = { nodesPerFile: NODES_PER_FILE, edgesPerFile: EDGES_PER_FILE };

/** The median run (by rate) stands for all: load on the machine varies from run to run. */
function median(runs) {
  const sorted = [...runs].sort((x, y) => x.items / x.seconds - y.items / y.seconds);
  return { ...sorted[Math.floor(sorted.length / 2)], runs };
}

function verdict(itemsPerS) {
  return itemsPerS >= TARGET_ITEMS_PER_S ? 'pass' : 'FAIL';
}

// Each open*() starts one configuration, warms it up and returns { once, close }: once()
// times one analyze request over every file of the repository.

/** a. The whole host path: supervisor, session checks, validation on. */
async function openSupervisor(pluginDir, repo) {
  const sup = new PluginSupervisor({
    plugin: await loadPluginDir(pluginDir),
    repoRoot: repo.root,
    corpus: CORPUS,
    grant: { tier: 'standard', allowUnsandboxed: false },
    limits: defaultLimits(),
    pluginOptions,
    timeouts: { pingIntervalMs: 0 },
  });
  try {
    await sup.start();
    await sup.analyze({ phase: 'A', files: repo.files.slice(0, WARMUP_FILES) }, { onFile() {} });
  } catch (e) {
    await sup.stop();
    throw e;
  }
  // The session's counters are a snapshot: read them before and after each request.
  const bytesIn = () => sup.current?.stats.bytesIn ?? NaN;
  return {
    close: () => sup.stop(),
    once: async () => {
      const bytes0 = bytesIn();
      let items = 0;
      const t0 = performance.now();
      const out = await sup.analyze(
        { phase: 'A', files: repo.files },
        {
          onFile(f) {
            items += f.nodes.length + f.edges.length;
          },
        },
      );
      const seconds = (performance.now() - t0) / 1000;
      if (out.analyzed !== repo.files.length) throw new Error(`supervisor run analyzed ${out.analyzed} of ${repo.files.length} files`);
      return { items, seconds, bytes: bytesIn() - bytes0 };
    },
  };
}

/** Starts the plugin in the standard tier and completes hello + initialize on a plain Connection. */
async function rawSession(pluginDir, repo, validate) {
  const plugin = await loadPluginDir(pluginDir);
  const cmd = await prepareLaunch({
    pluginDir: plugin.dir,
    manifest: plugin.manifest,
    repoRoot: repo.root,
    tier: 'standard',
    limits: defaultLimits(),
    env: { [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, [PROTOCOL_VERSIONS_ENV]: PROTOCOL_VERSIONS.join(',') },
  });
  const proc = spawnPlugin(cmd);
  proc.stderr.on('data', (c) => process.stderr.write(c));
  const conn = new Connection(proc.stdout, proc.stdin, { role: 'host', validate });
  const close = async () => {
    proc.stdin.end();
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await proc.exited;
    clearTimeout(timer);
    await cmd.cleanup();
  };
  try {
    await conn.request(
      'hello',
      { protocolVersions: [...PROTOCOL_VERSIONS], host: { name: 'travsr-bench', version: '0.0.0' }, maxFrameBytes: 16 << 20 },
      { timeoutMs: 10_000 },
    );
    await conn.request('initialize', { root: cmd.repoRootInside, corpus: CORPUS, options: pluginOptions }, { timeoutMs: 10_000 });
  } catch (e) {
    await close();
    throw e;
  }
  return { conn, proc, close };
}

/** b. A plain Connection: the codec and (optionally) schema validation, nothing else. */
async function openConnection(pluginDir, repo, validate) {
  const s = await rawSession(pluginDir, repo, validate);
  const close = async () => {
    s.conn.close();
    await s.close();
  };
  let items = 0;
  s.conn.onNotification('graph/file', (f) => {
    items += f.nodes.length + f.edges.length;
  });
  s.conn.onNotification('progress', () => {});
  try {
    await s.conn.request('analyze', { phase: 'A', files: repo.files.slice(0, WARMUP_FILES) });
  } catch (e) {
    await close();
    throw e;
  }
  return {
    close,
    once: async () => {
      items = 0;
      const bytes0 = s.conn.stats.bytesIn;
      const t0 = performance.now();
      await s.conn.request('analyze', { phase: 'A', files: repo.files });
      const seconds = (performance.now() - t0) / 1000;
      return { items, seconds, bytes: s.conn.stats.bytesIn - bytes0 };
    },
  };
}

/**
 * c. Counts the bytes of each frame without decoding it (only frames under 4 KiB are
 * decoded, to find the analyze answer): the rate the sandboxed plugin can produce.
 */
async function openByteCounter(pluginDir, repo) {
  const s = await rawSession(pluginDir, repo, true);
  s.conn.close(); // the handshake is done; from here the stream is read by hand
  let id = 1_000_000;
  let bytes = 0;
  let header = Buffer.alloc(0);
  let skip = 0;
  let small;
  let answered;
  s.proc.stdout.on('data', (chunk) => {
    bytes += chunk.length;
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        if (small) small.push(chunk.subarray(at, at + n));
        skip -= n;
        at += n;
        if (skip === 0 && small) {
          const msg = unpackValue(Buffer.concat(small));
          small = undefined;
          if (msg.kind === 'response' && msg.id === id) answered(msg.result);
        }
        continue;
      }
      const need = 4 - header.length;
      header = Buffer.concat([header, chunk.subarray(at, at + need)]);
      at += Math.min(need, chunk.length - at);
      if (header.length === 4) {
        skip = header.readUInt32BE(0);
        small = skip <= 4096 ? [] : undefined;
        header = Buffer.alloc(0);
      }
    }
  });
  const analyze = async (files) => {
    id++;
    bytes = 0;
    const done = new Promise((resolve) => (answered = resolve));
    const t0 = performance.now();
    s.proc.stdin.write(encodeFrame({ kind: 'request', id, method: 'analyze', params: { phase: 'A', files } }));
    const result = await done;
    return { items: result.nodes + result.edges, seconds: (performance.now() - t0) / 1000, bytes };
  };
  try {
    await analyze(repo.files.slice(0, WARMUP_FILES));
  } catch (e) {
    await s.close();
    throw e;
  }
  return { close: s.close, once: () => analyze(repo.files) };
}

/**
 * Opens every configuration, then runs them in turn REPEATS times, so that a change in the
 * machine's load hits all of them alike; returns the runs per configuration.
 */
async function measureInterleaved(openers) {
  const open = [];
  try {
    for (const [label, opener] of openers) open.push([label, await opener()]);
    const runs = new Map(open.map(([label]) => [label, []]));
    for (let i = 0; i < REPEATS; i++) {
      for (const [label, runner] of open) runs.get(label).push(await runner.once());
    }
    return new Map([...runs].map(([label, r]) => [label, median(r)]));
  } finally {
    for (const [, runner] of open) await runner.close();
  }
}

function measureUs(fn) {
  runFor(200, () => (fn(), 1));
  const { ops, seconds } = runFor(600, () => (fn(), 1));
  return (seconds / ops) * 1e6;
}

/** The cost of one 1,000 + 1,000 file on each side, measured in this process. */
async function perFileCosts() {
  const { syntheticFileGraph } = await loadSyntheticGraph();
  const path = 'src/f0001.txt';
  const analysis = () =>
    syntheticFileGraph(new FileGraphBuilder({ corpus: CORPUS, path, language: 'text' }), { nodes: NODES_PER_FILE, edges: EDGES_PER_FILE });
  const a = analysis();
  const params = { requestId: 2, path, language: 'text', phase: 'A', status: 'ok', nodes: a.nodes, edges: a.edges, diagnostics: [] };
  const envelope = { kind: 'notification', method: 'graph/file', params };
  const frame = encodeFrame(envelope);
  const chunks = [];
  for (let at = 0; at < frame.length; at += 65536) chunks.push(frame.subarray(at, at + 65536));
  const body = frame.subarray(4);
  const rawUnpackr = new Unpackr({
    useRecords: false,
    structuredClone: false,
    moreTypes: false,
    bundleStrings: false,
    mapsAsObjects: true,
    int64AsType: 'number',
  });
  const decoded = unpackValue(body);
  const items = a.nodes.length + a.edges.length;
  const decodeUs = measureUs(() => {
    const d = new FrameDecoder();
    for (const c of chunks) d.push(c);
  });
  const unpackUs = measureUs(() => rawUnpackr.unpack(body));
  const costs = [
    ['plugin: build the graph (FileGraphBuilder)', measureUs(analysis)],
    ['plugin: check it against the schema (FileEmitter)', measureUs(() => assertSchema(GraphFileParamsSchema, params, 'graph'))],
    ['plugin: encodeFrame', measureUs(() => encodeFrame(envelope))],
    ['host: FrameDecoder.push, 64 KiB chunks', decodeUs],
    ['host:   of which msgpackr unpack alone', unpackUs],
    ['host:   of which standard-msgpack + plain-data checks', decodeUs - unpackUs],
    [
      'host: validate envelope + graph/file params (ajv)',
      measureUs(() => {
        assertEnvelope(decoded);
        assertSchema(GraphFileParamsSchema, decoded.params, 'graph/file notification');
      }),
    ],
  ];
  return { frameBytes: frame.length, items, costs };
}

export async function run() {
  const sandbox = await sandboxAvailable();
  const pluginDir = await graphFloodPluginDir();
  const repo = makeTextRepo(FILES);
  const rows = [];
  const what = `${FILES} files × (${NODES_PER_FILE} nodes + ${EDGES_PER_FILE} edges)`;
  const add = (label, r, target) => {
    const perS = r.items / r.seconds;
    const runs = r.runs.map((x) => Math.round(x.items / x.seconds));
    rows.push({
      ...row(
        title,
        `${label}: nodes+edges (median of ${REPEATS})`,
        perS,
        '/s',
        target ? `≥ ${TARGET_ITEMS_PER_S.toLocaleString('en-US')}/s` : '—',
        target ? verdict(perS) : '—',
      ),
      runs,
    });
    rows.push(row(title, `${label}: frames`, r.bytes / r.seconds / 1e6, 'MB/s'));
  };
  if (!sandbox.ok) {
    rows.push(skipRow(title, sandbox.reason));
  } else {
    log(`graph: ${what}, 4 configurations × ${REPEATS} runs`);
    const supervisorLabel = 'PluginSupervisor.analyze, standard tier, validation on';
    const results = await measureInterleaved([
      [supervisorLabel, () => openSupervisor(pluginDir, repo)],
      ['plain Connection, validate: true', () => openConnection(pluginDir, repo, true)],
      ['plain Connection, validate: false', () => openConnection(pluginDir, repo, false)],
      ['no decoding (plugin-side ceiling)', () => openByteCounter(pluginDir, repo)],
    ]);
    for (const [label, r] of results) add(label, r, label === supervisorLabel);
  }
  log('graph: in-process cost per file');
  const per = await perFileCosts();
  rows.push(row(title, `one file: frame size (${per.items} nodes+edges)`, per.frameBytes, 'bytes'));
  for (const [label, us] of per.costs) rows.push(row(title, `one file: ${label}`, us / 1000, 'ms'));
  return rows;
}
