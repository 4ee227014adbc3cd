// Bulk write rate of the graph store (a measurement script, not a test):
//   npx tsc -b && node host/test/store/bulk-write-rate.mjs [files=1000] [nodesPerFile=100] [filesPerTransaction=1]
// Writes `files` Phase A analyses of `nodesPerFile` nodes and as many edges (half within the
// file, half into the next file, which is a placeholder until that file is written) and as
// many refs, `filesPerTransaction` files per transaction, then resolves the refs. Prints rows/s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphStore } from '../../dist/store/index.js';

const files = Number(process.argv[2] ?? 1000);
const perFile = Number(process.argv[3] ?? 100);
const batch = Number(process.argv[4] ?? 1);
const writeAll = (inputs) => {
  for (let i = 0; i < inputs.length; i += batch)
    store.transaction(() => {
      for (const input of inputs.slice(i, i + batch)) store.replaceFile(input);
    });
};
const dir = mkdtempSync(join(tmpdir(), 'travsr-bulk-'));
const vn = (f, i) => ({
  corpus: 'github.com/acme/app',
  root: '',
  path: `src/m${f}/file${f}.ts`,
  language: 'typescript',
  signature: `#fn${i}().`,
});

function analysis(f, salt) {
  const nodes = [];
  const edges = [];
  const refs = [];
  for (let i = 0; i < perFile; i++) {
    nodes.push({
      vname: vn(f, i),
      kind: 'function',
      name: `handleRequest${f}_${i}`,
      qualifiedName: `m${f}.handleRequest${f}_${i}`,
      range: { startLine: i * 10 + 1, startCol: 0, endLine: i * 10 + 9 + salt, endCol: 1 },
      skeleton: `function handleRequest${f}_${i}(req: Request): Response`,
    });
    const dst = i % 2 === 0 ? vn(f, (i + 1) % perFile) : vn((f + 1) % files, i);
    edges.push({ src: vn(f, i), dst, kind: 'calls', provenance: 'phase-a', confidence: 1 });
    refs.push({ src: vn(f, i), kind: 'calls', name: `util.handleRequest${(f + 7) % files}_${i}` });
  }
  return {
    path: `src/m${f}/file${f}.ts`,
    sha256: `${f}-${salt}`,
    language: 'typescript',
    phase: 'A',
    plugin: 'bench@0',
    status: 'ok',
    nodes,
    edges,
    refs,
    diagnostics: [],
  };
}

const inputs = Array.from({ length: files }, (_, f) => analysis(f, 0));
const store = GraphStore.open(join(dir, 'graph.db'));
let t = performance.now();
writeAll(inputs);
const fullMs = performance.now() - t;
t = performance.now();
const resolved = store.resolveRefs();
const resolveMs = performance.now() - t;
const again = Array.from({ length: files }, (_, f) => analysis(f, 1)); // every node's range changes
t = performance.now();
writeAll(again);
const rewriteMs = performance.now() - t;
t = performance.now();
let n = 0;
store.snapshot(() => {
  const g = store.exportGraph();
  for (const _ of g.nodes) n++;
  for (const _ of g.edges) n++;
});
const exportMs = performance.now() - t;
t = performance.now();
for (let i = 0; i < 100; i++) store.searchSymbols(`handle request ${i}`, { limit: 20 });
const searchMs = (performance.now() - t) / 100;
const c = store.counts();
store.close();
rmSync(dir, { recursive: true, force: true });

const rows = files * perFile;
const rate = (count, ms) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} /s`;
console.log(`| step | time | rate |\n|---|---|---|`);
console.log(
  `| first write: ${rows} nodes + ${rows} edges + ${rows} refs, ${Math.ceil(files / batch)} transactions | ${fullMs.toFixed(0)} ms | ${rate(3 * rows, fullMs)} rows (${rate(rows, fullMs)} nodes) |`,
);
console.log(`| resolveRefs over ${rows} refs (${resolved.edges} edges) | ${resolveMs.toFixed(0)} ms | ${rate(rows, resolveMs)} refs |`);
console.log(`| rewrite: every node changed | ${rewriteMs.toFixed(0)} ms | ${rate(3 * rows, rewriteMs)} rows |`);
console.log(`| export ${n} lines | ${exportMs.toFixed(0)} ms | ${rate(n, exportMs)} lines |`);
console.log(`| searchSymbols (avg) | ${searchMs.toFixed(2)} ms | |`);
console.log(`counts: ${JSON.stringify({ nodes: c.nodes, edges: c.edges, externals: c.externals, refs: c.refs })}`);
