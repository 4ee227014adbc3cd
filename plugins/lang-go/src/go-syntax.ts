import type { Node, UnresolvedRef } from '@travsr/protocol';
import type { FileGraphBuilder } from '@travsr/sdk';
import {
  collectTags,
  compileQuery,
  initTreeSitter,
  LineIndex,
  loadGrammar,
  parseErrorDiagnostic,
  tagsToGraph,
} from '@travsr/sdk/tree-sitter';
import { Parser, type Language, type Query } from 'web-tree-sitter';

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
  private language: Language | undefined;
  private parser: Parser | undefined;
  private query: Query | undefined;

  constructor(private readonly resources: GoSyntaxResources) {}

  /** Loads the runtime, the grammar and the query (once). */
  async initialize(): Promise<void> {
    if (this.parser) return;
    await initTreeSitter(this.resources.treeSitterWasm === undefined ? {} : { treeSitterWasm: this.resources.treeSitterWasm });
    const grammar = await loadGrammar(this.resources.grammar);
    this.language = grammar.language;
    this.query = compileQuery(grammar.language, this.resources.query, 'go (tree-sitter-go.wasm)');
    this.parser = new Parser();
    this.parser.setLanguage(grammar.language);
  }

  /**
   * Parses `text` and adds its Phase A graph to `graph` (with a `PARSE_ERRORS` warning when
   * the syntax is broken).
   * @throws Error when the parse takes longer than the timeout, or the grammar fails.
   */
  addTo(graph: FileGraphBuilder, text: string): GoSyntaxGraph {
    if (!this.parser || !this.query || !this.language) throw new Error('GoSyntax.initialize() was not called');
    const limit = this.resources.parseTimeoutMs ?? 20_000;
    const deadline = performance.now() + limit;
    const progressCallback = (() => performance.now() > deadline) as unknown as (state: unknown) => void;
    let tree;
    try {
      tree = this.parser.parse(text, null, { progressCallback });
    } catch (e) {
      this.parser.delete();
      this.parser = new Parser();
      this.parser.setLanguage(this.language);
      throw new Error(`tree-sitter-go failed on ${graph.path}: ${(e as Error).message}; the file is left unanalyzed`);
    }
    if (!tree) throw new Error(`parsing ${graph.path} took longer than ${limit / 1000} s and was stopped`);
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
