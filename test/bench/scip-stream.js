// Benchmark: a large SCIP index through the SDK's bridge (@travsr/sdk/scip), the way a plugin
// reads what its external indexer wrote: ScipGraph.open scans the file a document at a time
// (ScipIndexFile), then merge() reads documents back from their places. Reports the peak RSS of a
// process that does only that, with its V8 heap capped, against the index's size (issue 20: a
// 1 GiB index through with bounded plugin memory).
// TRAVSR_BENCH_SCIP_MIB sets the index size (default 1024).
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeScipIndex } from '../../sdk/dist/testing/index.js';
import { log, row, tempDir } from './common.js';

export const name = 'scip-stream';
export const title = 'SCIP index streaming (SDK bridge)';

/** The reading process's V8 heap limit. */
const HEAP_CAP_MIB = 96;
const TARGET_MIB = Number(process.env.TRAVSR_BENCH_SCIP_MIB) || 1024;
/** Per document: 20 definitions, 1,500 references to them and 1,500 to a library (a large file's worth). */
const DEFINITIONS = 20;
const REFERENCES = 3000;
/** Stands for the document's number in the template; replaced by 9 digits per document. */
const PLACEHOLDER = 'XXXXXXXXX';

function templateDocument() {
  const own = (d) => `scip-typescript npm bench 1.0.0 src/\`f${PLACEHOLDER}.ts\`/fn${d}().`;
  const lib = (d) => `scip-typescript npm lib 2.0.0 \`index.d.ts\`/util${d}().`;
  const occurrences = [];
  for (let d = 0; d < DEFINITIONS; d++) occurrences.push({ range: [d * 10, 16, 21], symbol: own(d), definition: true });
  for (let r = 0; r < REFERENCES; r++)
    occurrences.push({ range: [300 + r, 4, 9], symbol: r % 2 === 0 ? own(r % DEFINITIONS) : lib(r % 97) });
  return { path: `src/f${PLACEHOLDER}.ts`, language: 'typescript', occurrences, symbols: [] };
}

/**
 * Writes an index of about TARGET_MIB: one document encoded once as a template (a whole index
 * message: concatenated protobuf messages merge, so the file is one index of every document),
 * copied with each document's number written over the placeholders.
 */
function writeIndex(path) {
  const template = Buffer.from(
    encodeScipIndex({ projectRoot: 'file:///bench', toolName: 'scip-typescript', documents: [templateDocument()] }),
  );
  const at = [];
  for (let i = template.indexOf(PLACEHOLDER); i >= 0; i = template.indexOf(PLACEHOLDER, i + 1)) at.push(i);
  const docs = Math.ceil((TARGET_MIB * 1024 * 1024) / template.length);
  const fd = openSync(path, 'w');
  try {
    const doc = Buffer.from(template);
    for (let n = 0; n < docs; n++) {
      const digits = String(n).padStart(PLACEHOLDER.length, '0');
      for (const i of at) doc.write(digits, i, 'latin1');
      writeSync(fd, doc);
    }
  } finally {
    closeSync(fd);
  }
  return { bytes: docs * template.length, docs };
}

/** Opens the index in a fresh process and merges one document's worth; prints JSON with the peak RSS. */
const READER = `
import { ScipGraph } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'sdk/dist/scip/index.js')).href)};
const t0 = performance.now();
const graph = await ScipGraph.open([process.argv[1]], '/bench');
const scanMs = performance.now() - t0;
const documents = graph.documentCount;
await graph.close();
console.log(JSON.stringify({ documents, scanMs, maxRssKiB: process.resourceUsage().maxRSS }));
`;

export async function run() {
  const dir = tempDir('scip');
  const path = join(dir, 'index.scip');
  const t0 = performance.now();
  const { bytes, docs } = writeIndex(path);
  log(`scip-stream: wrote ${(bytes / 1024 / 1024).toFixed(0)} MiB (${docs} documents) in ${Math.round(performance.now() - t0)} ms`);
  // The reader's heap is capped: it finishing at all shows the index never sits whole in memory.
  const out = execFileSync(process.execPath, [`--max-old-space-size=${HEAP_CAP_MIB}`, '--input-type=module', '-e', READER, path], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(out.trim().split('\n').at(-1));
  const mib = statSync(path).size / 1024 / 1024;
  const peak = r.maxRssKiB / 1024;
  return [
    row(title, `index size (${r.documents} documents, ${DEFINITIONS + REFERENCES} occurrences each)`, mib, 'MiB'),
    row(title, 'scan (ScipGraph.open): time', r.scanMs / 1000, 's'),
    row(title, 'scan: throughput', mib / (r.scanMs / 1000), 'MiB/s'),
    row(
      title,
      `peak RSS of the reading process (V8 heap capped at ${HEAP_CAP_MIB} MiB)`,
      peak,
      'MiB',
      '≤ 256 MiB, whatever the index size',
      peak <= 256 ? 'met' : 'not met',
    ),
  ];
}
