import { StoreError, StoreErrorCode } from './errors.js';
import type { StoreContext } from './store-context.js';
import { nearestRows, vectorMatrix, type VectorMatrix } from './vector-scan.js';

/** A definition's embedding under one model: its node (NodeId hex) and the vector. */
export interface VectorEntry {
  nodeId: string;
  vector: Float32Array;
  /** Digest of the text the vector was made from (`travsr embed` re-embeds a node when it changes). */
  source?: string;
}

/** What the store holds of one model's vectors. */
export interface VectorModelInfo {
  model: string;
  dim: number;
  count: number;
}

/** A nearest vector: its node and the cosine similarity to the query. */
export interface VectorHit {
  nodeId: string;
  score: number;
}

/** The `meta` key that moves with every write to the vectors table. */
const VECTOR_VERSION = 'vector_version';

/** One model's vectors in memory, with the table version they were read at. */
interface Matrix extends VectorMatrix {
  version: number;
}

/**
 * The `vectors` table: embeddings per node and model (little-endian float32), and cosine
 * search over one model's vectors (exact, or prefiltered by sign codes for large models: see
 * `vector-scan.ts`). A model's vectors all have one dimension. Search reads the model's vectors
 * into one typed array once per change of the table (the `vector_version` meta value, moved by
 * every write).
 */
export class VectorTable {
  private readonly matrices = new Map<string, Matrix>();

  constructor(private readonly ctx: StoreContext) {}

  /**
   * Writes (or replaces) `entries` under `model`; returns how many. Refused, nothing written
   * (STORE_INVALID_INPUT): a vector whose dimension differs from the others of its model or of
   * the batch, an empty one, or one with a value that is not a finite number.
   */
  put(model: string, entries: readonly VectorEntry[]): number {
    if (entries.length === 0) return 0;
    const dim = this.dimOf(model) ?? entries[0]!.vector.length;
    for (const e of entries) {
      if (e.vector.length !== dim || dim === 0)
        throw invalid(
          `cannot store the vectors: the vector of ${e.nodeId} has ${e.vector.length} dimensions; ${model}'s vectors have ${dim}` +
            ' (vectors of another model or version go under another model name; `travsr embed` re-embeds a changed model); nothing was written',
        );
      for (const x of e.vector)
        if (!Number.isFinite(x))
          throw invalid(
            `cannot store the vectors: the vector of ${e.nodeId} holds ${x}, only finite numbers can be stored; nothing was written`,
          );
    }
    const insert = this.ctx.stmt(
      `INSERT INTO vectors (node_id, model, dim, vector, source) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (node_id, model) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, source = excluded.source`,
    );
    for (const e of entries) insert.run(e.nodeId, model, dim, littleEndianBytes(e.vector), e.source ?? null);
    this.bumpVersion();
    return entries.length;
  }

  /** Removes the vectors of `nodeIds` under `model` (every model when undefined); returns how many. */
  remove(nodeIds: readonly string[], model?: string): number {
    let removed = 0;
    const del =
      model === undefined
        ? this.ctx.stmt('DELETE FROM vectors WHERE node_id = ?')
        : this.ctx.stmt('DELETE FROM vectors WHERE node_id = ? AND model = ?');
    for (const id of nodeIds) removed += (model === undefined ? del.run(id) : del.run(id, model)).changes;
    if (removed > 0) this.bumpVersion();
    return removed;
  }

  /** Removes every vector of `model`; returns how many. */
  dropModel(model: string): number {
    const removed = this.ctx.stmt('DELETE FROM vectors WHERE model = ?').run(model).changes;
    if (removed > 0) this.bumpVersion();
    return removed;
  }

  /**
   * The models with vectors, by name. Read once per version of the table (a scan of every row):
   * every get_context with a model registered asks.
   */
  models(): VectorModelInfo[] {
    const version = this.version();
    if (this.modelsRead?.version !== version)
      this.modelsRead = {
        version,
        models: this.ctx
          .stmt('SELECT model, MIN(dim) AS dim, COUNT(*) AS count FROM vectors GROUP BY model ORDER BY model')
          .all() as VectorModelInfo[],
      };
    return this.modelsRead.models.map((m) => ({ ...m }));
  }

