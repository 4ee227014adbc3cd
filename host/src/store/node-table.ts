import { nodeId, type Node, type VName } from '@travsr/protocol';
import type { StoreContext } from './store-context.js';
import type { SymbolIndex } from './symbol-index.js';

/** A string that identifies a VName in a Map: length-prefixed fields, so no two VNames collide. */
export function vnameKey(v: VName): string {
  return `${v.corpus.length}:${v.corpus}${v.root.length}:${v.root}${v.path.length}:${v.path}${v.language.length}:${v.language}${v.signature}`;
}

interface StoredNode {
  id: number;
  kind: string;
  name: string;
  qualified_name: string | null;
  start_line: number | null;
  start_col: number | null;
  end_line: number | null;
  end_col: number | null;
  skeleton: string | null;
  acl: string;
  tombstoned_at: number | null;
}

const VNAME_WHERE = 'corpus = ? AND root = ? AND path = ? AND language = ? AND signature = ?';

/**
 * Node writes: upsert by VName (reviving tombstones, turning placeholders into
 * definitions), placeholders for edge endpoints, tombstoning, and keeping the FTS index in
 * step. Callers run these inside a transaction.
 */
export class NodeTable {
  constructor(
    private readonly ctx: StoreContext,
    private readonly fts: SymbolIndex,
  ) {}

  private find(v: VName): StoredNode | undefined {
    return this.ctx
      .stmt(
        `SELECT id, kind, name, qualified_name, start_line, start_col, end_line, end_col, skeleton, acl, tombstoned_at
         FROM nodes WHERE ${VNAME_WHERE}`,
      )
      .get(v.corpus, v.root, v.path, v.language, v.signature) as StoredNode | undefined;
  }

  /** Writes a definition; returns its surrogate id. Unchanged live nodes are not rewritten. */
  upsertDefinition(node: Node, acl: string): number {
    const r = node.range;
    const fields = [
      node.kind,
      node.name,
      node.qualifiedName ?? null,
      r?.startLine ?? null,
      r?.startCol ?? null,
      r?.endLine ?? null,
      r?.endCol ?? null,
      node.skeleton ?? null,
      acl,
    ] as const;
    const v = node.vname;
    const old = this.find(v);
    if (!old) {
      const id = Number(
        this.ctx
          .stmt(
            `INSERT INTO nodes (corpus, root, path, language, signature, node_id,
               kind, name, qualified_name, start_line, start_col, end_line, end_col, skeleton, acl)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(v.corpus, v.root, v.path, v.language, v.signature, nodeId(v), ...fields).lastInsertRowid,
      );
      this.fts.write(id, node.name, node.qualifiedName ?? null, v.path, node.skeleton ?? null, false);
      return id;
    }
    const unchanged =
      old.tombstoned_at === null &&
      old.kind === fields[0] &&
      old.name === fields[1] &&
      old.qualified_name === fields[2] &&
      old.start_line === fields[3] &&
      old.start_col === fields[4] &&
      old.end_line === fields[5] &&
      old.end_col === fields[6] &&
      old.skeleton === fields[7] &&
      old.acl === fields[8];
    if (unchanged) return old.id;
    this.ctx
      .stmt(
        `UPDATE nodes SET kind = ?, name = ?, qualified_name = ?, start_line = ?, start_col = ?, end_line = ?,
           end_col = ?, skeleton = ?, acl = ?, tombstoned_at = NULL
         WHERE id = ?`,
      )
      .run(...fields, old.id);
    // A placeholder or a tombstone has no FTS row; a live definition has one to replace.
    const hadFtsRow = old.tombstoned_at === null && old.kind !== 'external';
    this.fts.write(old.id, node.name, node.qualifiedName ?? null, v.path, node.skeleton ?? null, hadFtsRow);
    return old.id;
  }

  /**
   * The id of the node an edge or ref names. A VName with no row gets an 'external'
   * placeholder; a tombstoned one becomes a placeholder again (what a full reindex would
   * make of the same edge). A later definition turns either into a real node.
   */
  ensureReferenced(v: VName): number {
    const old = this.ctx
      .stmt(`SELECT id, tombstoned_at FROM nodes WHERE ${VNAME_WHERE}`)
      .get(v.corpus, v.root, v.path, v.language, v.signature) as { id: number; tombstoned_at: number | null } | undefined;
    if (!old)
      return Number(
        this.ctx
          .stmt(
            `INSERT INTO nodes (corpus, root, path, language, signature, node_id, kind, name)
             VALUES (?, ?, ?, ?, ?, ?, 'external', '')`,
          )
          .run(v.corpus, v.root, v.path, v.language, v.signature, nodeId(v)).lastInsertRowid,
      );
    if (old.tombstoned_at !== null)
      this.ctx
        .stmt(
          `UPDATE nodes SET kind = 'external', name = '', qualified_name = NULL, start_line = NULL, start_col = NULL,
             end_line = NULL, end_col = NULL, skeleton = NULL, acl = '', tombstoned_at = NULL
           WHERE id = ?`,
        )
        .run(old.id);
    return old.id;
  }

  /** Live definitions (not placeholders) whose VName path is `path`. */
  liveIdsOfFile(path: string): number[] {
    return (
      this.ctx.stmt("SELECT id FROM nodes WHERE path = ? AND kind <> 'external' AND tombstoned_at IS NULL").all(path) as { id: number }[]
    ).map((r) => r.id);
  }

  /**
   * Hides node `id`: sets `tombstoned_at`, drops its FTS row and the name-matched (derived)
   * edges from and to it. Plugin edges of other files that point at it stay until those
   * files are reanalyzed (see {@link GraphStore.dependentsOf}).
   */
  tombstone(id: number, at: number): void {
    this.ctx.stmt('UPDATE nodes SET tombstoned_at = ? WHERE id = ?').run(at, id);
    this.fts.remove(id);
    this.ctx.stmt('DELETE FROM edges WHERE derived = 1 AND src = ?').run(id);
    this.ctx.stmt('DELETE FROM edges WHERE derived = 1 AND dst = ?').run(id);
  }

  /** Placeholders that edges produced by `path`, or its refs, hold on to (candidates for {@link dropOrphanPlaceholders}). */
  placeholdersHeldBy(path: string): number[] {
    return (
      this.ctx
        .stmt(
          `SELECT e.dst AS id FROM edges e JOIN nodes n ON n.id = e.dst WHERE e.origin_path = @p AND n.kind = 'external'
           UNION SELECT e.src FROM edges e JOIN nodes n ON n.id = e.src WHERE e.origin_path = @p AND n.kind = 'external'
           UNION SELECT r.src FROM refs r JOIN nodes n ON n.id = r.src WHERE r.path = @p AND n.kind = 'external'`,
        )
        .all({ p: path }) as { id: number }[]
    ).map((r) => r.id);
  }

  /** Deletes those of `ids` that are placeholders nothing refers to any more. */
  dropOrphanPlaceholders(ids: readonly number[]): void {
    const drop = this.ctx.stmt(
      `DELETE FROM nodes WHERE id = @p AND kind = 'external'
         AND NOT EXISTS (SELECT 1 FROM edges WHERE src = @p) AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = @p)
         AND NOT EXISTS (SELECT 1 FROM refs WHERE src = @p)`,
    );
    for (const id of ids) drop.run({ p: id });
  }
}
