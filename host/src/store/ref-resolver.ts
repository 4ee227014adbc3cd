import type { StoreContext } from './store-context.js';
import type { ResolveRefsResult, ResolveScope } from './types.js';

/** Confidence of a name match with exactly one candidate in the ref's own file. */
export const SAME_FILE_CONFIDENCE = 0.5;
/** Confidence of a name match with exactly one candidate in the repository (none in the file). */
export const REPO_UNIQUE_CONFIDENCE = 0.35;

interface RefRow {
  id: number;
  path: string;
  src: number;
  kind: string;
  target_name: string;
}

interface SrcInfo {
  corpus: string;
  language: string;
  live: boolean;
}

// Candidates: live definitions (not file nodes, not placeholders) of the ref's corpus and
// language whose name is the ref's last segment. Two rows are enough to tell one from many.
const CANDIDATES = `SELECT id FROM nodes WHERE name = ? AND corpus = ? AND language = ?
  AND tombstoned_at IS NULL AND kind NOT IN ('file', 'external')`;
const PAGE = 5000;

// A file whose Phase B graph is stored has compiler-resolved edges: its Phase A refs would only
// add name guesses next to them (often wrong: a call the compiler resolved outside the
// repository matched to a same-named function in it). They are kept, not matched, so a file
// that falls back to Phase A (a failed Phase B) gets them matched again.
const MATCHABLE = `NOT (r.phase = 'A' AND EXISTS (SELECT 1 FROM files f WHERE f.path = r.path AND f.phase = 'B'))`;

/**
 * Phase A name matching: turns unresolved refs into derived edges (provenance phase-a,
 * derived = 1) when the target is unambiguous, and into nothing otherwise.
 */
export class RefResolver {
  constructor(private readonly ctx: StoreContext) {}

  /** See {@link GraphStore.resolveRefs}. Runs inside the caller's transaction. */
  resolve(scope?: ResolveScope): ResolveRefsResult {
    const result: ResolveRefsResult = { edges: 0, ambiguous: 0, unresolved: 0 };
    const changesBefore = this.totalChanges();
    const match = new Matcher(this.ctx);
    if (!scope) {
      this.ctx.stmt('DELETE FROM edges WHERE derived = 1').run();
      const page = this.ctx.stmt(
        `SELECT r.id, r.path, r.src, r.kind, r.target_name FROM refs r WHERE r.id > ? AND ${MATCHABLE} ORDER BY r.id LIMIT ?`,
      );
      for (let after = 0; ;) {
        const rows = page.all(after, PAGE) as RefRow[];
        for (const r of rows) match.resolve(r, result);
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.id;
      }
    } else {
      // A derived edge is not tied to the ref that made it, so re-resolve per source node:
      // every ref of a node in scope, after deleting all of that node's derived edges. The
      // nodes of the files in scope all count (one whose file now has its Phase B graph loses
      // its old matches); elsewhere only nodes with a ref that can be matched: a file with its
      // Phase B graph has no matches left to redo (they were dropped when it got there), and
      // in a repository analyzed at Phase B a common name is named by thousands of refs.
      // A file in scope at Phase B with no match left has nothing to redo (the usual case of a
      // compiler-resolved language: its refs are kept, never matched).
      const redo = this.ctx.stmt(
        `SELECT 1 FROM files f WHERE f.path = ? AND (f.phase IS NOT 'B' OR EXISTS (SELECT 1 FROM edges e WHERE e.origin_path = f.path AND e.derived = 1))`,
      );
      const paths = (scope.paths ?? []).filter((p) => redo.get(p) !== undefined);
      const names = JSON.stringify(scope.names ?? []);
      const ofPaths = this.ctx
        .stmt(`SELECT DISTINCT src FROM refs WHERE path IN (SELECT value FROM json_each(?))`)
        .all(JSON.stringify(paths)) as { src: number }[];
      const ofNames = this.ctx
        .stmt(`SELECT DISTINCT r.src FROM refs r WHERE r.target_name IN (SELECT value FROM json_each(?)) AND ${MATCHABLE}`)
        .all(names) as { src: number }[];
      const dropDerived = this.ctx.stmt('DELETE FROM edges WHERE derived = 1 AND src = ?');
      const refsOf = this.ctx.stmt(
        `SELECT r.id, r.path, r.src, r.kind, r.target_name FROM refs r WHERE r.src = ? AND ${MATCHABLE} ORDER BY r.id`,
      );
      const whole = new Set<number>();
      for (const { src } of ofPaths) {
        whole.add(src);
        dropDerived.run(src);
        for (const r of refsOf.all(src) as RefRow[]) match.resolve(r, result);
      }
      // A node outside the files in scope that names a changed name: only its refs to those
      // names can resolve differently (a name's candidates are all that changed), and the
      // derived edges they made are the ones to a node of that name (a match's target is named
      // exactly as the ref's target). Its other matches stand; a node with many calls, or a
      // common name named by thousands of nodes, is not matched all over again.
      // Their derived edges to those names go in one statement (the nodes of the names looked
      // up once, not once per node), then their refs to them are matched again.
      const partly = ofNames.map((r) => r.src).filter((src) => !whole.has(src));
      this.ctx
        .stmt(
          `DELETE FROM edges WHERE derived = 1 AND src IN (SELECT value FROM json_each(?))
           AND dst IN (SELECT n.id FROM nodes n WHERE n.name IN (SELECT value FROM json_each(?)))`,
        )
        .run(JSON.stringify(partly), names);
      const refsOfTo = this.ctx.stmt(
        `SELECT r.id, r.path, r.src, r.kind, r.target_name FROM refs r
         WHERE r.src = ? AND r.target_name IN (SELECT value FROM json_each(?)) AND ${MATCHABLE} ORDER BY r.id`,
      );
      for (const src of partly) for (const r of refsOfTo.all(src, names) as RefRow[]) match.resolve(r, result);
    }
    // Only a pass that wrote something moves the graph version: an update that changed no file
    // (a daemon's catch-up at start) must not drop every answer and cache keyed by it.
    if (this.totalChanges() !== changesBefore) this.ctx.bumpGraphVersion();
    return result;
  }

