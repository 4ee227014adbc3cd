import type { ContextItem } from './context-result.js';
import { codeBlockTokens, renderedItemTokens } from './context-render.js';
import { refsOf } from './graph-queries.js';
import { knapsack } from './knapsack.js';
import type { GraphSnapshot } from './graph-snapshot.js';
import type { LexicalEvidence } from './lexical-evidence.js';
import type { NodeRef } from './node-ref.js';
import { inStructuralCore, type StructuralCore } from './node-scoring.js';
import { roundScore } from './score-rounding.js';
import type { Snippet, SourceReader } from './source-snippets.js';
import type { VisibleGraph } from './visible-graph.js';

const SNIPPET_MAX_LINES = 60;
// A class or module is shown by its head (signature, doc, first members): its methods are items of their own.
const CONTAINER_MAX_LINES = 20;
const CONTAINERS = new Set(['class', 'interface', 'module', 'namespace', 'package', 'trait', 'struct', 'enum', 'impl']);
// Definitions offered to the knapsack from the top of the ranking (the Steiner tree's come on top).
const MAX_DEFINITIONS = 120;

/** A {@link ContextItem} with the dense node it shows (dropped from the answer). */
export interface CandidateItem extends ContextItem {
  dense: number;
  /** The tokens of its code block ({@link codeBlockTokens}); undefined when no code is shown. */
  codeTokens: number | undefined;
}

/** What the reasons of an item are read from: the evidence of steps 1–4. */
export interface ItemReasons {
  evidence: LexicalEvidence;
  relevance: ReadonlyMap<number, number>;
  core: StructuralCore;
  /** The nodes of the Steiner tree(s). */
  tree: ReadonlySet<number>;
  /** The function stage's reasons for the definitions the answer leads with. */
  leading?: ReadonlyMap<number, readonly string[]>;
}

/** True when dense node `d` is a definition with source lines to show (not a file, not an external). */
export function isShowable(snap: GraphSnapshot, d: number): boolean {
  return snap.kinds[d] !== 'file' && snap.kinds[d] !== 'external' && snap.startLines[d]! > 0;
}

/**
 * The definitions that may be shown, with their scores: the best 120 ranked nodes that have
 * source lines (not files, not externals), then the scored nodes of the Steiner tree not among them.
 */
export function showableDefinitions(
  g: VisibleGraph,
  top: readonly [number, number][],
  tree: ReadonlySet<number>,
  score: ReadonlyMap<number, number>,
): [number, number][] {
  const showable = (d: number) => isShowable(g.snap, d);
  const definitions = top.filter(([d]) => showable(d)).slice(0, MAX_DEFINITIONS);
  const listed = new Set(definitions.map(([d]) => d));
  for (const d of tree) if (showable(d) && !listed.has(d) && score.has(d)) definitions.push([d, score.get(d)!]);
  return definitions;
}

/**
 * `definitions` and the `leading` ones (the best of the function stage, which the answer lists
 * first) not among them, at their function-stage score.
 */
export function withLeading(definitions: readonly [number, number][], leading: readonly (readonly [number, number])[]): [number, number][] {
  const out = new Map(definitions);
  for (const [d, score] of leading) if (!out.has(d)) out.set(d, score);
  return [...out];
}

/**
 * Step 5 of get_context, first half: each definition as the answer would show it — its
 * reasons, its source (a container by its head; hash-checked, so a changed file is marked
 * stale) or why the source is withheld — and the tokens it costs rendered. Definitions whose
 * node is gone from the store are left out.
 */
export function contextItems(g: VisibleGraph, definitions: readonly [number, number][], reasons: ItemReasons): CandidateItem[] {
  const { cg } = g;
  const refs = refsOf(
    cg,
    definitions.map(([d]) => d),
  );
  const fileSha = cg.fileSha256s();
  const items: CandidateItem[] = [];
  for (const [d, sc] of definitions) {
    const ref = refs.get(d);
    if (!ref) continue;
    const snippet =
      ref.startLine === null ? undefined : definitionSnippet(cg.sources, { ...ref, startLine: ref.startLine }, fileSha.get(ref.path));
    const withheld = snippet || ref.startLine === null ? undefined : cg.sources.refusal(ref.path)?.detail;
    const why = itemReasons(d, ref, reasons);
    const item = {
      dense: d,
      node: ref,
      score: roundScore(sc),
      why: why.length > 0 ? why : ['ranked by graph relevance'],
      snippet: snippet
        ? { startLine: snippet.startLine, endLine: snippet.endLine, text: snippet.text, truncated: snippet.truncated, stale: snippet.stale }
        : null,
      ...(withheld === undefined ? {} : { withheld }),
      tokens: 0,
      codeTokens: snippet ? codeBlockTokens(snippet) : undefined,
    };
    item.tokens = renderedItemTokens(item, item.codeTokens);
    items.push(item);
  }
  return items;
}

