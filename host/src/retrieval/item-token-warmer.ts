import type { CodeGraph } from './code-graph.js';
import { definitionSnippet, isShowable } from './context-items.js';
import { renderedItemTokens } from './context-render.js';
import type { GraphSnapshot } from './graph-snapshot.js';
import { SourceReader } from './source-snippets.js';

/**
 * Counts, ahead of the questions, the tokens of every definition as get_context renders it
 * (its title and code block, {@link renderedItemTokens}), so that a question finds the counts of
 * its candidates remembered: counting them is most of a first answer's time otherwise (about
 * 120 candidates of up to 60 lines each). A long-lived server (the daemon's and `travsr mcp`'s
 * tool workers) calls {@link step} between calls until it says done, and again when the graph
 * moves: then only the files whose indexed content changed are counted again.
 *
 * Files are read one at a time by a reader of its own and forgotten when done, so the memory
 * of the graph's own file cache stays what questions read.
 */
export class ItemTokenWarmer {
  private snap: GraphSnapshot | undefined;
  /** Files left to count, with their definitions (dense ids of {@link snap}), the next last. */
  private pending: { path: string; sha256: string | undefined; defs: number[] }[] = [];
  /** The indexed sha256 at which each file's definitions were counted. */
  private readonly counted = new Map<string, string | undefined>();
  private readonly reader: SourceReader;
  /** Files and definitions counted so far (a file counted again after a change counts again). */
  readonly counts = { files: 0, definitions: 0 };

  constructor(private readonly cg: CodeGraph) {
    this.reader = new SourceReader(cg.repoRoot);
  }

  /**
   * Counts for about `ms` milliseconds (one definition at least) and says whether every
   * definition of the current graph is counted.
   */
  step(ms: number): boolean {
    const deadline = performance.now() + ms;
    const snap = this.cg.snapshot();
    if (snap !== this.snap) this.plan(snap);
    while (this.pending.length > 0) {
      const file = this.pending[this.pending.length - 1]!;
      const d = file.defs.pop();
      if (d === undefined) {
        this.pending.pop();
        this.counted.set(file.path, file.sha256);
        this.counts.files++;
        this.reader.clear();
        continue;
      }
      const node = {
        id: '',
        kind: snap.kinds[d]!,
        name: snap.names[d]!,
        qualifiedName: snap.qualifiedNames[d] ?? null,
        corpus: snap.corpora[d]!,
        path: file.path,
        startLine: snap.startLines[d]!,
        endLine: snap.endLines[d]! || null,
      };
      const snippet = definitionSnippet(this.reader, node, file.sha256);
      // The title and the code block are what is the same for every question.
      if (snippet) renderedItemTokens({ node, why: [], score: 0, snippet });
      this.counts.definitions++;
      if (performance.now() >= deadline) return false;
    }
    return true;
  }

  /** The definitions of the files of `snap` not counted at their current content. */
  private plan(snap: GraphSnapshot): void {
    this.snap = snap;
    this.reader.clear();
    const shas = this.cg.fileSha256s();
    const byPath = new Map<string, number[]>();
    for (let d = 0; d < snap.nodeCount; d++) {
      if (!isShowable(snap, d)) continue;
      const path = snap.paths[d]!;
      if (this.counted.has(path) && this.counted.get(path) === shas.get(path)) continue;
      let defs = byPath.get(path);
      if (!defs) byPath.set(path, (defs = []));
      defs.push(d);
    }
    this.pending = [...byPath].map(([path, defs]) => ({ path, sha256: shas.get(path), defs }));
  }
}
