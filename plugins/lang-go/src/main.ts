// Entry point of lang-go: Go Phase A from tree-sitter, Phase B from scip-go when the host
// found it on its PATH (initialize.options.tools); without it the session runs Phase A only
// and says why (initialize.unavailable).
import { runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import goQuery from '../queries/go.scm';
import { GoAnalyzer } from './go-analyzer.js';
import { GoSyntax } from './go-syntax.js';

// The build copies the runtime and the grammar next to the bundle.
const analyzer = new GoAnalyzer(
  new GoSyntax({
    grammar: new URL('./tree-sitter-go.wasm', import.meta.url),
    treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
    query: goQuery,
  }),
);

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
