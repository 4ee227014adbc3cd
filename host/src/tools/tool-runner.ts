import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { TravsrError } from '@travsr/protocol';
import type { Logger } from '../log/logger.js';
import { GraphStore, type NodeRow } from '../store/index.js';
import { mayRead, mayReadCorpus, type AccessPolicy } from '../retrieval/access-policy.js';
import type { CodeGraph } from '../retrieval/code-graph.js';
import {
  getContext,
  renderContext,
  type ContextResult,
  type QueryVector,
  type RerankScores,
  type SemanticReport,
} from '../retrieval/context-assembly.js';
import { renderedContextTokens } from '../retrieval/context-render.js';
import { blastRadius, callers, dependencies, executionPath, type NeighbourhoodResult } from '../retrieval/graph-queries.js';
import { knapsack } from '../retrieval/knapsack.js';
import { lastLine, location, nodeRef, type NodeRef } from '../retrieval/node-ref.js';
import { lookupSymbol } from '../retrieval/symbol-lookup.js';
import { countTokens } from '../retrieval/token-count.js';
import { TraceRecorder, type Trace } from '../traces/trace.js';
import { TOOL_DEFINITIONS, type ToolArgs, type ToolName } from './tool-definitions.js';

/** What a tool call returns: text an agent reads, the same as data, and its trace. */
export interface ToolResult {
  text: string;
  structured: Record<string, unknown>;
  traceId: string;
  isError: boolean;
}

/**
 * A {@link ToolResult} with its structured content as JSON text: what a server that sends the
 * answer on (the daemon) needs, made where the answer was made, so only strings cross threads.
 */
export interface JsonToolResult {
  text: string;
  structuredJson: string;
  traceId: string;
  isError: boolean;
}

/**
 * The parts of a {@link JsonToolResult} a caller reads: `both` (an MCP client), or only the
 * `text` (`travsr ask`) or the `structured` content (`--json`). A part not read is left empty
 * and not serialized; an error's text always comes.
 */
export type JsonParts = 'both' | 'text' | 'structured';

/** `r` as a {@link JsonToolResult} with the `parts` asked for. */
export function jsonToolResult(r: ToolResult, parts: JsonParts = 'both'): JsonToolResult {
  return {
    text: parts === 'structured' && !r.isError ? '' : r.text,
    structuredJson: parts === 'text' ? '' : JSON.stringify(r.structured),
    traceId: r.traceId,
    isError: r.isError,
  };
}

/** A tool call that failed on its input: named code, what was wrong, what to do. */
export class ToolError extends TravsrError {
  override readonly name = 'ToolError';
  constructor(
    readonly code: 'INVALID_ARGUMENTS' | 'UNKNOWN_TOOL' | 'UNKNOWN_CORPUS' | 'TOOL_TIMEOUT' | 'TOOL_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/** What a tool made: its text, the same as data, and the text's tokens when the tool counted them. */
interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
  tokens?: number;
}

/**
 * What the caller prepared for a tool call outside the worker (an async step the synchronous
 * tools cannot take): the question embedded by the registered model for get_context's vector
 * channel, or why it could not be.
 */
export interface ToolCallExtras {
  queryVector?: QueryVector;
  /** The reranker's scores of the first answer's best definitions (by node id): the answer orders them so. */
  rerank?: RerankScores;
  /** Said in the answer when the channel could not run (no vectors yet, the model failed): the answer is the lexical and graph one. */
  semantic?: SemanticReport;
  /** The answer is worse than usual for a passing reason (a model failed or is left off): a cache must not keep it. */
  transient?: boolean;
}

/** Where tool calls go: the graphs served, and where traces are kept. */
export interface ToolHost {
  graphs: readonly CodeGraph[];
  /** Saves a tool-call trace (errors are the sink's business). */
  saveTrace(trace: Trace): void;
  logger?: Logger;
}

// The tools' schemas are ours and checked against the meta-schema by the tests
// (tool-definitions.test.ts), so a process does not compile the meta-schema, and compiles a
// tool's schema the first time the tool is called: a CLI call runs one tool.
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, validateSchema: false });
const validators = new Map<string, ValidateFunction>();

