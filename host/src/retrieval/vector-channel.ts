import { errorCode } from '@travsr/protocol';
import { isVisibleNode, type VisibleGraph } from './visible-graph.js';

/** The question's embedding, made by the registered embedding model before the tool runs. */
export interface QueryVector {
  /** The model's name as vectors are stored under it (`id@version+digest`, RegisteredModel.key). */
  model: string;
  vector: Float32Array;
}

/** What the vector channel found in one graph. */
export interface VectorChannel {
  /**
   * Dense node → similarity in [0, 1], relative: the best hit 1, the floor 0 — the k-th hit's
   * cosine when the channel took k, else 0. Only positive cosines count.
   */
  hits: Map<number, number>;
  /** Dense node → cosine similarity to the question. */
  cosine: Map<number, number>;
  /** Why the channel found nothing here, when it did not run (no vectors, vectors of another model). */
  note?: string;
  ms: number;
}

/**
 * Why a repository holding vectors of `stored` models has none for `model` to compare a question
 * with (none at all, or another model's — never compared), or undefined when it has.
 */
export function missingVectorsNote(model: string, stored: readonly string[]): string | undefined {
  if (stored.includes(model)) return undefined;
  return stored.length === 0
    ? `no vectors in this repository: run \`travsr embed\` to use ${model}`
    : `this repository's vectors were made by ${[...new Set(stored)].join(', ')}, not by the registered ${model}: run \`travsr embed\``;
}

/** Nearest definitions the channel takes (before hiding what the caller may not see). */
export const VECTOR_HITS = 20;

/**
 * The vector channel of get_context: the definitions whose embeddings (`travsr embed`) are
 * nearest the question's (cosine; exact up to 100,000 vectors, sign-code prefiltered beyond).
 * A graph without vectors of the question's model answers with a note instead — vectors of
 * another model are never compared with it.
 */
export function vectorChannel(g: VisibleGraph, q: QueryVector, k = VECTOR_HITS): VectorChannel {
  const t0 = performance.now();
  const out: VectorChannel = { hits: new Map(), cosine: new Map(), ms: 0 };
  const done = (note?: string) => {
    if (note) out.note = note;
    out.ms = performance.now() - t0;
    return out;
  };
  const store = g.cg.store;
  const missing = missingVectorsNote(
    q.model,
    store.vectorModels().map((m) => m.model),
  );
  if (missing) return done(missing);
  let near;
  try {
    near = store.nearestVectors(q.model, q.vector, k);
  } catch (e) {
    if (errorCode(e) === 'STORE_INVALID_INPUT') return done(`the vector channel is off: ${(e as Error).message}; run \`travsr embed\``);
    throw e;
  }
  const ids = store.idsOfNodeIds(near.map((h) => h.nodeId));
  const visible: [number, number][] = [];
  for (const h of near) {
    const id = ids.get(h.nodeId);
    const d = id === undefined ? undefined : g.snap.denseOf(id);
    if (d !== undefined && isVisibleNode(g, d)) visible.push([d, h.score]);
  }
  // Against the k-th nearest when k were taken (the rest of the repository is further still), else against nothing.
  const floor = Math.max(0, near.length === k ? (near[k - 1]?.score ?? 0) : 0);
  const best = visible[0]?.[1] ?? 0;
  for (const [d, score] of visible) {
    if (!(score > floor)) continue;
    out.cosine.set(d, score);
    out.hits.set(d, best > floor ? (score - floor) / (best - floor) : 1);
  }
  return done();
}
