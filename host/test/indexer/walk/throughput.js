// Quick throughput check of the walk and the hash (printed, never asserted; not run by vitest).
//   npx tsc -b && node host/test/indexer/walk/throughput.js [dir ...]
// Default trees: /usr/share and /usr/lib/node_modules, where present. Each tree is walked
// twice (the first pass may read from disk, the second mostly from the page cache); every
// file the walk yields is then hashed with hashFiles (concurrency 8).
import { existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { hashFiles, walkRepository } from '../../../dist/indexer/walk/index.js';

const trees =
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/usr/share', '/usr/lib/node_modules'].filter((d) => existsSync(d));
const rate = (n, ms) => (n / (ms / 1000)).toFixed(0);
const mb = (bytes) => bytes / 1024 / 1024;

console.log(
  `machine: ${cpus()[0]?.model ?? '?'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`,
);
console.log('');
console.log(
  '| tree | pass | entries | files | skipped | walk ms | walk files/s | walk MB/s (sizes) | hash ms | hash files/s | hash MB/s | lines |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const tree of trees) {
  for (const pass of [1, 2]) {
    const files = [];
    let entries = 0;
    let bytes = 0;
    const skipped = {};
    const t0 = performance.now();
    for await (const e of walkRepository(tree)) {
      entries++;
      if (e.kind === 'file') {
        files.push(e.path);
        bytes += e.size;
      } else skipped[e.reason] = (skipped[e.reason] ?? 0) + 1;
    }
    const walkMs = performance.now() - t0;
    const t1 = performance.now();
    const hashes = await hashFiles(tree, files, { concurrency: 8 });
    const hashMs = performance.now() - t1;
    const hashedBytes = hashes.reduce((s, h) => s + (h.ok ? h.size : 0), 0);
    const lines = hashes.reduce((s, h) => s + (h.ok ? h.lines : 0), 0);
    const skippedText = Object.entries(skipped)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ');
    console.log(
      `| ${tree} | ${pass} | ${entries} | ${files.length} | ${skippedText || 0} | ${walkMs.toFixed(0)} | ${rate(files.length, walkMs)} | ${(mb(bytes) / (walkMs / 1000)).toFixed(0)} | ${hashMs.toFixed(0)} | ${rate(files.length, hashMs)} | ${(mb(hashedBytes) / (hashMs / 1000)).toFixed(0)} | ${lines} |`,
    );
  }
}
console.log('');
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