/** The argument validator of tool `name`, compiled on first use; undefined for no such tool. */
function validatorOf(name: string): ValidateFunction | undefined {
  let v = validators.get(name);
  if (!v && Object.hasOwn(TOOL_DEFINITIONS, name)) validators.set(name, (v = ajv.compile(TOOL_DEFINITIONS[name as ToolName].inputSchema)));
  return v;
}

/**
 * Runs tool `name` with `args` as `policy` allows: validates the arguments against the
 * tool's JSON Schema (clear errors naming the argument), runs it over every served graph the
 * caller may read, records a `tool-call` trace and names it in the result. Argument errors
 * come back as an error result (isError), never as a thrown exception.
 */
export function runTool(host: ToolHost, name: string, args: unknown, policy: AccessPolicy, extras: ToolCallExtras = {}): ToolResult {
  const recorder = new TraceRecorder('tool-call', name);
  recorder.trace.details.arguments = redact(args);
  try {
    const validate = validatorOf(name);
    if (!validate)
      throw new ToolError(
        'UNKNOWN_TOOL',
        `there is no tool ${name}; list the tools to see the ${Object.keys(TOOL_DEFINITIONS).length} there are`,
      );
    const a = args ?? {};
    if (!validate(a)) throw new ToolError('INVALID_ARGUMENTS', `bad arguments for ${name}: ${describeErrors(validate.errors ?? [])}`);
    // One snapshot per graph for the whole call, however the graphs move meanwhile.
    const out = host.graphs.reduceRight<() => ReturnType<typeof dispatch>>(
      (inner, g) => () => g.pinned(inner),
      () => dispatch(host, name as ToolName, a as never, policy, extras),
    )();
    recorder.count('resultTokens', out.tokens ?? countTokens(out.text));
    const trace = recorder.finish();
    host.saveTrace(trace);
    return {
      text: `${out.text}\n(trace ${trace.id})`,
      structured: { ...out.structured, trace_id: trace.id },
      traceId: trace.id,
      isError: false,
    };
  } catch (e) {
    const code = e instanceof ToolError ? e.code : 'TOOL_FAILED';
    const message = e instanceof ToolError ? e.message : `${name} failed: ${(e as Error).message}`;
    const trace = recorder.finish({ code, message });
    host.saveTrace(trace);
    if (!(e instanceof ToolError)) host.logger?.log('error', `${message}\n${(e as Error).stack ?? ''}`);
    return {
      text: `Error [${code}]: ${message}\n(trace ${trace.id})`,
      structured: { error: { code, message }, trace_id: trace.id },
      traceId: trace.id,
      isError: true,
    };
  }
}

