// Entry point of lang-ruby: Ruby Phase A from tree-sitter, Phase B from scip-ruby when the host
// found it on its PATH (initialize.options.tools); without it the session runs Phase A only and
// says why (initialize.unavailable).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import rubyQuery from '../queries/ruby.scm';
import { scipRuby } from './scip-ruby-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'ruby',
  grammar: new URL('./tree-sitter-ruby.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: rubyQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipRuby, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
