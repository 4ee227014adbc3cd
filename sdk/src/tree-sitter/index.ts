/**
 * Tree-sitter helpers for analyzers (web-tree-sitter 0.25, grammars of ABI 13–15 such as
 * `tree-sitter-wasms@0.1.13`): load a grammar, run a tags query, build a Phase A graph.
 * A structural analyzer is mostly a `tags.scm` file plus {@link createTagsAnalyzer}.
 */
export { initTreeSitter, loadGrammar, type Grammar, type TreeSitterOptions } from './grammar.js';
// Also exported from '@travsr/sdk': tree-sitter analyzers find it here, next to the parser.
export { LineIndex, type Utf16Point } from '../positions.js';
export {
  compileQuery,
  countParseErrors,
  DEFAULT_DEFINITION_KINDS,
  DEFAULT_REFERENCE_KINDS,
  parseErrorDiagnostic,
  runTagsQuery,
  tagsToGraph,
  type ParseErrorSummary,
  type Tag,
  type TagsGraph,
  type TagsToGraphOptions,
} from './tags.js';
export { cleanImportName, cleanReferenceName, collectTags, type CollectOptions } from './collect-tags.js';
export { TimedParser } from './timed-parser.js';
export { createTagsAnalyzer, type TagsAnalyzerOptions, type TagsAnalyzerHooks } from './tags-analyzer.js';
export { TagsSyntax, SyntaxByLanguage, type PhaseASyntax, type SyntaxGraph, type TagsSyntaxResources } from './tags-syntax.js';
