import { tmpdir } from 'node:os';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import type { GoSyntax } from './go-syntax.js';
import { scipGo } from './scip-go-indexer.js';

/**
 * Go: Phase A from tree-sitter (definitions, imports, calls, embedding), and Phase B from
 * scip-go when the host found it and go on its PATH — each module indexed once per session,
 * its occurrences turning the Phase A refs into resolved edges (the SDK's {@link ScipAnalyzer}).
 */
export class GoAnalyzer extends ScipAnalyzer {
  constructor(syntax: GoSyntax, scratchDir: string = process.env['TMPDIR'] ?? tmpdir(), heartbeatMs?: number) {
    super(syntax, scipGo, {
      scratchDir,
      languageOf: (path) => (path.endsWith('.go') ? 'go' : undefined),
      ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    });
  }
}
