// Benchmark: the walk under a large .gitignore at growing depth (issue 12, finding 5). With one
// matcher per set of rules the cost grows with depth × patterns; per-directory matchers made it
// depth² × patterns, minutes at depth 500.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkRepository } from '../../host/dist/indexer/walk/index.js';
import { row, tempDir } from './common.js';

export const name = 'ignore-depth';
export const title = 'walk under 4,000 ignore patterns';

const PATTERNS = 4000;
const DEPTHS = [250, 500, 1000];

/** A tree with one chain of `depth` directories, a file at the bottom, and the attack's .gitignore. */
function deepTree(depth) {
  const root = tempDir(`ignore-depth-${depth}`);
  writeFileSync(join(root, '.gitignore'), Array.from({ length: PATTERNS }, (_, i) => `gen${i}/**/*.tmp`).join('\n'));
  const bottom = join(root, ...Array.from({ length: depth }, () => 'd'));
  mkdirSync(bottom, { recursive: true });
  writeFileSync(join(bottom, 'deep.ts'), 'export const x = 1;\n');
  return root;
}

export async function run() {
  const rows = [];
  for (const depth of DEPTHS) {
    const root = deepTree(depth);
    let best = Infinity;
    for (let pass = 0; pass < 3; pass++) {
      const t0 = performance.now();
      for await (const _ of walkRepository(root)) void _;
      best = Math.min(best, performance.now() - t0);
    }
    rows.push(row(title, `walk, depth ${depth} (best of 3)`, best, 'ms'));
    rows.push(row(title, `per directory level, depth ${depth}`, (best / depth) * 1000, 'µs'));
  }
  return rows;
}