  private modelsRead: { version: number; models: VectorModelInfo[] } | undefined;

  /** The source digest of every vector of `model`, by node (null: written without one). */
  sources(model: string): Map<string, string | null> {
    const rows = this.ctx.stmt('SELECT node_id, source FROM vectors WHERE model = ?').raw(true).all(model) as [string, string | null][];
    return new Map(rows);
  }

  /** The vector of `nodeId` under `model`, if stored. */
  get(nodeId: string, model: string): Float32Array | undefined {
    const row = this.ctx.stmt('SELECT vector FROM vectors WHERE node_id = ? AND model = ?').get(nodeId, model) as
      { vector: Buffer } | undefined;
    return row ? fromLittleEndian(row.vector) : undefined;
  }

  /**
   * The `k` vectors of `model` most similar to `query` (cosine), best first; ties by node id.
   * Exact up to `EXACT_SCAN_MAX_ROWS` (100,000) vectors or with `exact`; beyond, approximate (the
   * rows nearest by sign code scored exactly). Empty when the model has no vectors;
   * STORE_INVALID_INPUT when `query` has another dimension.
   */
  nearest(model: string, query: Float32Array, k: number, options: { exact?: boolean } = {}): VectorHit[] {
    const m = this.matrix(model);
    if (!m || k <= 0) return [];
    if (query.length !== m.dim) throw invalid(`the query vector has ${query.length} dimensions; ${model}'s vectors have ${m.dim}`);
    let norm = 0;
    for (const x of query) norm += x * x;
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return [];
    const unit = query.map((x) => x / norm);
    return nearestRows(m, unit, k, options.exact).map(([row, score]) => ({ nodeId: m.ids[row]!, score }));
  }

  private dimOf(model: string): number | undefined {
    return (this.ctx.stmt('SELECT dim FROM vectors WHERE model = ? LIMIT 1').get(model) as { dim: number } | undefined)?.dim;
  }

  /** `model`'s vectors as one matrix of unit rows, read again when the table changed. */
  private matrix(model: string): Matrix | undefined {
    const version = this.version();
    const cached = this.matrices.get(model);
    if (cached && cached.version === version) return cached;
    const { count, dim } = this.ctx.stmt('SELECT COUNT(*) AS count, MIN(dim) AS dim FROM vectors WHERE model = ?').get(model) as {
      count: number;
      dim: number | null;
    };
    if (count === 0 || dim === null) {
      this.matrices.delete(model);
      return undefined;
    }
    // Rows in table order: ties are broken by node id when scored, so the order does not show.
    const rows = new Float32Array(count * dim);
    const ids: string[] = [];
    const read = this.ctx.stmt('SELECT node_id, vector FROM vectors WHERE model = ? /* raw */').raw(true);
    for (const [nodeId, blob] of read.iterate(model) as IterableIterator<[string, Buffer]>) {
      if (ids.length === count) break;
      const v = fromLittleEndian(blob);
      let n = 0;
      for (let i = 0; i < dim; i++) n += v[i]! * v[i]!;
      n = Math.sqrt(n) || 1;
      const at = ids.length * dim;
      for (let i = 0; i < dim; i++) rows[at + i] = v[i]! / n;
      ids.push(nodeId);
    }
    const m = { version, ...vectorMatrix(dim, ids, rows) };
    this.matrices.set(model, m);
    return m;
  }

  /** The table's version: moved by every write. */
  version(): number {
    return this.ctx.counter(VECTOR_VERSION);
  }

  private bumpVersion(): void {
    this.ctx.bumpCounter(VECTOR_VERSION);
  }
}

function invalid(message: string): StoreError {
  return new StoreError(StoreErrorCode.InvalidInput, message);
}

const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

/** A vector as the table stores it: little-endian float32. */
function littleEndianBytes(v: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  const b = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) b.writeFloatLE(v[i]!, i * 4);
  return b;
}

function fromLittleEndian(b: Buffer): Float32Array {
  if (LITTLE_ENDIAN) return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
  const v = new Float32Array(b.length / 4);
  for (let i = 0; i < v.length; i++) v[i] = b.readFloatLE(i * 4);
  return v;
}