  /** Rows inserted, updated or deleted on this connection so far (SQLite's total_changes()). */
  private totalChanges(): number {
    return (this.ctx.stmt('SELECT total_changes() AS n').get() as { n: number }).n;
  }
}

/** Resolves refs one by one, caching candidate look-ups for the duration of one call. */
class Matcher {
  private readonly srcs = new Map<number, SrcInfo | undefined>();
  private readonly repoCandidates = new Map<string, number[]>();

  constructor(private readonly ctx: StoreContext) {}

  resolve(ref: RefRow, result: ResolveRefsResult): void {
    const src = this.srcInfo(ref.src);
    if (!src?.live) {
      result.unresolved++;
      return;
    }
    const inFile = this.ctx.stmt(`${CANDIDATES} AND path = ? LIMIT 2`).all(ref.target_name, src.corpus, src.language, ref.path) as {
      id: number;
    }[];
    let target: number | undefined;
    let confidence = SAME_FILE_CONFIDENCE;
    if (inFile.length === 1) target = inFile[0]!.id;
    else if (inFile.length === 0) {
      const inRepo = this.inRepo(ref.target_name, src);
      if (inRepo.length === 1) {
        target = inRepo[0];
        confidence = REPO_UNIQUE_CONFIDENCE;
      } else if (inRepo.length === 0) {
        result.unresolved++;
        return;
      }
    }
    if (target === undefined) {
      result.ambiguous++; // no edge is better than a wrong one
      return;
    }
    this.ctx
      .stmt(
        `INSERT INTO edges (src, dst, kind, provenance, confidence, derived, origin_path) VALUES (?, ?, ?, 'phase-a', ?, 1, ?)
         ON CONFLICT (src, dst, kind, provenance, derived, origin_path) DO UPDATE SET confidence = max(confidence, excluded.confidence)`,
      )
      .run(ref.src, target, ref.kind, confidence, ref.path);
    result.edges++;
  }

  private srcInfo(id: number): SrcInfo | undefined {
    if (!this.srcs.has(id)) {
      const row = this.ctx.stmt('SELECT corpus, language, tombstoned_at FROM nodes WHERE id = ?').get(id) as
        { corpus: string; language: string; tombstoned_at: number | null } | undefined;
      this.srcs.set(id, row && { corpus: row.corpus, language: row.language, live: row.tombstoned_at === null });
    }
    return this.srcs.get(id);
  }

  private inRepo(name: string, src: SrcInfo): number[] {
    const key = `${src.corpus.length}:${src.corpus}${src.language.length}:${src.language}${name}`;
    let ids = this.repoCandidates.get(key);
    if (!ids) {
      ids = (this.ctx.stmt(`${CANDIDATES} LIMIT 2`).all(name, src.corpus, src.language) as { id: number }[]).map((r) => r.id);
      this.repoCandidates.set(key, ids);
    }
    return ids;
  }
}
