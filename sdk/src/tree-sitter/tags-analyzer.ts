import type { EdgeKind, NodeKind } from '@travsr/protocol';
import type { FileAnalysis, FileContext, SessionInfo, SourceFile } from '../definition.js';
import { loadGrammar, type Grammar, type TreeSitterOptions } from './grammar.js';
import { LineIndex } from '../positions.js';
import { compileQuery, parseErrorDiagnostic, runTagsQuery, tagsToGraph, type TagsToGraphOptions } from './tags.js';
import type { Query } from 'web-tree-sitter';

/**
 * Options of {@link createTagsAnalyzer}.
 *
 * @example
 * ```ts
 * createTagsAnalyzer({ grammar: new URL('./tree-sitter-ruby.wasm', import.meta.url), query, definitionKinds: { singleton_method: 'method' } });
 * ```
 */
export interface TagsAnalyzerOptions extends TreeSitterOptions {
  /** The grammar `.wasm` (path or `file:` URL), or a grammar already loaded. */
  grammar: string | URL | Grammar;
  /** Source of the tags query (`queries/tags.scm`). */
  query: string;
  definitionKinds?: Readonly<Record<string, NodeKind>>;
  referenceKinds?: Readonly<Record<string, EdgeKind>>;
  qualifierSeparator?: RegExp;
}

/**
 * The hooks {@link createTagsAnalyzer} returns, to spread into `runAnalyzer({...})`.
 *
 * @example
 * ```ts
 * const tags = createTagsAnalyzer({ grammar, query });
 * await runAnalyzer({ id, version, initialize: tags.initialize, analyzeFile: tags.analyzeFile });
 * ```
 */
export interface TagsAnalyzerHooks {
  /** Loads the grammar and compiles the query (once); a failure answers `initialize` with the reason. */
  initialize(session?: SessionInfo): Promise<void>;
  /** Parses one file and turns its tags into a Phase A graph. */
  analyzeFile(file: SourceFile, ctx: FileContext): Promise<FileAnalysis>;
}

/**
 * A complete structural analyzer from a grammar and a tags query: parse, run the query,
 * turn the tags into a Phase A graph ({@link tagsToGraph}), add a `PARSE_ERRORS` warning
 * when the file has syntax errors, free the tree. The grammar is loaded in `initialize`
 * (so `hello` stays fast and a plugin started by hand explains itself before touching wasm)
 * and a broken query fails `initialize` instead of every file.
 *
 * @example
 * ```ts
 * import { runAnalyzer } from '@travsr/sdk';
 * import { createTagsAnalyzer } from '@travsr/sdk/tree-sitter';
 * import tagsQuery from '../queries/tags.scm'; // bundled as text by esbuild
 *
 * await runAnalyzer({
 *   id: 'example-lua',
 *   version: '0.1.0',
 *   languages: ['lua'],
 *   ...createTagsAnalyzer({ grammar: new URL('./tree-sitter-lua.wasm', import.meta.url), query: tagsQuery }),
 * });
 * ```
 */
export function createTagsAnalyzer(options: TagsAnalyzerOptions): TagsAnalyzerHooks {
  let loaded: Promise<{ grammar: Grammar; query: Query }> | undefined;
  const load = () => {
    if (!loaded) {
      const attempt = (async () => {
        const g = options.grammar;
        const grammar = typeof g === 'object' && 'parse' in g ? g : await loadGrammar(g, options);
        return { grammar, query: compileQuery(grammar.language, options.query, grammar.source) };
      })();
      // A failed load is retried on the next call rather than cached.
      attempt.catch(() => {
        if (loaded === attempt) loaded = undefined;
      });
      loaded = attempt;
    }
    return loaded;
  };
  const graphOptions: Omit<TagsToGraphOptions, 'text'> = {};
  if (options.definitionKinds) graphOptions.definitionKinds = options.definitionKinds;
  if (options.referenceKinds) graphOptions.referenceKinds = options.referenceKinds;
  if (options.qualifierSeparator) graphOptions.qualifierSeparator = options.qualifierSeparator;
  return {
    async initialize() {
      await load();
    },
    async analyzeFile(file, ctx) {
      const { grammar, query } = await load();
      const lines = new LineIndex(file.text);
      const tree = grammar.parse(file.text);
      try {
        tagsToGraph(runTagsQuery(grammar.language, tree, query), ctx.graph, { ...graphOptions, text: file.text, lines });
        const diagnostic = parseErrorDiagnostic(tree, lines);
        if (diagnostic) ctx.graph.diagnostic(diagnostic);
      } finally {
        tree.delete();
      }
      return ctx.graph.build();
    },
  };
}
