import type { Node, UnresolvedRef } from '@travsr/sdk';
import type { FileGraphBuilder } from '@travsr/sdk';
import {
  collectTags,
  compileQuery,
  initTreeSitter,
  LineIndex,
  loadGrammar,
  parseErrorDiagnostic,
  tagsToGraph,
  TimedParser,
} from '@travsr/sdk/tree-sitter';
import type { Query } from 'web-tree-sitter';

/** Where the grammar, the runtime and the query come from (dist/ in the built plugin). */
export interface GoSyntaxResources {
  /** `tree-sitter-go.wasm` (tree-sitter-wasms@0.1.13). */
  grammar: string | URL;
  /** web-tree-sitter's `tree-sitter.wasm`; default: web-tree-sitter's own. */
  treeSitterWasm?: string | URL;
  /** Source of queries/go.scm. */
  query: string;
  /** A parse taking longer than this fails its file. Default 20 000 ms. */
  parseTimeoutMs?: number;
}

/** A file's Phase A graph as added to a builder: its definitions and its unresolved refs. */
export interface GoSyntaxGraph {
  definitions: Node[];
  refs: UnresolvedRef[];
  /** The line index of the text, for column conversions. */
  lines: LineIndex;
}

/**
 * Go's structural pass: tree-sitter-go and the tags query turned into definitions (methods
 * qualified by their receiver type, `Ledger.Post`), imports, calls and embedding (`inherits`).
 * One parser, reused for every file.
 */
export class GoSyntax {
  private parser: TimedParser | undefined;
  private query: Query | undefined;

  constructor(private readonly resources: GoSyntaxResources) {}

  /** Loads the runtime, the grammar and the query (once). */
  async initialize(): Promise<void> {
    if (this.parser) return;
    await initTreeSitter(this.resources.treeSitterWasm === undefined ? {} : { treeSitterWasm: this.resources.treeSitterWasm });
    const grammar = await loadGrammar(this.resources.grammar);
    this.query = compileQuery(grammar.language, this.resources.query, 'go (tree-sitter-go.wasm)');
    this.parser = new TimedParser(grammar.language, 'the go grammar (tree-sitter-go.wasm)', this.resources.parseTimeoutMs ?? 20_000);
  }

  /**
   * Parses `text` and adds its Phase A graph to `graph` (with a `PARSE_ERRORS` warning when
   * the syntax is broken).
   * @throws Error when the parse takes longer than the timeout, or the grammar fails.
   */
  addTo(graph: FileGraphBuilder, text: string): GoSyntaxGraph {
    if (!this.parser || !this.query) throw new Error('GoSyntax.initialize() was not called');
    const tree = this.parser.parse(text, graph.path);
    try {
      const lines = new LineIndex(text);
      const out = tagsToGraph(collectTags(this.query, tree), graph, { text, lines });
      const diagnostic = parseErrorDiagnostic(tree, lines);
      if (diagnostic) graph.diagnostic(diagnostic);
      return { ...out, lines };
    } finally {
      tree.delete();
    }
  }
}