function dispatch<N extends ToolName>(
  host: ToolHost,
  name: N,
  args: ToolArgs[N],
  policy: AccessPolicy,
  extras: ToolCallExtras,
): ToolOutput {
  const graphs = readableGraphs(host, policy, args.corpus);
  switch (name) {
    case 'get_context':
      return contextTool(graphs, args as ToolArgs['get_context'], policy, extras);
    case 'get_callers':
    case 'get_dependencies':
    case 'get_blast_radius': {
      const a = args as ToolArgs['get_callers'];
      const fn = name === 'get_callers' ? callers : name === 'get_dependencies' ? dependencies : blastRadius;
      const opts = {
        policy,
        ...(a.depth ? { depth: a.depth } : {}),
        ...(a.limit ? { limit: a.limit } : {}),
        resolvedOnly: a.resolved_only === true,
      };
      const results = graphs.map((g) => fn(g, a.symbol, opts)).filter((r) => r.roots.length > 0);
      return neighbourhoodText(name, a.symbol, results, graphs);
    }
    case 'get_execution_path': {
      const a = args as ToolArgs['get_execution_path'];
      for (const g of graphs) {
        const r = executionPath(g, a.from, a.to, { policy, resolvedOnly: a.resolved_only === true });
        if (r.path) {
          const lines = r.path.map(
            (h, i) =>
              `${i === 0 ? `${describe(h.from)}\n` : ''}  ${h.reversed ? `← ${h.kind} (reverse)` : `→ ${h.kind}`}${h.certainty === 'name-matched' ? ' [name-matched]' : ''} ${describe(h.to)}`,
          );
          return {
            text: `Path from ${a.from} to ${a.to} (${r.path.length} hops, via ${r.via}):\n${lines.join('\n')}\n\nGraph: ${r.completeness.summary}`,
            structured: { ...r },
          };
        }
      }
      const first = graphs[0] && executionPath(graphs[0], a.from, a.to, { policy });
      const missing = first && (!first.from ? a.from : !first.to ? a.to : undefined);
      return {
        text: missing
          ? `No symbol matches ${JSON.stringify(missing)}; try search_symbols.`
          : `No path from ${a.from} to ${a.to} within 12 hops. Graph: ${first?.completeness.summary ?? 'no graph'}`,
        structured: { from: first?.from ?? null, to: first?.to ?? null, path: null, completeness: first?.completeness ?? null },
      };
    }
    case 'get_index_status':
      return statusTool(graphs);
    case 'search_symbols': {
      const a = args as ToolArgs['search_symbols'];
      const hits = graphs
        .flatMap((g) =>
          g.store
            .searchSymbols(a.query, { limit: (a.limit ?? 20) * 2, ...(a.kinds ? { kinds: a.kinds as never } : {}) })
            .filter((h) => mayRead(policy, h.node.vname.corpus, h.node.acl)),
        )
        .sort((x, y) => y.score - x.score)
        .slice(0, a.limit ?? 20);
      return {
        text:
          hits.length === 0 ? `No symbol matches ${JSON.stringify(a.query)}.` : hits.map((h) => `${describe(nodeRef(h.node))}`).join('\n'),
        structured: { query: a.query, results: hits.map((h) => ({ ...nodeRef(h.node), score: round(h.score) })) },
      };
    }
    case 'get_definition': {
      const a = args as ToolArgs['get_definition'];
      for (const g of graphs) {
        const found = lookupSymbol(g.store, a.symbol, policy, 10);
        const row = found.matches[0];
        if (!row) continue;
        const ref = nodeRef(row);
        const end = ref.endLine ?? ref.startLine ?? 1;
        const snippet =
          ref.startLine === null
            ? undefined
            : g.sources.snippet(ref.path, ref.startLine, end, { maxLines: 200, indexedSha256: g.fileSha256s().get(ref.path) });
        // No source: say why (a link, a FIFO, …) instead of failing; the stored skeleton still answers.
        const withheld = ref.startLine !== null && !snippet ? g.sources.refusal(ref.path) : undefined;
        const others = found.matches.slice(1).map(nodeRef);
        return {
          text: [
            `${describe(ref)}`,
            row.skeleton ? `\n${row.skeleton}` : '',
            snippet?.stale ? '\n(the file changed since it was indexed; lines may be off)' : '',
            snippet ? `\n\`\`\`\n${snippet.text}\n\`\`\`` : '',
            withheld ? `\n(source not shown: ${withheld.detail})` : '',
            others.length ? `\nAlso named so:\n${others.map((o) => `  ${describe(o)}`).join('\n')}` : '',
          ].join(''),
          structured: {
            definition: ref,
            skeleton: row.skeleton,
            source: snippet?.text ?? null,
            stale: snippet?.stale ?? false,
            ...(withheld ? { source_withheld: withheld } : {}),
            alternatives: others,
          },
        };
      }
      return { text: `No symbol matches ${JSON.stringify(a.symbol)}; try search_symbols.`, structured: { definition: null } };
    }
    case 'get_file_outline': {
      const a = args as ToolArgs['get_file_outline'];
      const path = a.path.replace(/^\.\//, '');
      for (const g of graphs) {
        const readable = g.store.fileNodes(path).filter((n) => mayRead(policy, n.vname.corpus, n.acl));
        const rows = readable.filter((n) => n.kind !== 'external' && n.kind !== 'file');
        const file = g.store.getFile(path);
        if (rows.length === 0 && !(file && readable.length > 0)) continue;
        const outline = nest(rows);
        return {
          text: `${path} (${file?.language ?? 'unknown language'}, ${file?.lines ?? '?'} lines)\n${outline.map((o) => `${'  '.repeat(o.level)}${o.ref.kind} ${o.ref.name} ${o.ref.startLine ?? '?'}-${o.ref.endLine ?? '?'}${o.row.skeleton ? `  ${firstLine(o.row.skeleton)}` : ''}`).join('\n')}`,
          structured: {
            path,
            language: file?.language ?? null,
            definitions: outline.map((o) => ({ ...o.ref, level: o.level, signature: o.row.skeleton ? firstLine(o.row.skeleton) : null })),
          },
        };
      }
      return {
        text: `${path} is not in the index (or not visible to you); check the path with search_symbols or get_index_status.`,
        structured: { path, definitions: null },
      };
    }
  }
  throw new ToolError('UNKNOWN_TOOL', `there is no tool ${String(name)}`);
}

function readableGraphs(host: ToolHost, policy: AccessPolicy, corpus: string | undefined): CodeGraph[] {
  const graphs = host.graphs.filter((g) => mayReadCorpus(policy, g.corpus));
  if (corpus === undefined) return graphs;
  const one = graphs.filter((g) => g.corpus === corpus);
  // The same answer for a corpus that does not exist and one the caller may not read.
  if (one.length === 0)
    throw new ToolError('UNKNOWN_CORPUS', `no corpus ${JSON.stringify(corpus)} is available to you; call get_index_status to list yours`);
  return one;
}

function contextTool(graphs: CodeGraph[], a: ToolArgs['get_context'], policy: AccessPolicy, extras: ToolCallExtras): ToolOutput {
  const budget = a.token_budget ?? 8000;
  const results = graphs.map((g) =>
    getContext(g, a.query, {
      policy,
      budget,
      ...(extras.queryVector ? { queryVector: extras.queryVector } : {}),
      ...(extras.rerank ? { rerank: extras.rerank } : {}),
      ...(extras.semantic ? { semantic: extras.semantic } : {}),
    }),
  );
  const merged = results.length === 1 ? results[0]! : mergeContexts(results, budget);
  return { text: renderContext(merged), structured: contextStructured(merged), tokens: merged.tokens };
}

/** The longest query a context answer repeats in full; a longer one is cut there (its length is given). */
const QUERY_ECHO_CHARS = 2000;

/** The structured form of a context answer (also what `travsr ask --json` prints). */
export function contextStructured(r: ContextResult): Record<string, unknown> {
  return {
    // A whole issue with its log is not echoed back: the caller has it, and the answer's tokens are the agent's.
    query: r.query.length > QUERY_ECHO_CHARS ? `${r.query.slice(0, QUERY_ECHO_CHARS)}…` : r.query,
    query_chars: r.query.length,
    budget: r.budget,
    tokens: r.tokens,
    tokenizer: r.tokenizer,
    files: r.files,
    functions: r.functions.map((f) => ({
      id: f.node.id,
      kind: f.node.kind,
      path: f.node.path,
      qualified_name: f.node.qualifiedName ?? f.node.name,
      corpus: f.node.corpus,
      start_line: f.node.startLine,
      end_line: f.node.endLine,
      score: f.score,
      ...(f.rerankScore !== undefined ? { rerank_score: f.rerankScore } : {}),
      why: f.why,
    })),
    nodes: [...r.items.map((it) => ({ ...it.node, score: it.score })), ...r.more.map((m) => ({ ...m.node, score: m.score }))]
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .map((n) => ({
        id: n.id,
        kind: n.kind,
        name: n.name,
        qualified_name: n.qualifiedName,
        corpus: n.corpus,
        path: n.path,
        start_line: n.startLine,
        end_line: n.endLine,
        score: n.score,
      })),
    items: r.items.map((it) => ({
      id: it.node.id,
      path: it.node.path,
      start_line: it.snippet?.startLine ?? it.node.startLine,
      end_line: it.snippet?.endLine ?? it.node.endLine,
      why: it.why,
      tokens: it.tokens,
      truncated: it.snippet?.truncated ?? false,
      stale: it.snippet?.stale ?? false,
    })),
    completeness: r.completeness,
    ...(r.semantic ? { semantic: r.semantic } : {}),
    stats: r.stats,
  };
}

/** Federated answer: every corpus's items compete for one budget. */
function mergeContexts(results: ContextResult[], budget: number): ContextResult {
  const items = results.flatMap((r) => r.items).sort((x, y) => y.score - x.score);
  // Reranked definitions first, in the reranker's order (its scores are comparable across graphs); the rest by score.
  const functions = results
    .flatMap((r) => r.functions)
    .sort((x, y) => (y.rerankScore ?? -Infinity) - (x.rerankScore ?? -Infinity) || y.score - x.score)
    .slice(0, Math.max(...results.map((r) => r.functions.length)));
  const semantic = mergedSemantic(results);
  const header = countTokens(
    renderContext({
      query: results[0]!.query,
      budget,
      items: [],
      completeness: results[0]!.completeness,
      functions,
      ...(semantic ? { semantic } : {}),
    }),
  );
  const pick = knapsack(
    items.map((it) => ({ value: it.score, weight: it.tokens })),
    Math.max(0, budget - header),
  );
  const merged: ContextResult = {
    ...results[0]!,
    items: pick.chosen.map((i) => items[i]!).sort((x, y) => y.score - x.score),
    files: results.flatMap((r) => r.files).sort((x, y) => y.score - x.score),
    functions,
    more: results
      .flatMap((r) => r.more)
      .sort((x, y) => y.score - x.score)
      .slice(0, 30),
    completeness: {
      ...results[0]!.completeness,
      summary: results.map((r) => r.completeness.summary).join(' | '),
    },
  };
  if (semantic) merged.semantic = semantic;
  else delete merged.semantic;
  merged.tokens = renderedContextTokens(merged);
  return merged;
}

/** The semantic layer's report over several graphs: hits added up; a note only when no graph had hits. */
function mergedSemantic(results: readonly ContextResult[]): SemanticReport | undefined {
  const vectors = results.flatMap((r) => (r.semantic?.vector ? [r.semantic.vector] : []));
  if (vectors.length === 0) return results[0]!.semantic;
  const hits = vectors.reduce((n, v) => n + v.hits, 0);
  const ms = vectors.reduce((n, v) => n + v.ms, 0);
  const note = hits === 0 ? vectors.find((v) => v.note)?.note : undefined;
  return { ...results[0]!.semantic, vector: { model: vectors[0]!.model, hits, ms, ...(note ? { note } : {}) } };
}

function neighbourhoodText(
  name: string,
  symbol: string,
  results: NeighbourhoodResult[],
  graphs: CodeGraph[],
): { text: string; structured: Record<string, unknown> } {
  if (results.length === 0) {
    const completeness = graphs[0]?.completeness();
    return {
      text: `No symbol matches ${JSON.stringify(symbol)}; try search_symbols.`,
      structured: { roots: [], nodes: [], files: [], completeness: completeness ?? null },
    };
  }
  const r = results[0]!;
  const verb = name === 'get_callers' ? 'Callers of' : name === 'get_dependencies' ? 'Dependencies of' : 'Blast radius of';
  const nodes = results.flatMap((x) => x.nodes);
  const lines = [
    `${verb} ${r.roots.length === 1 ? describe(r.roots[0]!) : `${r.roots.length} definitions in ${r.roots[0]!.path}`}:`,
    ...(nodes.length === 0
      ? ['  (none found)']
      : nodes.map(
          (n) =>
            `  ${'  '.repeat(n.depth - 1)}${n.via ? `${n.via.kind}${n.via.certainty === 'name-matched' ? ' [name-matched]' : ''} ` : ''}${describe(n)}`,
        )),
  ];
  if (name === 'get_blast_radius' && nodes.length > 0)
    lines.push('', 'Files affected:', ...results.flatMap((x) => x.files).map((f) => `  ${f.path} (${f.nodes})`));
  if (r.alternatives.length > 0)
    lines.push(
      '',
      `Other symbols named ${symbol} (pass a node id or path:line to choose):`,
      ...r.alternatives.map((a) => `  ${describe(a)}`),
    );
  if (r.truncated) lines.push('', 'The answer was cut at the limit; raise limit or lower depth.');
  lines.push('', `Graph: ${r.completeness.summary}`);
  return {
    text: lines.join('\n'),
    structured: {
      roots: r.roots,
      alternatives: r.alternatives,
      nodes,
      files: results.flatMap((x) => x.files),
      truncated: r.truncated,
      completeness: r.completeness,
    },
  };
}

function statusTool(graphs: CodeGraph[]): { text: string; structured: Record<string, unknown> } {
  const corpora = graphs.map((g) => {
    const c = g.completeness();
    return {
      corpus: g.corpus,
      schemaVersion: g.store.schemaVersion(),
      latestSchemaVersion: GraphStore.LATEST_SCHEMA_VERSION,
      counts: g.store.counts(),
      lastIndexedCommit: g.store.getMeta('last_indexed_commit') ?? null,
      lastIndexedAt: g.store.getMeta('last_indexed_at') ?? null,
      completeness: c,
    };
  });
  const text = corpora
    .map(
      (c) =>
        `${c.corpus}: schema v${c.schemaVersion}, ${c.counts.files} files, ${c.counts.nodes} nodes, ${c.counts.edges} edges; last indexed ${c.lastIndexedAt ?? 'never'}${c.lastIndexedCommit ? ` at ${c.lastIndexedCommit.slice(0, 12)}` : ''}\n` +
        c.completeness.languages
          .map((l) => `  ${l.language}: ${l.files} files, phase ${l.phase}, ${l.failed} failed, ${l.parseErrors} with parse errors`)
          .join('\n') +
        `\n  ${c.completeness.summary}`,
    )
    .join('\n');
  return { text: text || 'No corpus is available to you.', structured: { corpora } };
}

function nest(rows: NodeRow[]): { ref: NodeRef; row: NodeRow; level: number }[] {
  const sorted = [...rows].sort((a, b) => (a.startLine ?? 0) - (b.startLine ?? 0) || (lastLine(b) ?? 0) - (lastLine(a) ?? 0));
  const stack: NodeRow[] = [];
  return sorted.map((row) => {
    while (
      stack.length > 0 &&
      !(
        (stack[stack.length - 1]!.startLine ?? 0) <= (row.startLine ?? 0) &&
        (lastLine(row) ?? 0) <= (lastLine(stack[stack.length - 1]!) ?? 0)
      )
    )
      stack.pop();
    const level = stack.length;
    stack.push(row);
    return { ref: nodeRef(row), row, level };
  });
}

function describe(n: NodeRef): string {
  return `${n.kind} ${n.qualifiedName ?? n.name}  ${location(n)}  [${n.id.slice(0, 12)}]`;
}

/** The signature line of a skeleton (skipping a leading doc comment or docstring). */
function firstLine(s: string): string {
  const lines = s.split('\n').map((l) => l.trim());
  const code = lines.find((l) => l.length > 0 && !/^(\/\*\*?|\*|\/\/|#|"""|''')/.test(l));
  return (code ?? lines[0] ?? '').slice(0, 200);
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const at = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : 'arguments';
      if (e.keyword === 'additionalProperties')
        return `unknown argument ${String((e.params as { additionalProperty: string }).additionalProperty)}`;
      if (e.keyword === 'required') return `missing required argument ${String((e.params as { missingProperty: string }).missingProperty)}`;
      if (e.keyword === 'maxLength') {
        const limit = (e.params as { limit: number }).limit;
        return `${at} is longer than the ${limit.toLocaleString('en-US')} characters it may have; send the part that matters (for an issue: its text and the stack trace, not every log line)`;
      }
      return `${at} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

function redact(args: unknown): unknown {
  const s = JSON.stringify(args ?? {});
  return s.length > 2000 ? `${s.slice(0, 2000)}…` : JSON.parse(s);
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
