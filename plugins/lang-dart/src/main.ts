// Entry point of lang-dart: Dart Phase A from tree-sitter, Phase B from scip_dart and dart when the host
// found it on its PATH (initialize.options.tools); without it the session runs Phase A only and
// says why (initialize.unavailable).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import dartQuery from '../queries/dart.scm';
import { scipDart } from './scip-dart-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'dart',
  grammar: new URL('./tree-sitter-dart.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: dartQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipDart, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
