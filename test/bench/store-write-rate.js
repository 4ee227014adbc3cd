// Benchmark 7: SQLite bulk write rate through the real GraphStore (host/dist/store), in
// process. A realistic file graph (built with the SDK's FileGraphBuilder, as a plugin would)
// is written one transaction per file, as the indexer does when graph/file notifications
// stream in; then name matching (resolveRefs), rewrites and the export are timed. A run with
// 100 files per transaction shows what the per-file commit costs.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { FileGraphBuilder } from '@travsr/sdk';
import { GraphStore } from '../../host/dist/store/index.js';
import { log, row, tempDir } from './common.js';

export const name = 'store';
export const title = 'graph store writes';

const FILES = 1000;
const CLASSES = 3;
const METHODS_PER_CLASS = 8;
const FUNCTIONS = 10;
const IMPORTS = 3;
const LOCAL_CALLS = 12;
const BATCH = 100;
const SCOPED_RESOLVES = 20;
const CORPUS = 'github.com/acme/shop';

const VERBS = ['get', 'set', 'load', 'save', 'parse', 'render', 'handle', 'build', 'resolve', 'update', 'create', 'remove'];
const NOUNS = ['Order', 'Invoice', 'Customer', 'Session', 'Token', 'Route', 'Query', 'Cache', 'Config', 'Event', 'Payment'];
const ROLES = ['Service', 'Repository', 'Controller', 'Handler', 'Client', 'Store'];
const LIBRARY = ['JSON.stringify', 'console.log', 'Promise.all', 'Object.keys', 'Array.from', 'Math.max'];

const pathOf = (f) => `src/${NOUNS[f % NOUNS.length].toLowerCase()}/${ROLES[f % ROLES.length].toLowerCase()}-${f}.ts`;
const functionName = (f, i) => `${VERBS[(f + i) % VERBS.length]}${NOUNS[i % NOUNS.length]}${f}x${i}`;

/**
 * One TypeScript-like module: classes holding methods and top-level functions (`contains`
 * edges), imports of other files (placeholders until those are written), calls within the
 * file, and three name refs per definition — into another file's unique function (resolves),
 * to a method name many classes share (ambiguous), to a library call (unresolved).
 * `shift` moves every range, as an edit near the top of the file does.
 */
function moduleGraph(f, shift = 0) {
  const g = new FileGraphBuilder({ corpus: CORPUS, path: pathOf(f), language: 'typescript' });
  const defs = [];
  let line = 3 + shift;
  for (let c = 0; c < CLASSES; c++) {
    const className = `${NOUNS[(f + c) % NOUNS.length]}${ROLES[(f + c) % ROLES.length]}${f}`;
    const cls = g.define({
      kind: 'class',
      name: className,
      range: { startLine: line, startCol: 0, endLine: line + METHODS_PER_CLASS * 8 + 1, endCol: 1 },
      skeleton: `export class ${className} {`,
    });
    line += 2;
    for (let m = 0; m < METHODS_PER_CLASS; m++) {
      const method = `${VERBS[(m + c) % VERBS.length]}${NOUNS[(f + m) % NOUNS.length]}`;
      defs.push(
        g.define({
          kind: 'method',
          name: method,
          qualifiedName: `${className}.${method}`,
          parent: cls,
          range: { startLine: line, startCol: 2, endLine: line + 6, endCol: 3 },
          ...(m % 3 === 0 ? { skeleton: `async ${method}(id: string, options?: RequestOptions): Promise<void>` } : {}),
        }),
      );
      line += 8;
    }
  }
  for (let i = 0; i < FUNCTIONS; i++) {
    const fn = functionName(f, i);
    defs.push(
      g.define({
        kind: 'function',
        name: fn,
        range: { startLine: line, startCol: 0, endLine: line + 10, endCol: 1 },
        skeleton: `export function ${fn}(input: ${NOUNS[i % NOUNS.length]}): Result`,
      }),
    );
    line += 12;
  }
  for (let i = 1; i <= IMPORTS; i++)
    g.edge(g.fileNode, { ...g.fileNode.vname, path: pathOf((f + i * 7) % FILES) }, 'imports', { confidence: 1 });
  for (let i = 0; i < LOCAL_CALLS; i++) g.edge(defs[i], defs[(i * 5 + 3) % defs.length], 'calls', { confidence: 1 });
  defs.forEach((d, i) => {
    const other = (f + 1 + (i % 17)) % FILES;
    g.ref(d, 'calls', `${pathOf(other).split('/')[1]}.${functionName(other, i % FUNCTIONS)}`);
    g.ref(d, 'calls', `this.${VERBS[i % VERBS.length]}${NOUNS[(i * 3) % NOUNS.length]}`);
    g.ref(d, 'calls', LIBRARY[i % LIBRARY.length]);
  });
  const a = g.build();
  return {
    path: g.path,
    sha256: `${f}-${shift}`,
    language: 'typescript',
    phase: 'A',
    plugin: 'bench-store@1.0.0',
    status: 'ok',
    nodes: a.nodes,
    edges: a.edges,
    refs: a.refs ?? [],
    diagnostics: a.diagnostics ?? [],
  };
}

