import type { JsonParts, JsonToolResult } from '../tools/tool-runner.js';

/** A tool answer as the daemon sends it: its structured content serialized once, by the worker that made it. */
export type CachedAnswer = JsonToolResult;

/** What {@link QueryCache.stats} reports. */
export interface QueryCacheStats {
  hits: number;
  misses: number;
  entries: number;
  /** Approximate size of the cached answers (their text and structured JSON), bytes. */
  bytes: number;
}

interface Entry {
  answer: CachedAnswer;
  /** The parts the answer holds (a caller that reads only the text was answered without the rest). */
  parts: JsonParts;
  bytes: number;
  /** Root → graph version the answer was computed at. */
  versions: ReadonlyMap<string, number>;
}

/**
 * The daemon's cache of tool answers. A key is made of the tool, its arguments (canonical
 * JSON: key order does not matter), the caller's visibility (corpora and groups) and the
 * graph version of every repository that answers, so an answer is never served across a graph
 * change; {@link dropStale} also frees the entries of older versions as soon as a version
 * moves. Least recently used entries go first past `maxEntries` or `maxBytes`. Error answers
 * are not kept. An answer keeps the parts it was made with: a call that reads more of it than
 * that misses, and its answer (see {@link heldParts}) replaces the entry.
 */
export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;
  private bytes = 0;

  constructor(private readonly limits: { maxEntries: number; maxBytes: number }) {}

  /** The key of a call. */
  static key(call: {
    tool: string;
    args: unknown;
    corpora: readonly string[] | '*';
    groups: readonly string[];
    versions: ReadonlyMap<string, number>;
    /** Other state the answer depends on, by repository (the vectors' version: `travsr embed` changes answers, not the graph). */
    also?: ReadonlyMap<string, number>;
    /** The models the answer was made with (the semantic layer's registered embedder and reranker). */
    models?: string;
  }): string {
    const sorted = (m: ReadonlyMap<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const corpora = call.corpora === '*' ? '*' : [...call.corpora].sort();
    return JSON.stringify([
      call.tool,
      canonical(call.args),
      corpora,
      [...call.groups].sort(),
      sorted(call.versions),
      ...(call.also ? [sorted(call.also)] : []),
      ...(call.models ? [call.models] : []),
    ]);
  }

  /** The cached answer of `key` holding the `parts` asked for, counted as a hit or a miss. */
  get(key: string, parts: JsonParts = 'both'): CachedAnswer | undefined {
    const e = this.entries.get(key);
    if (!e || (e.parts !== 'both' && e.parts !== parts)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.answer;
  }

  /** The parts the answer kept for `key` holds (undefined: none is kept); not counted. */
  heldParts(key: string): JsonParts | undefined {
    return this.entries.get(key)?.parts;
  }

  /** Keeps an answer (not an error) computed at `versions`, holding `parts`. */
  set(key: string, answer: CachedAnswer, versions: ReadonlyMap<string, number>, parts: JsonParts = 'both'): void {
    if (answer.isError) return;
    const bytes = 2 * (answer.text.length + answer.structuredJson.length + key.length);
    if (bytes > this.limits.maxBytes) return;
    this.remove(key);
    this.entries.set(key, { answer, parts, bytes, versions });
    this.bytes += bytes;
    for (const [k] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(k);
    }
  }

  /** Drops every answer computed on a version of `root` other than `version`. */
  dropStale(root: string, version: number): void {
    for (const [k, e] of this.entries) {
      const v = e.versions.get(root);
      if (v !== undefined && v !== version) this.remove(k);
    }
  }

  /** Drops everything (the served repositories changed). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): QueryCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}

/** `value` with every object's keys sorted, so that equal arguments make equal keys. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}
