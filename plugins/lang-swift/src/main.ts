// Entry point of lang-swift: Swift Phase A from tree-sitter, Phase B from scip-swift when the host
// found it and swift on its PATH (initialize.options.tools); without them the session runs
// Phase A only and says why (initialize.unavailable).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import swiftQuery from '../queries/swift.scm';
import { scipSwift } from './scip-swift-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'swift',
  grammar: new URL('./tree-sitter-swift.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: swiftQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipSwift, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
