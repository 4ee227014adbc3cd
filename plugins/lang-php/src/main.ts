// Entry point of lang-php: PHP Phase A from tree-sitter, Phase B from scip-php when the host
// found it and php on its PATH (initialize.options.tools); without them the session runs
// Phase A only and says why (initialize.unavailable).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import phpQuery from '../queries/php.scm';
import { scipPhp } from './scip-php-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'php',
  grammar: new URL('./tree-sitter-php.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: phpQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipPhp, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
