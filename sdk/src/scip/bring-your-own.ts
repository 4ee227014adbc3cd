import { basename } from 'node:path';
import type { AnalyzeFile } from '@travsr/protocol';
import type { FileResult, ProgramContext, SessionCapabilities, SessionInfo, SourceFile } from '../definition.js';
import type { FileGraphBuilder } from '../graph-builder.js';
import { LineIndex } from '../positions.js';
import type { PhaseASyntax, SyntaxGraph } from '../tree-sitter/tags-syntax.js';
import { ScipAnalyzer, type ScipIndexer } from './scip-analyzer.js';

/**
 * One indexer the user brought for a language (`[lang.<language>.scip] command = "…"` in the
 * host's configuration), as the host passes it in `initialize.options.scip`: the program is
 * `options.tools[name]` (the host found it on PATH and bound it into the sandbox, or left it out).
 */
export interface BroughtScipIndexer {
  /** The language it indexes (`typescript`). */
  readonly language: string;
  /** The program's name (`scip-typescript`): its key in `initialize.options.tools`. */
  readonly name: string;
  /** Its arguments, with `{output}` (where it writes the index), `{root}` and `{project}` (the repository root) to fill in. */
  readonly args: readonly string[];
}

/** Indexers known to write UTF-16 offsets without saying so (SCIP's position_encoding unspecified). */
const UTF16_WHEN_UNSPECIFIED = new Set(['scip-typescript', 'scip-python']);

/**
 * The indexers of `initialize.options.scip` (empty when there are none); malformed entries are
 * left out.
 */
export function broughtScipIndexers(options: Record<string, unknown>): BroughtScipIndexer[] {
  const raw = options['scip'];
  if (!Array.isArray(raw)) return [];
  const out: BroughtScipIndexer[] = [];
  for (const e of raw as unknown[]) {
    if (e === null || typeof e !== 'object') continue;
    const { language, name, args } = e as Record<string, unknown>;
    if (typeof language !== 'string' || typeof name !== 'string' || !Array.isArray(args) || !args.every((a) => typeof a === 'string'))
      continue;
    out.push({ language, name, args: args });
  }
  return out;
}

/**
 * The {@link ScipIndexer} of a brought indexer: run once per session at the repository root,
 * with its arguments filled in and the plugin's sandbox around it.
 */
export function broughtIndexer(entry: BroughtScipIndexer): ScipIndexer {
  const name = basename(entry.name);
  return {
    name,
    languageName: entry.language,
    tools: [entry.name],
    installHint: `it is the command of [lang.${entry.language}.scip] in your configuration: put ${entry.name} on the PATH of the process running Travsr, or fix the command`,
    invocation: ({ output, root }) => ({
      args: entry.args.map((a) => a.replaceAll('{output}', output).replaceAll('{root}', root).replaceAll('{project}', root)),
    }),
    ...(UTF16_WHEN_UNSPECIFIED.has(name) ? { graph: { unspecifiedEncoding: 'utf16' as const } } : {}),
    notIndexed: `${name} did not index this file: its refs are matched by name`,
  };
}

/** How a plugin's Phase A of one file is added to a builder (its `analyzeFile`, or its whole-program hook on that file). */
export type PhaseAOfFile = (source: SourceFile, graph: FileGraphBuilder) => Promise<void>;

/** A plugin's own Phase A as the structural pass a brought indexer's edges are merged into. */
export class PluginPhaseA implements PhaseASyntax {
  constructor(private readonly phaseA: PhaseAOfFile) {}

  initialize(): Promise<void> {
    return Promise.resolve();
  }

  async addTo(graph: FileGraphBuilder, text: string): Promise<SyntaxGraph> {
    await this.phaseA({ path: graph.path, language: graph.language, absolutePath: graph.path, bytes: Buffer.from(text), text }, graph);
    const analysis = graph.build();
    return {
      definitions: analysis.nodes.filter((n) => n.vname.signature !== '' && n.range !== undefined),
      refs: analysis.refs ?? [],
      lines: new LineIndex(text),
    };
  }
}

/**
 * The Phase B of the indexers a user brought, for the SDK harness: each language's files get
 * their Phase A graph (the plugin's own, {@link PhaseAOfFile}) with the indexer's resolutions merged in;
 * files of other languages go to the plugin's own Phase B (`fallback`), or keep their Phase A
 * graph when it has none.
 */
export class BroughtScipPhaseB {
  private readonly byLanguage = new Map<string, ScipAnalyzer>();

  constructor(
    entries: readonly BroughtScipIndexer[],
    private readonly phaseA: PhaseAOfFile,
  ) {
    const syntax = new PluginPhaseA(phaseA);
    for (const e of entries) {
      if (this.byLanguage.has(e.language)) continue;
      this.byLanguage.set(e.language, new ScipAnalyzer(syntax, broughtIndexer(e), { languageOf: () => e.language }));
    }
  }

  /** The languages it serves. */
  get languages(): string[] {
    return [...this.byLanguage.keys()];
  }

  /** Checks each indexer's program; the reasons of those that cannot run. */
  async initialize(session: Pick<SessionInfo, 'options'>): Promise<string[]> {
    const reasons: string[] = [];
    for (const [language, analyzer] of this.byLanguage) {
      const caps: SessionCapabilities = await analyzer.initialize(session);
      const reason = caps.unavailable?.find((u) => u.phase === 'B')?.reason;
      if (reason !== undefined) {
        reasons.push(reason);
        this.byLanguage.delete(language);
      }
    }
    return reasons;
  }

  /** True when an indexer of a language can run. */
  get active(): boolean {
    return this.byLanguage.size > 0;
  }

  /** Phase B of `files`: the brought indexers' languages through them, the rest through `fallback`. */
  async *analyze(
    files: readonly AnalyzeFile[],
    ctx: ProgramContext,
    fallback: ((files: readonly AnalyzeFile[], ctx: ProgramContext) => AsyncIterable<FileResult> | Iterable<FileResult>) | undefined,
  ): AsyncIterable<FileResult> {
    const groups = new Map<string, AnalyzeFile[]>();
    const rest: AnalyzeFile[] = [];
    for (const f of files) {
      if (this.byLanguage.has(f.language)) groups.set(f.language, [...(groups.get(f.language) ?? []), f]);
      else rest.push(f);
    }
    for (const [language, group] of groups) yield* this.byLanguage.get(language)!.analyze(group, ctx);
    if (rest.length === 0) return;
    if (fallback) {
      yield* fallback(rest, ctx);
      return;
    }
    for (const f of rest) {
      if (ctx.signal.aborted) return;
      try {
        const source = await ctx.readFile(f);
        const graph = ctx.graphFor(f);
        await this.phaseA(source, graph);
        yield { path: f.path, ...graph.build() };
      } catch (e) {
        yield {
          path: f.path,
          status: 'failed',
          nodes: [],
          edges: [],
          diagnostics: [{ severity: 'error', code: 'ANALYSIS_FAILED', message: (e as Error).message }],
        };
      }
    }
  }
}
