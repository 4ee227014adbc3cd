import { createHash } from 'node:crypto';
import type { EmbeddableDefinition, GraphStore, VectorEntry } from '../store/index.js';
import { RANKED_DEFINITION_KINDS } from '../retrieval/definition-ranking.js';
import { RepoFileReader } from '../retrieval/repo-file-reader.js';
import type { ModelClient } from './model-client.js';

/** The definitions that get a vector: those get_context's function stage ranks — callables and the types that hold them. */
export const EMBEDDED_KINDS: readonly string[] = [...RANKED_DEFINITION_KINDS];

/** Lines of a definition's body after its signature that go into its text. */
const BODY_LINES = 40;
/** Characters of one definition's text at most (the model cuts to its max tokens anyway). */
const MAX_TEXT_CHARS = 2_000;
/** Texts per write: an interrupted run keeps what it embedded. */
const WRITE_CHUNK = 256;

/** What {@link embedDefinitions} did. */
export interface EmbedSummary {
  /** The name the vectors are stored under (`id@version+digest`, see RegisteredModel.key). */
  model: string;
  dimensions: number;
  /** Definitions of the graph that get a vector. */
  definitions: number;
  /** Embedded now (new or changed text). */
  embedded: number;
  /** Whose vector is still that of their text. */
  unchanged: number;
  /** Vectors removed: of definitions gone from the graph. */
  removed: number;
  /** Vectors of other models (or versions) removed: the channel uses the registered model's only. */
  otherModels: { model: string; count: number }[];
  /** Files whose definitions were not embedded, with why (changed since indexed, unreadable). */
  skipped: { path: string; reason: string }[];
  durationMs: number;
}

/** Options of {@link embedDefinitions}. */
export interface EmbedOptions {
  signal?: AbortSignal;
  /** Called after each written chunk: definitions embedded so far, of how many to embed. */
  onProgress?(done: number, total: number): void;
  /** Time one `embed` request of the model may take (default 60 s): past it, the model is stopped. */
  requestTimeoutMs?: number;
}

/**
 * Embeds the graph's definitions with the model behind `client` into the store's vectors,
 * incrementally: a definition's text (kind and qualified name, signature with its doc comment,
 * the first lines of its body — see {@link definitionText}) is digested, and only definitions
 * whose digest differs from their stored vector's are embedded; vectors of definitions no longer
 * in the graph are removed. Files changed on disk since they were indexed are skipped (their
 * line ranges are stale): index, then embed.
 */
export async function embedDefinitions(
  store: GraphStore,
  repoRoot: string,
  client: ModelClient,
  options: EmbedOptions = {},
): Promise<EmbedSummary> {
  const started = performance.now();
  const model = client.model.key;
  const summary: EmbedSummary = {
    model,
    dimensions: client.model.info.dimensions ?? 0,
    definitions: 0,
    embedded: 0,
    unchanged: 0,
    removed: 0,
    otherModels: [],
    skipped: [],
    durationMs: 0,
  };
  const defs = store.definitionsToEmbed(EMBEDDED_KINDS);
  const stored = store.vectorSources(model);
  const reader = new RepoFileReader(repoRoot);
  const toEmbed: { nodeId: string; text: string; source: string }[] = [];
  const live = new Set<string>();
  for (const [path, fileDefs] of byPath(defs)) {
    const read = reader.read(path, store.getFile(path)?.sha256);
    if (!read.ok || read.changed) {
      summary.skipped.push({ path, reason: read.ok ? 'changed since it was indexed: run travsr index, then embed' : read.detail });
      // Their vectors stay until the file is indexed and embedded again.
      for (const d of fileDefs) live.add(d.nodeId);
      continue;
    }
    const lines = read.bytes.toString('utf8').split('\n');
    for (const d of fileDefs) {
      live.add(d.nodeId);
      summary.definitions++;
      const text = definitionText(d, lines);
      const source = digest(text);
      if (stored.get(d.nodeId) === source) summary.unchanged++;
      else toEmbed.push({ nodeId: d.nodeId, text, source });
    }
  }
  const gone = [...stored.keys()].filter((id) => !live.has(id));
  if (gone.length > 0) summary.removed = store.removeVectors(gone, model);
  for (const other of store.vectorModels())
    if (other.model !== model) summary.otherModels.push({ model: other.model, count: store.dropVectorModel(other.model) });

  options.onProgress?.(0, toEmbed.length);
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  for (let i = 0; i < toEmbed.length; i += WRITE_CHUNK) {
    if (options.signal?.aborted) break;
    const chunk = toEmbed.slice(i, i + WRITE_CHUNK);
    const vectors = await client.embed(
      chunk.map((c) => c.text),
      { timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
    );
    const entries: VectorEntry[] = chunk.map((c, k) => ({ nodeId: c.nodeId, vector: vectors[k]!, source: c.source }));
    summary.embedded += store.putVectors(model, entries);
    options.onProgress?.(summary.embedded, toEmbed.length);
  }
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}

/**
 * The text a definition is embedded from: its kind and qualified name, its skeleton (signature
 * and doc comment, as the analyzer wrote it) or else its first line, then up to
 * {@link BODY_LINES} further lines of its body, at most {@link MAX_TEXT_CHARS} characters.
 */
export function definitionText(d: EmbeddableDefinition, lines: readonly string[]): string {
  const head = `${d.kind} ${d.qualifiedName ?? d.name}`;
  const first = Math.max(0, d.startLine - 1);
  const last = Math.min(lines.length, d.endLine, d.startLine + BODY_LINES);
  const body = lines.slice(first, last).map((l) => l.trimEnd());
  const text = [head, ...(d.skeleton ? [d.skeleton] : []), ...body].join('\n');
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function byPath(defs: readonly EmbeddableDefinition[]): Map<string, EmbeddableDefinition[]> {
  const out = new Map<string, EmbeddableDefinition[]>();
  for (const d of defs) {
    const list = out.get(d.path);
    if (list) list.push(d);
    else out.set(d.path, [d]);
  }
  return out;
}