/**
 * The source get_context shows for a definition: its lines, a container (class, module…) cut to
 * its head, a long body to its first and last lines ({@link SourceReader.snippet}).
 */
export function definitionSnippet(
  sources: SourceReader,
  def: { path: string; kind: string; startLine: number; endLine: number | null },
  indexedSha256: string | undefined,
): Snippet | undefined {
  return sources.snippet(def.path, def.startLine, def.endLine ?? def.startLine, {
    maxLines: CONTAINERS.has(def.kind) ? CONTAINER_MAX_LINES : SNIPPET_MAX_LINES,
    indexedSha256,
  });
}

/** Why node `d` is shown, in words: its lexical evidence, then its graph, file and structural relations. */
export function itemReasons(d: number, ref: NodeRef, r: ItemReasons): string[] {
  const lexical = r.evidence.nodes.get(d);
  const why = [...(r.leading?.get(d) ?? [])];
  for (const w of lexical?.why ?? []) if (!why.includes(w)) why.push(w);
  if (r.relevance.has(d) && !lexical) why.push('connected to the matches in the graph');
  if (r.tree.has(d) && !lexical) why.push('links other results (Steiner tree)');
  if ((r.evidence.fileText.get(ref.path) ?? 0) > 0.5) why.push('its file matches the query text');
  if (r.evidence.namedFiles.has(ref.path)) why.push('its file is named in the query');
  if (inStructuralCore(r.core, d)) why.push(`structural core (k-shell ${r.core.shells[d]})`);
  return why;
}

/**
 * Step 5 of get_context, second half: the `leading` definitions first (the ones the answer
 * lists first, in that order), each while it fits in half of `capacity`; then 0-1 knapsack
 * picks the rest (value = score, weight = rendered tokens) within what is left, a hard limit.
 * An item nested in another chosen one is dropped. Best first, ties by dense index.
 */
export function chooseItems(
  items: readonly CandidateItem[],
  capacity: number,
  leading: readonly number[] = [],
): { chosen: CandidateItem[]; exact: boolean } {
  const first: CandidateItem[] = [];
  let used = 0;
  for (const d of leading) {
    const it = items.find((x) => x.dense === d);
    if (it && used + it.tokens <= capacity / 2) {
      first.push(it);
      used += it.tokens;
    }
  }
  const rest = items.filter((it) => !first.includes(it));
  const pick = knapsack(
    rest.map((it) => ({ value: it.score, weight: it.tokens })),
    capacity - used,
  );
  const chosen = dropNested([...first, ...pick.chosen.map((i) => rest[i]!)]).sort((a, b) => b.score - a.score || a.dense - b.dense);
  return { chosen, exact: pick.exact };
}

/** A nested chosen item (a method inside a chosen class snippet) repeats code: keep the outer one only when it was not truncated. */
function dropNested<T extends { node: NodeRef; snippet: ContextItem['snippet'] }>(items: T[]): T[] {
  return items.filter(
    (it) =>
      !items.some(
        (o) =>
          o !== it &&
          o.snippet &&
          it.snippet &&
          !o.snippet.truncated &&
          o.node.path === it.node.path &&
          o.snippet.startLine <= it.snippet.startLine &&
          it.snippet.endLine <= o.snippet.endLine &&
          (o.snippet.startLine < it.snippet.startLine || it.snippet.endLine < o.snippet.endLine),
      ),
  );
}

/** The `more` of the answer: the next 30 ranked nodes not chosen (files left out), without snippets. */
export function moreNodes(
  g: VisibleGraph,
  ranked: readonly [number, number][],
  chosen: readonly CandidateItem[],
): { node: NodeRef; score: number }[] {
  const chosenSet = new Set(chosen.map((c) => c.dense));
  const more = ranked.filter(([d]) => !chosenSet.has(d) && g.snap.kinds[d] !== 'file').slice(0, 30);
  const refs = refsOf(
    g.cg,
    more.map(([d]) => d),
  );
  return more.flatMap(([d, score]) => {
    const node = refs.get(d);
    return node ? [{ node, score: roundScore(score) }] : [];
  });
}
