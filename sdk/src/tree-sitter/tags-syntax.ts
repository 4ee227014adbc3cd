import { basename } from 'node:path';
import type { Node, UnresolvedRef } from '../index.js';
import type { FileGraphBuilder } from '../graph-builder.js';
import { LineIndex } from '../positions.js';
import { initTreeSitter, loadGrammar } from './grammar.js';
import { collectTags } from './collect-tags.js';
import { compileQuery, parseErrorDiagnostic, tagsToGraph, type TagsToGraphOptions } from './tags.js';
import { TimedParser } from './timed-parser.js';
import type { Query } from 'web-tree-sitter';

/** Where a {@link TagsSyntax} finds its grammar, runtime and query (dist/ in a built plugin). */
export interface TagsSyntaxResources {
  /** The language id (`ruby`), for messages. */
  language: string;
  /** The grammar `.wasm` (e.g. `tree-sitter-ruby.wasm` of tree-sitter-wasms@0.1.13). */
  grammar: string | URL;
  /** web-tree-sitter's `tree-sitter.wasm`; default: web-tree-sitter's own. */
  treeSitterWasm?: string | URL;
  /** Source of the tags query (`queries/<language>.scm`). */
  query: string;
  /** A parse taking longer than this fails its file. Default 20 000 ms. */
  parseTimeoutMs?: number;
  /** How tags become nodes and refs (kinds, qualifier separator), as {@link tagsToGraph} takes them. */
  graphOptions?: Omit<TagsToGraphOptions, 'text' | 'lines'>;
}

/** A file's Phase A graph as added to a builder: its definitions and its unresolved refs. */
export interface SyntaxGraph {
  definitions: Node[];
  refs: UnresolvedRef[];
  /** The line index of the text, for column conversions. */
  lines: LineIndex;
}

/**
 * A language's structural pass, as a semantic pass builds on it: add a file's Phase A graph
 * to a builder and say what it added (the definitions to map an indexer's symbols onto, the
 * refs it resolves). {@link TagsSyntax} is the tree-sitter one; `ScipAnalyzer` takes any.
 */
export interface PhaseASyntax {
  /** Loads what parsing needs (once). */
  initialize(): Promise<void>;
  /**
   * Adds the Phase A graph of `text` to `graph` (whose path and language say which file it is).
   * @throws Error when the file cannot be parsed at all.
   */
  addTo(graph: FileGraphBuilder, text: string): SyntaxGraph | Promise<SyntaxGraph>;
}

/**
 * One language's structural pass from a tree-sitter grammar and a tags query: definitions
 * (qualified by their enclosing ones), imports, calls and inheritance ({@link tagsToGraph}),
 * a `PARSE_ERRORS` warning where the syntax is broken. One parser, reused for every file and
 * stopped when a parse runs past its time limit.
 *
 * @example
 * ```ts
 * const ruby = new TagsSyntax({ language: 'ruby', grammar: new URL('./tree-sitter-ruby.wasm', import.meta.url), query });
 * await ruby.initialize();
 * const { definitions, refs } = ruby.addTo(ctx.graph, file.text);
 * ```
 */
export class TagsSyntax implements PhaseASyntax {
  private parser: TimedParser | undefined;
  private query: Query | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly resources: TagsSyntaxResources) {}

  /** Loads the runtime, the grammar and the query (once; a failure is retried on the next call). */
  initialize(): Promise<void> {
    if (this.parser) return Promise.resolve();
    this.loading ??= (async () => {
      const r = this.resources;
      await initTreeSitter(r.treeSitterWasm === undefined ? {} : { treeSitterWasm: r.treeSitterWasm });
      const grammar = await loadGrammar(r.grammar);
      this.query = compileQuery(grammar.language, r.query, `${r.language} (${basename(grammar.source)})`);
      this.parser = new TimedParser(
        grammar.language,
        `the ${r.language} grammar (${basename(grammar.source)})`,
        r.parseTimeoutMs ?? 20_000,
      );
    })();
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /**
   * Parses `text` and adds its Phase A graph to `graph` (with a `PARSE_ERRORS` warning when
   * the syntax is broken).
   * @throws Error when the parse takes longer than the time limit, or the grammar fails.
   */
  addTo(graph: FileGraphBuilder, text: string): SyntaxGraph {
    if (!this.parser || !this.query) throw new Error(`TagsSyntax(${this.resources.language}).initialize() was not called`);
    const tree = this.parser.parse(text, graph.path);
    try {
      const lines = new LineIndex(text);
      const out = tagsToGraph(collectTags(this.query, tree), graph, { ...this.resources.graphOptions, text, lines });
      const diagnostic = parseErrorDiagnostic(tree, lines);
      if (diagnostic) graph.diagnostic(diagnostic);
      return { ...out, lines };
    } finally {
      tree.delete();
    }
  }
}

/**
 * The structural passes of a plugin serving several languages (C and C++), picked by the
 * builder's language.
 *
 * @example
 * ```ts
 * const syntax = new SyntaxByLanguage({ c: cSyntax, cpp: cppSyntax });
 * ```
 */
export class SyntaxByLanguage implements PhaseASyntax {
  constructor(private readonly byLanguage: Readonly<Record<string, PhaseASyntax>>) {}

  async initialize(): Promise<void> {
    for (const s of Object.values(this.byLanguage)) await s.initialize();
  }

  addTo(graph: FileGraphBuilder, text: string): SyntaxGraph | Promise<SyntaxGraph> {
    const syntax = this.byLanguage[graph.language];
    if (!syntax)
      throw new Error(
        `no grammar for language ${graph.language} (${graph.path}); this plugin parses ${Object.keys(this.byLanguage).join(', ')}`,
      );
    return syntax.addTo(graph, text);
  }
}