const rowsOf = (inputs) => inputs.reduce((n, i) => n + i.nodes.length + i.edges.length + i.refs.length, 0);

/** Writes `inputs`, `perTransaction` files per transaction; returns seconds. */
function writeAll(store, inputs, perTransaction = 1) {
  const t0 = performance.now();
  if (perTransaction === 1) for (const input of inputs) store.replaceFile(input);
  else
    for (let i = 0; i < inputs.length; i += perTransaction)
      store.transaction(() => {
        for (const input of inputs.slice(i, i + perTransaction)) store.replaceFile(input);
      });
  return (performance.now() - t0) / 1000;
}

function dbMiB(path) {
  let bytes = 0;
  for (const p of [path, `${path}-wal`])
    try {
      bytes += statSync(p).size;
    } catch {
      // no WAL file
    }
  return bytes / 2 ** 20;
}

export async function run() {
  const inputs = Array.from({ length: FILES }, (_, f) => moduleGraph(f));
  const nodes = inputs.reduce((n, i) => n + i.nodes.length, 0);
  const edges = inputs.reduce((n, i) => n + i.edges.length, 0);
  const refs = inputs.reduce((n, i) => n + i.refs.length, 0);
  const rows = rowsOf(inputs);
  const shape = `${FILES} files × (${nodes / FILES} nodes, ${edges / FILES} edges, ${refs / FILES} refs)`;
  const dir = tempDir('store');
  const out = [];

  const dbPath = join(dir, 'per-file.db');
  const store = GraphStore.open(dbPath);
  try {
    log(`store: first write of ${shape}, one transaction per file…`);
    const first = writeAll(store, inputs);
    out.push(
      row(title, `first write, 1 transaction per file: ${shape}`, first, 's'),
      row(title, '  nodes/s', nodes / first, 'nodes/s'),
      row(title, '  rows/s (nodes + edges + refs)', rows / first, 'rows/s'),
      row(title, '  files/s', FILES / first, 'files/s'),
    );

    let t0 = performance.now();
    const resolved = store.resolveRefs();
    const resolveS = (performance.now() - t0) / 1000;
    out.push(
      row(
        title,
        `resolveRefs, all ${refs.toLocaleString('en-US')} refs (${resolved.edges} edges, ${resolved.ambiguous} ambiguous, ${resolved.unresolved} unresolved)`,
        resolveS,
        's',
      ),
      row(title, '  refs/s', refs / resolveS, 'refs/s'),
    );

    // What hook-run does after a one-file change: the file's refs and the refs naming what it defines.
    const scoped = [];
    for (let k = 0; k < SCOPED_RESOLVES; k++) {
      const path = pathOf(Math.floor((k * FILES) / SCOPED_RESOLVES));
      t0 = performance.now();
      store.resolveRefs({ paths: [path], names: store.definedNames([path]) });
      scoped.push(performance.now() - t0);
    }
    out.push(
      row(
        title,
        `resolveRefs scoped to one file and its names (as hook-run), mean of ${SCOPED_RESOLVES}`,
        scoped.reduce((a, b) => a + b, 0) / scoped.length,
        'ms',
      ),
    );

    const same = writeAll(
      store,
      inputs.map((i) => ({ ...i, sha256: `${i.sha256}-again` })),
    );
    out.push(row(title, 'rewrite, same graphs (a dependent re-analyzed): rows/s', rows / same, 'rows/s'));
    const shifted = Array.from({ length: FILES }, (_, f) => moduleGraph(f, 1));
    const moved = writeAll(store, shifted);
    out.push(row(title, 'rewrite, every range moved: rows/s', rows / moved, 'rows/s'));
    store.resolveRefs();

    t0 = performance.now();
    let lines = 0;
    store.snapshot(() => {
      const g = store.exportGraph();
      for (const _ of g.nodes) lines++;
      for (const _ of g.edges) lines++;
    });
    const exportS = (performance.now() - t0) / 1000;
    out.push(row(title, `export (exportGraph, ${lines.toLocaleString('en-US')} lines): lines/s`, lines / exportS, 'lines/s'));
  } finally {
    store.close();
  }
  out.push(row(title, 'database size (graph.db + WAL)', dbMiB(dbPath), 'MiB'));

  const batched = GraphStore.open(join(dir, 'batched.db'));
  try {
    log(`store: first write again, ${BATCH} files per transaction…`);
    const s = writeAll(batched, inputs, BATCH);
    out.push(row(title, `first write, ${BATCH} files per transaction (reference): rows/s`, rows / s, 'rows/s'));
  } finally {
    batched.close();
  }
  return out;
}
