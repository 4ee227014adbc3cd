import { TagsSyntax, type SyntaxGraph, type TagsSyntaxResources } from '@travsr/sdk/tree-sitter';

/** Where the grammar, the runtime and the query come from (dist/ in the built plugin). */
export type GoSyntaxResources = Omit<TagsSyntaxResources, 'language'>;

/** A file's Phase A graph as added to a builder: its definitions and its unresolved refs. */
export type GoSyntaxGraph = SyntaxGraph;

/**
 * Go's structural pass: tree-sitter-go and the tags query (queries/go.scm) turned into
 * definitions (methods qualified by their receiver type, `Ledger.Post`), imports, calls and
 * embedding (`inherits`). One parser, reused for every file.
 */
export class GoSyntax extends TagsSyntax {
  constructor(resources: GoSyntaxResources) {
    super({ language: 'go', ...resources });
  }
}
