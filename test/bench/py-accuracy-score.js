// Scores a travsr graph export against a calls-bench truth with calls-bench's own scorer
// (score.mjs), so that the numbers mean what the table means. The score's text (the
// miss and false-positive groups) is kept in test/bench/.cache/py-accuracy/ for reading.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir } from './common.js';
import { callsBenchDir } from './py-accuracy-corpus.js';

/** Where the per-corpus score texts and JSON go (ignored by git). */
export const scoreDir = join(benchDir, '.cache', 'py-accuracy');

/**
 * `node score.mjs TRUTH.edges.tsv EXPORT.jsonl --json …` for one corpus and one run (`label`:
 * `phase-b` or `phase-a`). Returns the `ctor` score (tolerant keys, an edge to `__init__`
 * counted as the reference's edge to the class) with both precisions:
 *
 * - `precision`: every in-scope edge the reference lacks counts as wrong;
 * - `verifiablePrecision`: the edges score.mjs calls unverifiable (the reference left a call by
 *   the same name in the same caller unresolved: pyright has no type for the receiver) are left
 *   out. score.mjs counts them on its tolerant keys, which the ctor score shares (it only maps
 *   `__init__` callees to their class), hence the clamp at zero.
 *
 * Also the top miss and false-positive groups, and the path of the kept text.
 */
export function scoreExport({ truthPrefix, exportFile, corpus, label, top = 10 }) {
  mkdirSync(scoreDir, { recursive: true });
  const base = join(scoreDir, `${corpus}.${label}`);
  const r = spawnSync(
    process.execPath,
    [
      join(callsBenchDir(), 'score.mjs'),
      `${truthPrefix}.edges.tsv`,
      exportFile,
      '--json',
      `${base}.score.json`,
      '--top',
      String(top),
      '--examples',
      '3',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, timeout: 600_000 },
  );
  if (r.status !== 0) throw new Error(`calls-bench score.mjs (${corpus}, ${label}) exited with ${r.status}: ${(r.stderr ?? '').trim()}`);
  writeFileSync(`${base}.score.txt`, r.stdout);
  const json = JSON.parse(readFileSync(`${base}.score.json`, 'utf8'));
  const c = json.ctor;
  if (!c) throw new Error(`calls-bench score.mjs wrote no ctor score for ${exportFile} (not a JSONL export?)`);
  const unverifiable = json.fp_unverifiable ?? 0;
  const verifiableFp = Math.max(0, c.fp - unverifiable);
  return {
    truthEdges: json.truth_edges,
    oursEdges: json.ours_edges,
    outOfScope: Object.values(json.out_of_scope ?? {}).reduce((a, b) => a + b, 0),
    tp: c.tp,
    fp: c.fp,
    fn: c.fn,
    unverifiable,
    precision: c.precision,
    verifiablePrecision: c.tp + verifiableFp === 0 ? NaN : c.tp / (c.tp + verifiableFp),
    verifiableFp,
    recall: c.recall,
    misses: json.misses ?? [],
    falsePositives: json.false_positives ?? [],
    textFile: `${base}.score.txt`,
  };
}
